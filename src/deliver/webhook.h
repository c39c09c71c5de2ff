#pragma once

// WebhookDestination posts each alert (the alert schema's JSON) as the body of an HTTP POST.
// Secrets never come from the command line: headers are read from a file ("Name: value" per
// line) and a bearer token from a file or an environment variable. Each request carries an
// Idempotency-Key (fingerprint, action, stage, time), so a receiver can drop the rare
// repeat after a crash.

#include <string>

#include "base/result.h"
#include "deliver/destination.h"
#include "deliver/http_client.h"
#include "deliver/redacted_url.h"

namespace foreshock {

struct WebhookOptions {
  std::string url;
  HttpOptions http;
};

// Headers from a file ("Name: value" per line, # comments) and a bearer token from a file or
// an environment variable, appended to *headers. Fails on an unreadable file or an unset
// variable, or a malformed line.
Status LoadWebhookSecrets(const std::string& headers_file, const std::string& token_file,
                          const std::string& token_env, std::vector<std::string>* headers);

class WebhookDestination final : public Destination {
 public:
  explicit WebhookDestination(WebhookOptions options)
      : options_(std::move(options)), name_("webhook:" + RedactedUrl(options_.url)), http_(options_.http) {}

  std::string_view name() const override { return name_; }
  SendResult Send(const nlohmann::json& alert) override;

 private:
  WebhookOptions options_;
  std::string name_;
  HttpClient http_;
};

}  // namespace foreshock
