#include "report/timeline.h"

#include <algorithm>
#include <cstdio>

#include "base/counted.h"
#include "base/terminal_text.h"
#include "correlate/alert_text.h"
#include "sink/alert_json.h"

namespace foreshock {

void Timeline::Extend(TimePoint time) {
  if (first_ == TimePoint{} || time < first_) first_ = time;
  if (time > last_) last_ = time;
}

void Timeline::NoteHits(const LogRecord& record, const std::vector<PatternHit>& hits, const Catalog& catalog) {
  if (hits.empty()) return;
  Extend(record.time);
  const int64_t minute = std::chrono::duration_cast<std::chrono::minutes>(record.time.time_since_epoch()).count();
  // Each hit counts for the node it is about (a master's "low disk watermark exceeded on
  // es-data-3" is es-data-3's), as correlation counts it.
  for (const PatternHit& hit : hits) {
    const Pattern& pattern = catalog.patterns()[hit.pattern];
    const std::string subject = SubjectNode(pattern, hit, record);
    NodeHits& node = nodes_[subject.empty() ? "(no node)" : subject];
    ++node.per_pattern[pattern.id];
    ++pattern_totals_[pattern.id];
    if (pattern.severity < Severity::kWarning) {
      ++node.info_per_minute[minute];
      continue;
    }
    ++node.per_minute[minute];
    if (node.first.pattern.empty() || record.time < node.first.time) {
      node.first = {record.time, pattern.id, std::string(record.message().substr(0, 300)),
                    std::string(record.source) + ":" + std::to_string(record.line_number)};
    }
  }
}

void Timeline::NoteAlert(const Alert& alert) {
  Extend(alert.time);
  if (alerts_.size() >= kMaxAlerts) {
    ++alerts_left_out_;
    return;
  }
  alerts_.push_back(AlertToJson(alert));
}

std::string Timeline::RenderSummary() const {
  std::string out;
  char line[512];
  uint64_t records = 0;
  for (const InputReport& input : inputs_) records += input.records;
  out += "foreshock replay: " + Counted(inputs_.size(), "input", "inputs") + ", " +
         Counted(records, "record", "records") + ", " + Counted(alerts_.size(), "alert", "alerts");
  if (first_ != TimePoint{}) out += ", precursors from " + FormatTimestamp(first_) + " to " + FormatTimestamp(last_);
  out += "\n";
  std::map<std::string, std::vector<const nlohmann::json*>> by_node;
  for (const nlohmann::json& alert : alerts_) {
    const std::string node =
        alert.contains("elasticsearch") && alert["elasticsearch"].contains("node")
            ? alert["elasticsearch"]["node"]["name"].get<std::string>()
            : (alert.contains("elasticsearch") && alert["elasticsearch"].contains("cluster")
                   ? "cluster " + alert["elasticsearch"]["cluster"]["name"].get<std::string>()
                   : "(cluster-wide)");
    by_node[node].push_back(&alert);
  }
  for (const auto& [node, hits] : nodes_) by_node.try_emplace(node);
  for (const auto& [node, alerts] : by_node) {
    out += "\n" + EscapeForTerminal(node) + "\n";
    if (auto it = nodes_.find(node); it != nodes_.end() && !it->second.first.pattern.empty()) {
      const FirstPrecursor& first = it->second.first;
      out += "  first precursor  " + FormatTimestamp(first.time) + "  " + first.pattern + "  (" +
             EscapeForTerminal(first.source) + ")\n";
    } else {
      out += "  no precursor at warning or above\n";
    }
    if (alerts.empty()) out += "  no alert\n";
    for (const nlohmann::json* alert : alerts) {
      const auto& a = *alert;
      std::snprintf(line, sizeof line, "  %s  %-9s %-8s %s stage %d", a["@timestamp"].get<std::string>().c_str(),
                    a["event"]["action"].get<std::string>().c_str(), a["log"]["level"].get<std::string>().c_str(),
                    EscapeForTerminal(a["rule"]["id"].get<std::string>()).c_str(), a["foreshock"]["stage"].get<int>());
      out += line;
      if (a["foreshock"].contains("lead_time_s")) {
        const double lead = a["foreshock"]["lead_time_s"].get<double>();
        out += lead > 0 ? "  OUTAGE MARKER, lead time " + FormatLeadTime(lead)
                        : "  OUTAGE MARKER, nothing warned before it";
      }
      out += "\n";
    }
  }
  std::vector<std::pair<uint64_t, std::string>> busiest;
  for (const auto& [pattern, count] : pattern_totals_) busiest.emplace_back(count, pattern);
  std::sort(busiest.rbegin(), busiest.rend());
  if (!busiest.empty()) out += "\nbusiest patterns\n";
  for (size_t i = 0; i < busiest.size() && i < 10; ++i) {
    std::snprintf(line, sizeof line, "  %8llu  %s\n", static_cast<unsigned long long>(busiest[i].first),
                  busiest[i].second.c_str());
    out += line;
  }
  bool header = false;
  for (const InputReport& input : inputs_) {
    if (input.damage.empty() && input.failure.empty() && input.unreadable == 0) continue;
    if (!header) out += "\ncould not read everything\n";
    header = true;
    out += "  " + EscapeForTerminal(input.name) + ": ";
    if (!input.failure.empty()) out += input.failure + " (passed over)";
    if (!input.damage.empty()) out += input.damage + " (the lines before it were used)";
    if (input.unreadable > 0) {
      out += (input.damage.empty() ? "" : "; ") + std::to_string(input.unreadable) + " unreadable records passed over";
    }
    out += "\n";
  }
  if (alerts_left_out_ > 0) out += "\n" + std::to_string(alerts_left_out_) + " more alerts left out of the report\n";
  return out;
}

}  // namespace foreshock
