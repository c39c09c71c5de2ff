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
  if (!record.cluster.empty() && clusters_.size() < 20) clusters_.insert(record.cluster);
  const int64_t minute = std::chrono::duration_cast<std::chrono::minutes>(record.time.time_since_epoch()).count();
  // Each hit counts for the node it is about (a master's "low disk watermark exceeded on
  // es-data-3" is es-data-3's), as correlation counts it.
  for (const PatternHit& hit : hits) {
    const Pattern& pattern = catalog.patterns()[hit.pattern];
    const std::string subject = SubjectNode(pattern, hit, record);
    NodeHits& node = nodes_[subject.empty() ? "(no node)" : subject];
    ++node.per_pattern[pattern.id];
    ++node.patterns_per_minute[minute][pattern.id];
    ++pattern_totals_[pattern.id];
    pattern_severity_.try_emplace(pattern.id, pattern.severity);
    for (const Capture& capture : hit.captures) {
      const auto type = pattern.fields.find(capture.name);
      if (!capture.number || type == pattern.fields.end() || type->second == FieldType::kString) continue;
      ValueSeries& series = node.values[{pattern.id, capture.name}];
      series.type = type->second;
      auto [at, fresh] = series.per_minute.try_emplace(minute, *capture.number);
      if (!fresh) at->second = std::max(at->second, *capture.number);
    }
    if (pattern.marker == Marker::kOutage) {
      OutageEpisode* episode = nullptr;
      for (OutageEpisode& open : node.outages) {
        if (open.pattern == pattern.id && record.time - open.last <= kOutageGap && record.time >= open.first) {
          episode = &open;
        }
      }
      if (episode == nullptr) {
        node.outages.push_back({pattern.id, pattern.title, record.time, record.time, 0});
        episode = &node.outages.back();
      }
      episode->last = std::max(episode->last, record.time);
      ++episode->count;
    }
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
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, falsely) on "\n" + a temporary.
    out += '\n';
    out += EscapeForTerminal(node);
    out += '\n';
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
  bool outages = false;
  for (const auto& [node, hits] : nodes_) {
    for (const OutageEpisode& outage : hits.outages) {
      if (!outages) out += "\noutages\n";
      outages = true;
      out += "  " + EscapeForTerminal(node) + "  " + FormatTimestamp(outage.first) + " to " +
             FormatTimestamp(outage.last) + "  " + outage.pattern + ", " + Counted(outage.count, "time", "times") + "\n";
    }
  }
  const auto busiest = Busiest();
  if (!busiest.empty()) out += "\nbusiest patterns (warning and above first)\n";
  for (size_t i = 0; i < busiest.size() && i < 10; ++i) {
    std::snprintf(line, sizeof line, "  %8llu  %-8s %s\n", static_cast<unsigned long long>(busiest[i].second),
                  std::string(SeverityName(pattern_severity_.at(busiest[i].first))).c_str(), busiest[i].first.c_str());
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

std::vector<std::pair<std::string, uint64_t>> Timeline::Busiest() const {
  std::vector<std::pair<std::string, uint64_t>> busiest(pattern_totals_.begin(), pattern_totals_.end());
  auto warning = [&](const std::string& id) { return pattern_severity_.at(id) >= Severity::kWarning; };
  std::stable_sort(busiest.begin(), busiest.end(), [&](const auto& a, const auto& b) {
    if (warning(a.first) != warning(b.first)) return warning(a.first);
    return a.second > b.second;
  });
  return busiest;
}

void Timeline::NoteContext(const std::string& source, std::vector<std::string> lines, uint64_t first_line) {
  contexts_[source] = Context{first_line, std::move(lines)};
}

nlohmann::json Timeline::SummaryJson(const Provenance& provenance) const {
  using Json = nlohmann::json;
  Json out;
  out["foreshock"] = {{"version", provenance.version},
                      {"command_line", provenance.command_line},
                      {"catalog", provenance.catalog},
                      {"generated_at", provenance.generated_at}};
  out["clusters"] = Json(clusters_);
  if (first_ != TimePoint{}) out["precursors"] = {{"from", FormatTimestamp(first_)}, {"to", FormatTimestamp(last_)}};
  out["nodes"] = Json::object();
  for (const auto& [name, hits] : nodes_) {
    Json node = {{"hits", hits.per_pattern}};
    if (!hits.first.pattern.empty()) {
      node["first_precursor"] = {{"@timestamp", FormatTimestamp(hits.first.time)},
                                 {"pattern", hits.first.pattern},
                                 {"source", hits.first.source},
                                 {"message", hits.first.message}};
    }
    for (const OutageEpisode& outage : hits.outages) {
      node["outages"].push_back({{"from", FormatTimestamp(outage.first)},
                                 {"to", FormatTimestamp(outage.last)},
                                 {"pattern", outage.pattern},
                                 {"count", outage.count}});
    }
    out["nodes"][name] = std::move(node);
  }
  out["alerts"] = Json::array();
  for (const Json& alert : alerts_) {
    Json brief = {{"@timestamp", alert["@timestamp"]},
                  {"action", alert["event"]["action"]},
                  {"severity", alert["log"]["level"]},
                  {"rule", alert["rule"]["id"]},
                  {"stage", alert["foreshock"]["stage"]},
                  {"message", alert["message"]}};
    if (alert.contains("elasticsearch")) {
      if (alert["elasticsearch"].contains("node")) brief["node"] = alert["elasticsearch"]["node"]["name"];
      if (alert["elasticsearch"].contains("cluster")) brief["cluster"] = alert["elasticsearch"]["cluster"]["name"];
    }
    if (alert["foreshock"].contains("lead_time_s")) brief["lead_time_s"] = alert["foreshock"]["lead_time_s"];
    out["alerts"].push_back(std::move(brief));
  }
  if (alerts_left_out_ > 0) out["alerts_left_out"] = alerts_left_out_;
  out["busiest_patterns"] = Json::array();
  for (const auto& [id, count] : Busiest()) {
    out["busiest_patterns"].push_back(
        {{"pattern", id}, {"hits", count}, {"severity", SeverityName(pattern_severity_.at(id))}});
  }
  out["inputs"] = Json::array();
  for (const InputReport& input : inputs_) {
    Json entry = {{"name", input.name},
                  {"compression", input.compression.empty() ? "plain" : input.compression},
                  {"records", input.records},
                  {"malformed", input.malformed},
                  {"unreadable", input.unreadable}};
    if (!input.damage.empty()) entry["damage"] = input.damage;
    if (!input.failure.empty()) entry["failure"] = input.failure;
    out["inputs"].push_back(std::move(entry));
  }
  return out;
}

}  // namespace foreshock
