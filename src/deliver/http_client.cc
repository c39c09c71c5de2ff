#include "deliver/http_client.h"

#include "deliver/curl_library.h"
#include "deliver/redacted_url.h"

namespace foreshock {
namespace {

size_t Collect(char* data, size_t size, size_t count, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() < 64 * 1024) body->append(data, size * count);  // enough to quote an error
  return size * count;
}

}  // namespace

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
  if (auto library = CurlLibrary::Get(); library.ok()) {
    curl_library_ = *library;
    curl_ = curl_library_->easy_init();
  }
}

HttpClient::~HttpClient() {
  if (curl_ != nullptr) curl_library_->easy_cleanup(static_cast<CURL*>(curl_));
}

Result<HttpResponse> HttpClient::PostJson(const std::string& url, const std::string& body,
                                          const std::vector<std::string>& extra_headers) {
  if (curl_ == nullptr) {
    const auto library = CurlLibrary::Get();
    return library.ok() ? Status::Internal("curl_easy_init failed") : library.status();
  }
  CURL* curl = static_cast<CURL*>(curl_);
  const CurlLibrary& lib = *curl_library_;
  lib.easy_reset(curl);
  curl_slist* headers = lib.slist_append(nullptr, "Content-Type: application/json");
  for (const std::string& header : options_.headers) headers = lib.slist_append(headers, header.c_str());
  for (const std::string& header : extra_headers) headers = lib.slist_append(headers, header.c_str());
  HttpResponse response;
  char error[CURL_ERROR_SIZE] = {};
  lib.easy_setopt(curl, CURLOPT_URL, url.c_str());
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  lib.easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                  static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(options_.connect_timeout).count()));
  lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                  static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(options_.total_timeout).count()));
  lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(curl, CURLOPT_USERAGENT, "foreshock/" FORESHOCK_VERSION);
  if (!options_.ca_file.empty()) lib.easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
  lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  lib.easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  const CURLcode code = lib.easy_perform(curl);
  lib.slist_free_all(headers);
  if (code != CURLE_OK) {
    return Status::IoError(RedactedUrl(url) + ": " + (error[0] != '\0' ? std::string(error) : lib.easy_strerror(code)));
  }
  lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace foreshock
