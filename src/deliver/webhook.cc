#include "deliver/webhook.h"

#include <cstdlib>
#include <fstream>

#include "deliver/http_status.h"
#include "sink/alert_json.h"

namespace foreshock {
namespace {

std::string Trim(std::string text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

}  // namespace

Status LoadWebhookSecrets(const std::string& headers_file, const std::string& token_file,
                          const std::string& token_env, std::vector<std::string>* headers) {
  if (!headers_file.empty()) {
    std::ifstream in(headers_file);
    if (!in) return Status::InvalidArgument("cannot read the webhook headers file " + headers_file);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      line = Trim(line);
      if (line.empty() || line[0] == '#') continue;
      const size_t colon = line.find(':');
      if (colon == std::string::npos || colon == 0 || line.find_first_of("\r\n") != std::string::npos) {
        return Status::InvalidArgument(headers_file + ":" + std::to_string(number) + ": expected 'Name: value'");
      }
      headers->push_back(Trim(line.substr(0, colon)) + ": " + Trim(line.substr(colon + 1)));
    }
  }
  std::string token;
  if (!token_file.empty()) {
    std::ifstream in(token_file);
    if (!in) return Status::InvalidArgument("cannot read the webhook token file " + token_file);
    std::getline(in, token);
  } else if (!token_env.empty()) {
    const char* value = std::getenv(token_env.c_str());
    if (value == nullptr) return Status::InvalidArgument("the environment variable " + token_env + " is not set");
    token = value;
  }
  token = Trim(token);
  if (!token.empty()) headers->push_back("Authorization: Bearer " + token);
  return Status();
}

SendResult WebhookDestination::Send(const nlohmann::json& alert) {
  const nlohmann::json& fs = alert["foreshock"];
  const std::string key = "Idempotency-Key: " + fs["fingerprint"].get<std::string>() + "-" +
                          alert["event"]["action"].get<std::string>() + "-" + std::to_string(fs["stage"].get<int>()) +
                          "-" + alert["@timestamp"].get<std::string>();
  const std::string body = DumpAlertJson(alert);
  return ResultOfPost(http_.PostJson(options_.url, body, {key}), RedactedUrl(options_.url));
}

}  // namespace foreshock
