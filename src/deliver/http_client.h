#pragma once

// HttpClient posts request bodies with libcurl, for the HTTP destinations; the first client
// loads the library (curl_library.h). Each client owns one curl handle (connections are
// reused) and is used by one thread. TLS verifies peers against the system CA store, or
// against ca_file when given. Every request is bounded by a connect timeout and a total
// timeout.

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/time.h"

namespace foreshock {

struct CurlLibrary;

struct HttpOptions {
  Duration connect_timeout = std::chrono::seconds(5);
  Duration total_timeout = std::chrono::seconds(15);
  std::string ca_file;                // empty: the system store
  std::vector<std::string> headers;   // "Name: value"
};

struct HttpResponse {
  long status = 0;
  std::string body;
};

class HttpClient {
 public:
  explicit HttpClient(HttpOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // POSTs `body` (JSON). A transport failure (refused, timeout, TLS) is an error; any HTTP
  // status is a response.
  Result<HttpResponse> PostJson(const std::string& url, const std::string& body,
                                const std::vector<std::string>& extra_headers = {});

 private:
  HttpOptions options_;
  const CurlLibrary* curl_library_ = nullptr;
  void* curl_ = nullptr;  // CURL*; null when libcurl could not be loaded
};

}  // namespace foreshock
