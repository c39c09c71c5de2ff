#include "deliver/http_client.h"

#include <curl/curl.h>

#include <mutex>

namespace foreshock {
namespace {

size_t Collect(char* data, size_t size, size_t count, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() < 64 * 1024) body->append(data, size * count);  // enough to quote an error
  return size * count;
}

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
  GlobalInitOnce();
  curl_ = curl_easy_init();
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

Result<HttpResponse> HttpClient::PostJson(const std::string& url, const std::string& body,
                                          const std::vector<std::string>& extra_headers) {
  CURL* curl = static_cast<CURL*>(curl_);
  if (curl == nullptr) return Status::Internal("libcurl could not be initialised");
  curl_easy_reset(curl);
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  for (const std::string& header : options_.headers) headers = curl_slist_append(headers, header.c_str());
  for (const std::string& header : extra_headers) headers = curl_slist_append(headers, header.c_str());
  HttpResponse response;
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(options_.connect_timeout).count()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(options_.total_timeout).count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "foreshock/" FORESHOCK_VERSION);
  if (!options_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  const CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  if (code != CURLE_OK) {
    return Status::IoError(url + ": " + (error[0] != '\0' ? std::string(error) : curl_easy_strerror(code)));
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace foreshock
