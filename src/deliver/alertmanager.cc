#include "deliver/alertmanager.h"

#include <filesystem>
#include <fstream>
#include <spdlog/spdlog.h>

#include "base/host_name.h"
#include "deliver/http_status.h"
#include "deliver/redacted_url.h"
#include "sink/alert_json.h"

namespace foreshock {
namespace {

// Alertmanager label names: [a-zA-Z_][a-zA-Z0-9_]*.
std::string LabelName(const std::string& field) {
  std::string name;
  for (char c : field) name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name.insert(name.begin(), '_');
  return name;
}

TimePoint EndsAtWhileFiring(Duration resend) {
  return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now()) + 4 * resend;
}

std::string Text(const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

}  // namespace

nlohmann::json ToAlertmanager(const nlohmann::json& alert, TimePoint ends_at) {
  const nlohmann::json& fs = alert["foreshock"];
  nlohmann::json labels = {{"alertname", alert["rule"]["id"]},
                           {"severity", alert["log"]["level"]},
                           {"category", alert["rule"]["category"]},
                           {"fingerprint", fs["fingerprint"]}};
  for (const auto& [field, value] : fs["group"].items()) labels[LabelName(field)] = Text(value);
  if (alert.contains("elasticsearch")) {
    const nlohmann::json& es = alert["elasticsearch"];
    if (es.contains("cluster")) labels["cluster"] = es["cluster"]["name"];
    if (es.contains("node")) labels["node"] = es["node"]["name"];
  }
  std::string description = alert["rule"]["name"].get<std::string>() + ": " + std::to_string(fs["count"].get<int>()) +
                            " hits since " + fs["first_seen"].get<std::string>() + ".";
  std::string source;
  for (const auto& evidence : fs["evidence"]) {
    description += '\n';  // piece by piece: `"\n" + string` trips GCC 12's -Wrestrict at -O3
    description += evidence["@timestamp"].get<std::string>();
    description += ' ';
    description += evidence["source"].get<std::string>();
    if (evidence.contains("observer") && labels.contains("node") && evidence["observer"] != labels["node"]) {
      description += " (logged by ";
      description += Text(evidence["observer"]);
      description += ')';
    }
    description += ": ";
    description += evidence["message"].get<std::string>().substr(0, 500);
    if (source.empty()) source = evidence["source"].get<std::string>();
  }
  nlohmann::json out = {{"labels", labels},
                        {"annotations", {{"summary", alert["message"]}, {"description", description}}},
                        {"startsAt", fs["first_seen"]}};
  if (fs.contains("runbook") && !fs["runbook"].get<std::string>().empty()) out["annotations"]["runbook"] = fs["runbook"];
  if (fs.contains("lead_time_s")) out["annotations"]["lead_time_s"] = Text(fs["lead_time_s"]);
  out["endsAt"] = alert["event"]["action"] == "resolved" ? alert["@timestamp"].get<std::string>() : FormatTimestamp(ends_at);
  // The log the first evidence line came from, as a file URL (a relative input is made
  // absolute: a link must not depend on where foreshock was started). Standard input has none.
  const std::string path = source.substr(0, source.rfind(':'));
  if (!path.empty() && path != "stdin" && path != "-") {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (!error) out["generatorURL"] = "file://" + HostName() + absolute.lexically_normal().string();
  }
  return out;
}

AlertmanagerDestination::AlertmanagerDestination(AlertmanagerOptions options)
    : options_(std::move(options)), name_("alertmanager:" + RedactedUrl(options_.url)), http_(options_.http) {
  endpoint_ = options_.url;
  while (endpoint_.ends_with("/")) endpoint_.pop_back();
  if (!endpoint_.ends_with("/api/v2/alerts")) endpoint_ += "/api/v2/alerts";
  if (options_.active_file.empty()) return;
  std::ifstream in(options_.active_file);
  const nlohmann::json saved = nlohmann::json::parse(in, nullptr, false);
  if (saved.is_object()) {
    for (const auto& [fingerprint, alert] : saved.items()) active_[fingerprint] = alert;
  }
}

SendResult AlertmanagerDestination::Post(const nlohmann::json& alerts) {
  const std::string body = DumpAlertJson(alerts);
  return ResultOfPost(http_.PostJson(endpoint_, body), RedactedUrl(endpoint_));
}

SendResult AlertmanagerDestination::Send(const nlohmann::json& alert) {
  // Alertmanager knows an alert by its labels: a resolution must carry the labels it fired
  // with, and an escalation that changes the severity label ends the alert it replaces.
  const std::string fingerprint = alert["foreshock"]["fingerprint"];
  const bool resolved = alert["event"]["action"] == "resolved";
  nlohmann::json batch = nlohmann::json::array({ToAlertmanager(alert, EndsAtWhileFiring(options_.resend))});
  if (auto previous = active_.find(fingerprint); previous != active_.end()) {
    nlohmann::json before = ToAlertmanager(previous->second, EndsAtWhileFiring(options_.resend));
    if (resolved) {
      batch[0]["labels"] = before["labels"];
    } else if (before["labels"] != batch[0]["labels"]) {
      before["endsAt"] = alert["@timestamp"];
      batch.push_back(before);
    }
  }
  SendResult result = Post(batch);
  if (!result.status.ok()) return result;
  if (resolved) {
    active_.erase(fingerprint);
  } else {
    active_[fingerprint] = alert;
  }
  SaveActive();
  return result;
}

SendResult AlertmanagerDestination::Refresh() {
  if (active_.empty()) return SendResult::Ok();
  nlohmann::json batch = nlohmann::json::array();
  const TimePoint ends_at = EndsAtWhileFiring(options_.resend);
  for (const auto& [fingerprint, alert] : active_) batch.push_back(ToAlertmanager(alert, ends_at));
  return Post(batch);
}

void AlertmanagerDestination::SaveActive() const {
  if (options_.active_file.empty()) return;
  nlohmann::json saved = nlohmann::json::object();
  for (const auto& [fingerprint, alert] : active_) saved[fingerprint] = alert;
  const std::string temp = options_.active_file + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << saved.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!out) {
      spdlog::warn("cannot save {}", temp);
      return;
    }
  }
  std::rename(temp.c_str(), options_.active_file.c_str());
}

}  // namespace foreshock
