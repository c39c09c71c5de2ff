#include "sink/alert_json.h"

#include <cmath>
#include <cstdio>
#include <string_view>

#include "base/terminal_text.h"

namespace foreshock {

nlohmann::json AlertToJson(const Alert& alert) {
  using Json = nlohmann::json;
  Json out;
  out["@timestamp"] = FormatTimestamp(alert.time);
  out["event"] = {{"kind", "alert"},
                  {"action", std::string(ActionName(alert.action))},
                  {"severity", static_cast<int>(alert.severity)}};
  out["log"] = {{"level", std::string(SeverityName(alert.severity))}};
  // origin: a curated catalog rule, or one of the novelty detector's (learned, not written).
  out["rule"] = {{"id", alert.rule->id}, {"name", alert.rule->name},
                 {"category", alert.rule->category}, {"origin", alert.rule->learned ? "learned" : "curated"}};
  out["message"] = alert.message;
  if (!alert.cluster.empty()) out["elasticsearch"]["cluster"]["name"] = alert.cluster;
  if (!alert.node.empty()) out["elasticsearch"]["node"]["name"] = alert.node;

  Json& fs = out["foreshock"];
  fs["fingerprint"] = alert.fingerprint;
  if (!alert.observer.empty()) fs["observer"] = alert.observer;
  fs["stage"] = alert.stage;
  fs["count"] = alert.count;
  fs["first_seen"] = FormatTimestamp(alert.first_seen);
  fs["window"] = {{"start", FormatTimestamp(alert.window_start)},
                  {"end", FormatTimestamp(alert.window_end)}};
  fs["group"] = Json::object();
  for (const auto& [field, value] : alert.group) fs["group"][field] = value;
  fs["fields"] = Json::object();
  for (const auto& [name, capture] : alert.fields) {
    if (!capture.number) {
      fs["fields"][name] = capture.text;
    } else if (*capture.number == std::floor(*capture.number) && std::fabs(*capture.number) < 9e15) {
      fs["fields"][name] = static_cast<int64_t>(*capture.number);
    } else {
      fs["fields"][name] = *capture.number;
    }
  }
  fs["evidence"] = Json::array();
  for (const Evidence& evidence : alert.evidence) {
    fs["evidence"].push_back({{"@timestamp", FormatTimestamp(evidence.time)},
                              {"pattern", evidence.pattern},
                              {"source", evidence.source},
                              {"observer", evidence.observer},
                              {"message", evidence.message}});
  }
  fs["runbook"] = alert.runbook;
  if (alert.lead_time) fs["lead_time_s"] = ToSeconds(*alert.lead_time);
  return out;
}

std::string DumpAlertJson(const nlohmann::json& json) {
  std::string text = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // Outside strings the JSON text is printable ASCII, so these characters are string content;
  // JSON itself already escaped the C0 ones.
  unsigned code = 0;
  size_t found = 0;
  while (found < text.size() && TerminalHazardAt(text, found, &code) == 0) ++found;
  if (found == text.size()) return text;
  std::string escaped = text.substr(0, found);
  char unicode[8];
  for (size_t i = found; i < text.size();) {
    const size_t length = TerminalHazardAt(text, i, &code);
    if (length == 0) {
      escaped.push_back(text[i++]);
      continue;
    }
    std::snprintf(unicode, sizeof unicode, "\\u%04x", code);
    escaped += unicode;
    i += length;
  }
  return escaped;
}

std::string AlertToJsonLine(const Alert& alert) {
  std::string line = DumpAlertJson(AlertToJson(alert));
  line.push_back('\n');
  return line;
}

std::string AlertIdentity(const Alert& alert) {
  return alert.fingerprint + " " + std::string(ActionName(alert.action)) + " " + std::to_string(alert.stage) + " " +
         FormatTimestamp(alert.time);
}

std::string AlertIdentity(const nlohmann::json& json) {
  if (!json.is_object()) return "";
  const auto& fs = json.value("foreshock", nlohmann::json::object());
  const auto& event = json.value("event", nlohmann::json::object());
  if (!fs.is_object() || !event.is_object()) return "";
  return fs.value("fingerprint", "") + " " + event.value("action", "") + " " + std::to_string(fs.value("stage", -1)) +
         " " + json.value("@timestamp", "");
}


}  // namespace foreshock
