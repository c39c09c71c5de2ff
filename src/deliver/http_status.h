#pragma once

// How the HTTP destinations read a receiver's answer: 2xx delivered; 408, 429 and 5xx are
// worth retrying; any other status refuses this alert for good.

#include <string>

#include "deliver/destination.h"
#include "deliver/http_client.h"

namespace foreshock {

inline SendResult ResultOfPost(const Result<HttpResponse>& response, const std::string& what) {
  if (!response.ok()) return SendResult::Retry(response.status().message());
  const long status = response.value().status;
  if (status >= 200 && status < 300) return SendResult::Ok();
  const std::string why = what + ": HTTP " + std::to_string(status) + " " + response.value().body.substr(0, 300);
  if (status == 408 || status == 429 || status >= 500) return SendResult::Retry(why);
  return SendResult::Reject(why);
}

}  // namespace foreshock
