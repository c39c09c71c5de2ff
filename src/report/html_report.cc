#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "base/counted.h"
#include "base/time_zone.h"
#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

constexpr double kWidth = 1200;
constexpr double kLeft = 210;
constexpr double kRight = 20;
constexpr double kTop = 34;
constexpr double kRow = 58;
constexpr int kBuckets = 240;

const char* SeverityColour(const std::string& level, const std::string& action) {
  if (action == "resolved") return "#2e7d32";
  if (level == "critical") return "#c62828";
  if (level == "warning") return "#ef8f00";
  return "#1565c0";
}

std::string NodeOf(const nlohmann::json& alert) {
  if (alert.contains("elasticsearch") && alert["elasticsearch"].contains("node")) {
    return alert["elasticsearch"]["node"]["name"].get<std::string>();
  }
  return "(cluster-wide)";
}

// The alert's own time, read back from the schema's @timestamp.
TimePoint TimeOf(const nlohmann::json& alert) {
  auto parsed = ParseTimestamp(alert["@timestamp"].get<std::string>(), TimeZone::Utc());
  return parsed ? parsed->time : TimePoint{};
}

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// " (logged by es-master-1)" when another node than the alert's wrote the evidence line.
std::string LoggedBy(const nlohmann::json& alert, const nlohmann::json& evidence) {
  if (!evidence.contains("observer") || !evidence["observer"].is_string()) return "";
  const std::string observer = evidence["observer"];
  if (observer.empty() || observer == NodeOf(alert)) return "";
  return " (logged by " + EscapeHtml(observer) + ")";
}

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;max-width:1240px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px}
.sub{color:#666;margin-bottom:16px}
svg{background:#fafafa;border:1px solid #ddd}
svg text{font-size:12px;fill:#333} svg .axis{fill:#777;font-size:11px}
table{border-collapse:collapse;width:100%;font-size:13px} th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;vertical-align:top}
.sev{display:inline-block;padding:1px 6px;border-radius:3px;color:#fff;font-size:11px}
pre{background:#f4f4f4;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}
details{margin:2px 0 10px} summary{cursor:pointer;color:#1565c0}
.ev{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.legend span{margin-right:16px;font-size:12px}
)";

}  // namespace

std::string EscapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string RenderHtml(const Timeline& timeline, const std::string& title) {
  // Rows: nodes with hits or alerts, in name order.
  std::set<std::string> names;
  for (const auto& [node, hits] : timeline.nodes()) names.insert(node);
  for (const auto& alert : timeline.alerts()) names.insert(NodeOf(alert));
  const std::vector<std::string> rows(names.begin(), names.end());
  auto row_of = [&](const std::string& node) {
    return static_cast<double>(std::find(rows.begin(), rows.end(), node) - rows.begin());
  };
  TimePoint from = timeline.first_time();
  TimePoint to = timeline.last_time();
  if (to - from < std::chrono::minutes(10)) {
    from -= std::chrono::minutes(5);
    to += std::chrono::minutes(5);
  }
  const double span = static_cast<double>((to - from).count());
  auto x_of = [&](TimePoint t) {
    return kLeft + (kWidth - kLeft - kRight) * std::clamp(static_cast<double>((t - from).count()) / span, 0.0, 1.0);
  };
  const double height = kTop + kRow * std::max<size_t>(rows.size(), 1) + 10;

  std::string svg = "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Number(kWidth) +
                    "\" height=\"" + Number(height) + "\" viewBox=\"0 0 " + Number(kWidth) + " " + Number(height) +
                    "\" role=\"img\" aria-label=\"pattern hits and alerts per node over time\">\n";
  // Time axis: ticks on round minutes, at most eight, HH:MM UTC, the date on the first.
  const auto span_minutes = std::chrono::duration_cast<std::chrono::minutes>(to - from).count();
  int64_t step = 1;
  for (int64_t candidate : {1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080}) {
    step = candidate;
    if (span_minutes / candidate <= 8) break;
  }
  const auto first_minute = std::chrono::duration_cast<std::chrono::minutes>(from.time_since_epoch()).count();
  bool dated = false;
  for (int64_t minute = (first_minute / step + 1) * step;; minute += step) {
    const TimePoint t{std::chrono::duration_cast<Duration>(std::chrono::minutes(minute))};
    if (t > to) break;
    const double x = x_of(t);
    const std::string stamp = FormatTimestamp(t);
    svg += "<line x1=\"" + Number(x) + "\" y1=\"" + Number(kTop - 6) + "\" x2=\"" + Number(x) + "\" y2=\"" +
           Number(height - 10) + "\" stroke=\"#e4e4e4\"/>\n";
    svg += "<text class=\"axis\" x=\"" + Number(x) + "\" y=\"" + Number(kTop - 12) + "\" text-anchor=\"middle\">" +
           (!dated || stamp.substr(11, 5) == "00:00" ? stamp.substr(0, 10) + " " : "") + stamp.substr(11, 5) +
           "</text>\n";
    dated = true;
  }
  // Hits: per row, bars over kBuckets buckets, height by log of the count.
  const double bucket_us = span / kBuckets;
  for (size_t r = 0; r < rows.size(); ++r) {
    const double base = kTop + kRow * static_cast<double>(r) + kRow - 10;
    svg += "<text x=\"8\" y=\"" + Number(base - 16) + "\">" + EscapeHtml(rows[r]) + "</text>\n";
    svg += "<line x1=\"" + Number(kLeft) + "\" y1=\"" + Number(base) + "\" x2=\"" + Number(kWidth - kRight) +
           "\" y2=\"" + Number(base) + "\" stroke=\"#ccc\"/>\n";
    auto it = timeline.nodes().find(rows[r]);
    if (it == timeline.nodes().end()) continue;
    // Info-level hits (background noise) light, precursors at warning or above dark.
    const double bar = (kWidth - kLeft - kRight) / kBuckets;
    for (const auto* minutes : {&it->second.info_per_minute, &it->second.per_minute}) {
      const bool precursors = minutes == &it->second.per_minute;
      std::map<int, uint64_t> buckets;
      for (const auto& [minute, count] : *minutes) {
        const TimePoint t{std::chrono::duration_cast<Duration>(std::chrono::minutes(minute))};
        const int bucket = static_cast<int>(std::clamp(static_cast<double>((t - from).count()) / bucket_us, 0.0,
                                                       static_cast<double>(kBuckets - 1)));
        buckets[bucket] += count;
      }
      uint64_t most = 1;
      for (const auto& [bucket, count] : buckets) most = std::max(most, count);
      for (const auto& [bucket, count] : buckets) {
        const double h = (precursors ? 6 : 3) + (precursors ? 28 : 12) * std::log1p(static_cast<double>(count)) /
                                                   std::log1p(static_cast<double>(most));
        svg += std::string("<rect class=\"") + (precursors ? "hits" : "info-hits") + "\" x=\"" +
               Number(kLeft + bar * bucket) + "\" y=\"" + Number(base - h) + "\" width=\"" +
               Number(std::max(bar - 0.5, 1.0)) + "\" height=\"" + Number(h) + "\" fill=\"" +
               (precursors ? "#546e7a" : "#cfd8dc") + "\"><title>" + std::to_string(count) +
               (precursors ? " precursor hits" : " info-level hits") + "</title></rect>\n";
      }
    }
  }
  // Lead spans first (under the markers), then the alert markers.
  for (const auto& alert : timeline.alerts()) {
    if (!alert["foreshock"].contains("lead_time_s")) continue;
    const double lead = alert["foreshock"]["lead_time_s"].get<double>();
    if (lead <= 0) continue;
    const TimePoint at = TimeOf(alert);
    const TimePoint start = at - std::chrono::duration_cast<Duration>(std::chrono::duration<double>(lead));
    const double base = kTop + kRow * row_of(NodeOf(alert)) + kRow - 10;
    const double x1 = x_of(start);
    const double x2 = x_of(at);
    svg += "<rect class=\"lead-span\" x=\"" + Number(x1) + "\" y=\"" + Number(base - 44) + "\" width=\"" +
           Number(std::max(x2 - x1, 1.0)) + "\" height=\"40\" fill=\"#c62828\" fill-opacity=\"0.12\" stroke=\"#c62828\" "
           "stroke-dasharray=\"4 3\"><title>lead time " + FormatLeadTime(lead) + " before the outage marker</title></rect>\n";
    svg += "<text x=\"" + Number(x1 + 4) + "\" y=\"" + Number(base - 32) + "\" fill=\"#c62828\">lead time " +
           FormatLeadTime(lead) + "</text>\n";
  }
  for (size_t i = 0; i < timeline.alerts().size(); ++i) {
    const auto& alert = timeline.alerts()[i];
    const std::string action = alert["event"]["action"];
    const std::string level = alert["log"]["level"];
    const std::string stamp = alert["@timestamp"];
    const double x = x_of(TimeOf(alert));
    const double base = kTop + kRow * row_of(NodeOf(alert)) + kRow - 10;
    const std::string tip = stamp + " " + action + " " + level + " " + alert["rule"]["id"].get<std::string>() +
                            ": " + alert["message"].get<std::string>();
    svg += "<a href=\"#alert-" + std::to_string(i) + "\"><circle class=\"alert-marker\" cx=\"" + Number(x) +
           "\" cy=\"" + Number(base - 22) + "\" r=\"7\" fill=\"" + SeverityColour(level, action) +
           "\" stroke=\"#fff\" stroke-width=\"1.5\"><title>" + EscapeHtml(tip) + "</title></circle></a>\n";
  }
  svg += "</svg>\n";

  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                     EscapeHtml(title) + "</title>\n<style>" + kStyle + "</style></head><body>\n";
  html += "<h1>" + EscapeHtml(title) + "</h1>\n<div class=\"sub\">" +
          Counted(timeline.alerts().size(), "alert", "alerts") + " on " + Counted(rows.size(), "node", "nodes");
  if (timeline.first_time() != TimePoint{}) {
    html += ", " + FormatTimestamp(timeline.first_time()) + " to " + FormatTimestamp(timeline.last_time());
  }
  html += " (UTC)</div>\n<div class=\"legend\"><span style=\"color:#546e7a\">&#9646; precursor hits</span>"
          "<span style=\"color:#b0bec5\">&#9646; info-level hits</span>"
          "<span style=\"color:#ef8f00\">&#9679; warning</span><span style=\"color:#c62828\">&#9679; critical</span>"
          "<span style=\"color:#2e7d32\">&#9679; resolved</span><span style=\"color:#c62828\">&#9633; lead time "
          "before an outage marker</span></div>\n";
  html += svg;
  html += "<h2>Alerts</h2>\n<table><tr><th>time (UTC)</th><th>node</th><th>severity</th><th>action</th><th>rule</th>"
          "<th>message</th><th>lead time</th></tr>\n";
  for (size_t i = 0; i < timeline.alerts().size(); ++i) {
    const auto& alert = timeline.alerts()[i];
    const std::string action = alert["event"]["action"];
    const std::string level = alert["log"]["level"];
    std::string lead;
    if (alert["foreshock"].contains("lead_time_s")) {
      const double seconds = alert["foreshock"]["lead_time_s"].get<double>();
      lead = seconds > 0 ? FormatLeadTime(seconds) : "none";
    }
    html += "<tr id=\"alert-" + std::to_string(i) + "\"><td>" + EscapeHtml(alert["@timestamp"].get<std::string>()) +
            "</td><td>" + EscapeHtml(NodeOf(alert)) + "</td><td><span class=\"sev\" style=\"background:" +
            SeverityColour(level, action) + "\">" + EscapeHtml(level) + "</span></td><td>" + EscapeHtml(action) +
            "</td><td>" + EscapeHtml(alert["rule"]["id"].get<std::string>()) + " (stage " +
            alert["foreshock"]["stage"].dump() + ")</td><td>" + EscapeHtml(alert["message"].get<std::string>());
    html += "<details><summary>evidence and runbook</summary><ul>";
    for (const auto& evidence : alert["foreshock"]["evidence"]) {
      html += "<li class=\"ev\">" + EscapeHtml(evidence["@timestamp"].get<std::string>()) + " " +
              EscapeHtml(evidence["source"].get<std::string>()) + LoggedBy(alert, evidence) + " [" +
              EscapeHtml(evidence["pattern"].get<std::string>()) +
              "] " + EscapeHtml(evidence["message"].get<std::string>()) + "</li>";
    }
    html += "</ul><pre>" + EscapeHtml(alert["foreshock"]["runbook"].get<std::string>()) + "</pre></details></td><td>" +
            EscapeHtml(lead) + "</td></tr>\n";
  }
  html += "</table>\n<h2>Summary</h2>\n<pre>" + EscapeHtml(timeline.RenderSummary()) + "</pre>\n";
  html += "<h2>Inputs</h2>\n<table><tr><th>input</th><th>compression</th><th>records</th><th>malformed</th>"
          "<th>unreadable</th><th>damage</th></tr>\n";
  for (const InputReport& input : timeline.inputs()) {
    html += "<tr><td>" + EscapeHtml(input.name) + "</td><td>" + EscapeHtml(input.compression.empty() ? "plain" : input.compression) +
            "</td><td>" + std::to_string(input.records) + "</td><td>" + std::to_string(input.malformed) + "</td><td>" +
            std::to_string(input.unreadable) + "</td><td>" + EscapeHtml(input.damage.empty() ? input.failure : input.damage) + "</td></tr>\n";
  }
  html += "</table>\n<p class=\"sub\">Made by foreshock replay.</p>\n</body></html>\n";
  return html;
}

}  // namespace foreshock
