#include "report/html_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>

#include "base/counted.h"
#include "base/time_zone.h"
#include "base/timestamp_parser.h"
#include "catalog/catalog.h"

namespace foreshock {
namespace {

using Json = nlohmann::json;

constexpr double kWidth = 1200;
constexpr double kLeft = 190;
constexpr double kRight = 20;
constexpr double kAxis = 40;   // two rows of tick labels: UTC and relative to the outage
constexpr double kRow = 96;    // per node: lead-time lane, up to four marker lanes, hit bars
constexpr double kChart = 96;  // per chart of captured numbers
constexpr int kBuckets = 240;
constexpr size_t kMaxCharts = 24;
constexpr size_t kNameChars = 26;  // longer node names are cut, the whole name on hover

// The first colour is used for nothing else on the page: a screenshot test finds the plotted values by it.
constexpr const char* kPalette[] = {"#00897b", "#c62828", "#6a1b9a", "#1565c0", "#ef6c00", "#8d6e63"};

const char* SeverityColour(const std::string& level, const std::string& action) {
  if (action == "resolved") return "#2e7d32";
  if (level == "critical") return "#c62828";
  if (level == "warning") return "#ef8f00";
  return "#1565c0";
}

std::string NodeOf(const Json& alert) {
  if (alert.contains("elasticsearch") && alert["elasticsearch"].contains("node")) {
    return alert["elasticsearch"]["node"]["name"].get<std::string>();
  }
  return "(cluster-wide)";
}

std::string ClusterOf(const Json& alert) {
  if (alert.contains("elasticsearch") && alert["elasticsearch"].contains("cluster")) {
    return alert["elasticsearch"]["cluster"]["name"].get<std::string>();
  }
  return "";
}

// Alerts of the novelty detector's rules say so: learned from the cluster's own logs, not
// curated in the catalog.
std::string LearnedMark(const Json& alert) {
  return alert["rule"].value("origin", "") == "learned" ? " <span class=\"learned\" title=\"learned from this cluster's "
                                                          "baseline, not a curated pattern\">learned</span>"
                                                        : "";
}

TimePoint TimeOf(const Json& alert) {
  auto parsed = ParseTimestamp(alert["@timestamp"].get<std::string>(), TimeZone::Utc());
  return parsed ? parsed->time : TimePoint{};
}

TimePoint MinuteStart(int64_t minute) { return TimePoint{std::chrono::duration_cast<Duration>(std::chrono::minutes(minute))}; }

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string HourMinute(TimePoint t) { return FormatTimestamp(t).substr(11, 5); }

// "16.3gb", "95%", "3.2s", "500": a captured number as people write it.
std::string ValueText(FieldType type, double value) {
  char text[32];
  if (type == FieldType::kBytes) {
    const char* units[] = {"b", "kb", "mb", "gb", "tb"};
    int unit = 0;
    while (std::fabs(value) >= 1024 && unit < 4) {
      value /= 1024;
      ++unit;
    }
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f%s" : "%.1f%s", value, units[unit]);
  } else if (type == FieldType::kPercent) {
    std::snprintf(text, sizeof text, "%g%%", value);
  } else if (type == FieldType::kDuration) {
    std::snprintf(text, sizeof text, "%gs", value);
  } else {
    std::snprintf(text, sizeof text, "%g", value);
  }
  return text;
}

// "T", "T−20m", "T+1h05m": a time relative to the outage.
std::string Relative(int64_t minutes) {
  if (minutes == 0) return "T";
  const int64_t size = std::llabs(minutes);
  char text[32];
  if (size >= 60) {
    std::snprintf(text, sizeof text, "%lldh%02lldm", static_cast<long long>(size / 60), static_cast<long long>(size % 60));
  } else {
    std::snprintf(text, sizeof text, "%lldm", static_cast<long long>(size));
  }
  return std::string("T") + (minutes < 0 ? "\u2212" : "+") + text;
}

std::string ShortName(const std::string& name) {
  return name.size() <= kNameChars ? name : name.substr(0, kNameChars - 1) + "\u2026";
}

// " (logged by es-master-1)" when another node than the alert's wrote the evidence line.
std::string LoggedBy(const std::string& node, const Json& evidence) {
  if (!evidence.contains("observer") || !evidence["observer"].is_string()) return "";
  const std::string observer = evidence["observer"];
  if (observer.empty() || observer == node) return "";
  return " (logged by " + EscapeHtml(observer) + ")";
}

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px} h3{font-size:15px;margin:0 0 6px}
.sub{color:#666;margin-bottom:10px}
dl.provenance{display:grid;grid-template-columns:max-content auto;gap:2px 12px;font-size:12px;color:#444;margin:0 0 14px}
dl.provenance dt{font-weight:600} dl.provenance dd{margin:0;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
svg{background:#fafafa;border:1px solid #ddd;width:100%;height:auto;display:block}
svg text{font-size:12px;fill:#333} svg .axis{fill:#777;font-size:11px} svg .rel{fill:#c62828;font-size:11px}
table{border-collapse:collapse;width:100%;font-size:13px} th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;vertical-align:top}
td.nowrap,th{white-space:nowrap}
.sev{display:inline-block;padding:1px 6px;border-radius:3px;color:#fff;font-size:11px}
.learned{display:inline-block;padding:0 5px;border:1px solid #6a1b9a;border-radius:3px;color:#6a1b9a;font-size:11px}
pre{background:#f4f4f4;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap;overflow-wrap:normal;word-break:normal}
.story{border:1px solid #ddd;border-radius:4px;padding:10px 12px;margin:0 0 14px}
.ev{margin:6px 0} .ev .where{font-family:ui-monospace,monospace;font-size:12px;color:#555}
.ev pre{margin:2px 0}
.context{color:#777} .context b{color:#222;font-weight:600}
.legend span{margin-right:16px;font-size:12px}
@media print{body{margin:0}.story{break-inside:avoid;page-break-inside:avoid}h2,h3{break-after:avoid}
a{color:inherit;text-decoration:none}pre{white-space:pre-wrap}}
)";

// The page's frame of time: the span drawn, and where the outage (T) is, if there was one.
struct Frame {
  TimePoint from;
  TimePoint to;
  std::optional<TimePoint> outage;
  double x(TimePoint t) const {
    const double span = static_cast<double>((to - from).count());
    return kLeft + (kWidth - kLeft - kRight) * std::clamp(static_cast<double>((t - from).count()) / span, 0.0, 1.0);
  }
};

Frame FrameOf(const Timeline& timeline) {
  Frame frame{timeline.first_time(), timeline.last_time(), std::nullopt};
  if (frame.to - frame.from < std::chrono::minutes(10)) {
    frame.from -= std::chrono::minutes(5);
    frame.to += std::chrono::minutes(5);
  }
  for (const auto& [node, hits] : timeline.nodes()) {
    for (const OutageEpisode& outage : hits.outages) {
      if (!frame.outage || outage.first < *frame.outage) frame.outage = outage.first;
    }
  }
  return frame;
}

// Ticks on round minutes, at most eight: HH:MM UTC (the date on the first and at midnight)
// and, when there was an outage, the same tick relative to it.
std::string Axis(const Frame& frame, double height) {
  std::string svg;
  const auto span_minutes = std::chrono::duration_cast<std::chrono::minutes>(frame.to - frame.from).count();
  int64_t step = 1;
  for (int64_t candidate : {1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080}) {
    step = candidate;
    if (span_minutes / candidate <= 8) break;
  }
  const auto first_minute = std::chrono::duration_cast<std::chrono::minutes>(frame.from.time_since_epoch()).count();
  bool dated = false;
  for (int64_t minute = (first_minute / step + 1) * step;; minute += step) {
    const TimePoint t = MinuteStart(minute);
    if (t > frame.to) break;
    const double x = frame.x(t);
    const std::string stamp = FormatTimestamp(t);
    svg += "<line x1=\"" + Number(x) + "\" y1=\"" + Number(kAxis - 4) + "\" x2=\"" + Number(x) + "\" y2=\"" +
           Number(height - 4) + "\" stroke=\"#e4e4e4\"/>\n";
    svg += "<text class=\"axis\" x=\"" + Number(x) + "\" y=\"14\" text-anchor=\"middle\">" +
           (!dated || stamp.substr(11, 5) == "00:00" ? stamp.substr(0, 10) + " " : "") + stamp.substr(11, 5) +
           "</text>\n";
    if (frame.outage) {
      const auto relative = std::chrono::duration_cast<std::chrono::minutes>(t - *frame.outage).count();
      svg += "<text class=\"rel\" x=\"" + Number(x) + "\" y=\"30\" text-anchor=\"middle\">" + Relative(relative) +
             "</text>\n";
    }
    dated = true;
  }
  svg += "<text class=\"axis\" x=\"8\" y=\"14\">UTC</text>\n";
  if (frame.outage) {
    svg += "<text class=\"rel\" x=\"8\" y=\"30\">T = outage " + HourMinute(*frame.outage) + "</text>\n";
  }
  return svg;
}

// One bar per bucket with hits; its hover text names the bucket, the node, the count and
// the patterns.
std::string HitBars(const Frame& frame, const std::string& node, const Timeline::NodeHits& hits,
                    const std::map<std::string, Severity>& severity, double base) {
  std::string svg;
  const double bucket_us = static_cast<double>((frame.to - frame.from).count()) / kBuckets;
  const double bar = (kWidth - kLeft - kRight) / kBuckets;
  for (const bool precursors : {false, true}) {
    std::map<int, std::map<std::string, uint64_t>> buckets;
    for (const auto& [minute, patterns] : hits.patterns_per_minute) {
      const int bucket = static_cast<int>(std::clamp(static_cast<double>((MinuteStart(minute) - frame.from).count()) / bucket_us,
                                                     0.0, static_cast<double>(kBuckets - 1)));
      for (const auto& [pattern, count] : patterns) {
        const auto found = severity.find(pattern);
        const bool warning = found != severity.end() && found->second >= Severity::kWarning;
        if (warning == precursors) buckets[bucket][pattern] += count;
      }
    }
    uint64_t most = 1;
    std::map<int, uint64_t> totals;
    for (const auto& [bucket, patterns] : buckets) {
      for (const auto& [pattern, count] : patterns) totals[bucket] += count;
      most = std::max(most, totals[bucket]);
    }
    for (const auto& [bucket, patterns] : buckets) {
      const uint64_t count = totals[bucket];
      const double h = (precursors ? 6 : 3) + (precursors ? 24 : 10) * std::log1p(static_cast<double>(count)) /
                                                  std::log1p(static_cast<double>(most));
      const TimePoint start = frame.from + std::chrono::duration_cast<Duration>(
                                               std::chrono::duration<double, std::micro>(bucket_us * bucket));
      const TimePoint end = start + std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::micro>(bucket_us));
      std::string tip = HourMinute(start) + "\u2013" + HourMinute(end) + " UTC on " + node + ": " +
                        Counted(count, precursors ? "hit" : "info-level hit", precursors ? "hits" : "info-level hits");
      std::vector<std::pair<uint64_t, std::string>> ranked;
      for (const auto& [pattern, n] : patterns) ranked.emplace_back(n, pattern);
      std::sort(ranked.rbegin(), ranked.rend());
      for (const auto& [n, pattern] : ranked) tip += "\n  " + pattern + " \u00d7" + std::to_string(n);
      svg += std::string("<rect class=\"") + (precursors ? "hits" : "info-hits") + "\" x=\"" +
             Number(kLeft + bar * bucket) + "\" y=\"" + Number(base - h) + "\" width=\"" +
             Number(std::max(bar - 0.5, 1.0)) + "\" height=\"" + Number(h) + "\" fill=\"" +
             (precursors ? "#546e7a" : "#cfd8dc") + "\"><title>" + EscapeHtml(tip) + "</title></rect>\n";
    }
  }
  return svg;
}

std::string TimelineSvg(const Timeline& timeline, const Frame& frame, const std::vector<std::string>& rows,
                         const std::map<std::string, Severity>& severity) {
  const double height = kAxis + kRow * static_cast<double>(std::max<size_t>(rows.size(), 1)) + 6;
  std::string svg = "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + Number(kWidth) +
                    " " + Number(height) + "\" role=\"img\" aria-label=\"pattern hits, outages and alerts per node over time\">\n";
  svg += Axis(frame, height);
  auto row_top = [&](const std::string& node) {
    const auto at = std::find(rows.begin(), rows.end(), node) - rows.begin();
    return kAxis + kRow * static_cast<double>(at);
  };
  for (const std::string& node : rows) {
    const double top = row_top(node);
    const double base = top + kRow - 8;
    svg += "<text x=\"8\" y=\"" + Number(top + 50) + "\">" + EscapeHtml(ShortName(node)) + "<title>" +
           EscapeHtml(node) + "</title></text>\n";
    svg += "<line x1=\"" + Number(kLeft) + "\" y1=\"" + Number(base) + "\" x2=\"" + Number(kWidth - kRight) +
           "\" y2=\"" + Number(base) + "\" stroke=\"#ccc\"/>\n";
    const auto it = timeline.nodes().find(node);
    if (it == timeline.nodes().end()) continue;
    // The outage itself: a band from its first to its last marker line.
    for (const OutageEpisode& outage : it->second.outages) {
      const double x1 = frame.x(outage.first);
      const double x2 = std::max(frame.x(outage.last), x1 + 3);
      const std::string what = outage.title + ": " + HourMinute(outage.first) + "\u2013" + HourMinute(outage.last) +
                               " UTC, " + Counted(outage.count, "time", "times");
      svg += "<rect class=\"outage-band\" x=\"" + Number(x1) + "\" y=\"" + Number(top + 2) + "\" width=\"" +
             Number(x2 - x1) + "\" height=\"" + Number(kRow - 10) +
             "\" fill=\"#e53935\" fill-opacity=\"0.16\"><title>outage on " + EscapeHtml(node) + ", " +
             EscapeHtml(outage.pattern) + ": " + EscapeHtml(what) + "</title></rect>\n";
      svg += "<text class=\"outage-label\" x=\"" + Number(x1 + 4) + "\" y=\"" + Number(top + 15) +
             "\" fill=\"#b71c1c\">outage " + EscapeHtml(HourMinute(outage.first) + "\u2013" + HourMinute(outage.last) +
                                                        ", " + Counted(outage.count, "time", "times")) +
             "</text>\n";
    }
    svg += HitBars(frame, node, it->second, severity, base);
  }
  // Lead times: a span in the top lane, ending where the outage marker is; its label ends
  // there too, left of the outage band's.
  for (const auto& alert : timeline.alerts()) {
    if (!alert["foreshock"].contains("lead_time_s")) continue;
    const double lead = alert["foreshock"]["lead_time_s"].get<double>();
    if (lead <= 0) continue;
    const TimePoint at = TimeOf(alert);
    const TimePoint start = at - std::chrono::duration_cast<Duration>(std::chrono::duration<double>(lead));
    const double top = row_top(NodeOf(alert));
    const double x1 = frame.x(start);
    const double x2 = frame.x(at);
    svg += "<rect class=\"lead-span\" x=\"" + Number(x1) + "\" y=\"" + Number(top + 4) + "\" width=\"" +
           Number(std::max(x2 - x1, 1.0)) + "\" height=\"14\" fill=\"#c62828\" fill-opacity=\"0.10\" stroke=\"#c62828\" "
           "stroke-dasharray=\"4 3\"><title>lead time " + FormatLeadTime(lead) + ": the first warning at " +
           HourMinute(start) + ", the outage at " + HourMinute(at) + " UTC</title></rect>\n";
    svg += "<text class=\"lead-label\" x=\"" + Number(x2 - 4) + "\" y=\"" + Number(top + 15) +
           "\" text-anchor=\"end\" fill=\"#c62828\">lead time " + FormatLeadTime(lead) + "</text>\n";
  }
  // Markers in up to four lanes: one that would touch the previous marker of its lane takes
  // the next lane (alerts minutes apart on a two-day axis).
  constexpr size_t kLanes = 4;
  std::map<std::string, std::array<double, kLanes>> lane_end;
  for (size_t i = 0; i < timeline.alerts().size(); ++i) {
    const auto& alert = timeline.alerts()[i];
    const std::string node = NodeOf(alert);
    const std::string action = alert["event"]["action"];
    const std::string level = alert["log"]["level"];
    const double x = frame.x(TimeOf(alert));
    auto& ends = lane_end.try_emplace(node, std::array<double, kLanes>{-100, -100, -100, -100}).first->second;
    size_t lane = std::min_element(ends.begin(), ends.end()) - ends.begin();
    for (size_t free = 0; free < kLanes; ++free) {
      if (x - ends[free] >= 15) {
        lane = free;
        break;
      }
    }
    ends[lane] = x;
    const double y = row_top(node) + 32 + 14 * static_cast<double>(lane);
    const std::string tip = alert["@timestamp"].get<std::string>() + " " + action + " " + level + " " +
                            alert["rule"]["id"].get<std::string>() + ": " + alert["message"].get<std::string>();
    svg += "<a href=\"#alert-" + std::to_string(i) + "\"><circle class=\"alert-marker\" cx=\"" + Number(x) +
           "\" cy=\"" + Number(y) + "\" r=\"6\" fill=\"" + SeverityColour(level, action) +
           "\" stroke=\"#fff\" stroke-width=\"1.5\"><title>" + EscapeHtml(tip) + "</title></circle></a>\n";
  }
  return svg + "</svg>\n";
}

// The numbers behind the story: per node and pattern at warning or above, its captured
// numbers over time on the timeline's axis, scaled to their own range (limits and maxima
// dashed), so a usage creeping up to its limit shows.
std::string ValueCharts(const Timeline& timeline, const Frame& frame, const std::vector<std::string>& rows,
                        const std::map<std::string, Severity>& severity) {
  struct Chart {
    std::string node;
    std::string pattern;
    FieldType type;
    std::vector<std::pair<std::string, const ValueSeries*>> series;
  };
  std::vector<Chart> charts;
  for (const std::string& node : rows) {
    const auto it = timeline.nodes().find(node);
    if (it == timeline.nodes().end()) continue;
    for (const auto& [key, series] : it->second.values) {
      const auto& [pattern, field] = key;
      if (charts.empty() || charts.back().node != node || charts.back().pattern != pattern ||
          charts.back().type != series.type) {
        charts.push_back({node, pattern, series.type, {}});
      }
      charts.back().series.emplace_back(field, &series);
    }
  }
  auto rank = [&](const Chart& chart) {
    const auto found = severity.find(chart.pattern);
    return found == severity.end() ? 0 : static_cast<int>(found->second);
  };
  std::erase_if(charts, [&](const Chart& chart) {
    size_t points = 0;
    for (const auto& [field, series] : chart.series) points += series->per_minute.size();
    return points < 2 || rank(chart) < static_cast<int>(Severity::kWarning);
  });
  std::stable_sort(charts.begin(), charts.end(), [&](const Chart& a, const Chart& b) { return rank(a) > rank(b); });
  if (charts.size() > kMaxCharts) charts.resize(kMaxCharts);
  if (charts.empty()) return "<p>No pattern captured numbers to plot.</p>\n";
  const double height = kChart * static_cast<double>(charts.size()) + 8;
  std::string svg = "<svg id=\"values\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + Number(kWidth) + " " +
                    Number(height) + "\" role=\"img\" aria-label=\"captured numbers over time\">\n";
  for (size_t c = 0; c < charts.size(); ++c) {
    const Chart& chart = charts[c];
    const double top = 8 + kChart * static_cast<double>(c);
    const double plot_top = top + 22;
    const double bottom = top + kChart - 10;
    double most = -HUGE_VAL, least = HUGE_VAL;
    for (const auto& [field, series] : chart.series) {
      for (const auto& [minute, value] : series->per_minute) {
        most = std::max(most, value);
        least = std::min(least, value);
      }
    }
    if (most - least < 1e-9 * std::max(1.0, std::fabs(most))) least = most - std::max(1.0, std::fabs(most) * 0.1);
    auto y_of = [&](double value) { return bottom - (bottom - plot_top) * (value - least) / (most - least); };
    svg += "<text x=\"8\" y=\"" + Number(top + 14) + "\">" + EscapeHtml(ShortName(chart.node)) + "</text>\n";
    svg += "<text class=\"axis\" x=\"8\" y=\"" + Number(top + 29) + "\">" + EscapeHtml(chart.pattern) + "</text>\n";
    svg += "<line x1=\"" + Number(kLeft) + "\" y1=\"" + Number(bottom) + "\" x2=\"" + Number(kWidth - kRight) +
           "\" y2=\"" + Number(bottom) + "\" stroke=\"#ccc\"/>\n";
    for (const double value : {most, least}) {
      svg += "<text class=\"axis\" x=\"" + Number(kLeft - 4) + "\" y=\"" + Number(y_of(value) + 4) +
             "\" text-anchor=\"end\">" + ValueText(chart.type, value) + "</text>\n";
    }
    for (size_t s = 0; s < chart.series.size(); ++s) {
      const auto& [field, series] = chart.series[s];
      const char* colour = kPalette[s % std::size(kPalette)];
      const bool bound = field.ends_with("_limit") || field.ends_with("_max") || field.ends_with("limit");
      std::string points;
      for (const auto& [minute, value] : series->per_minute) {
        points += Number(frame.x(MinuteStart(minute))) + "," + Number(y_of(value)) + " ";
      }
      svg += std::string("<polyline class=\"value-line\" fill=\"none\" stroke=\"") + colour +
             "\" stroke-width=\"2\"" + (bound ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + points + "\"/>\n";
      for (const auto& [minute, value] : series->per_minute) {
        svg += std::string("<circle cx=\"") + Number(frame.x(MinuteStart(minute))) + "\" cy=\"" + Number(y_of(value)) +
               "\" r=\"2.5\" fill=\"" + colour + "\"><title>" + EscapeHtml(chart.node) + " " + HourMinute(MinuteStart(minute)) +
               " UTC: " + EscapeHtml(field) + " " + ValueText(chart.type, value) + " (largest that minute)</title></circle>\n";
      }
      svg += std::string("<text class=\"value-legend\" x=\"") + Number(kLeft + 6 + 170 * static_cast<double>(s)) +
             "\" y=\"" + Number(top + 14) + "\" fill=\"" + colour + "\">" + (bound ? "- - " : "\u2014 ") +
             EscapeHtml(field) + "</text>\n";
    }
  }
  return svg + "</svg>\n";
}

std::string Title(const Timeline& timeline) {
  std::string clusters;
  for (const std::string& cluster : timeline.clusters()) clusters += (clusters.empty() ? "" : ", ") + cluster;
  std::string title = "foreshock replay: " + (clusters.empty() ? std::string("cluster not named in the logs")
                                                               : (timeline.clusters().size() > 1 ? "clusters " : "cluster ") + clusters);
  if (timeline.first_time() != TimePoint{}) {
    const std::string from = FormatTimestamp(timeline.first_time());
    const std::string to = FormatTimestamp(timeline.last_time());
    title += ", " + from.substr(0, 10) + " " + from.substr(11, 5) + "\u2013" +
             (to.substr(0, 10) == from.substr(0, 10) ? "" : to.substr(0, 10) + " ") + to.substr(11, 5) + " UTC";
  }
  return title;
}

// An evidence line, with lines of context from its input when --context was given.
std::string EvidenceHtml(const Timeline& timeline, const std::string& node, const Json& evidence) {
  const std::string source = evidence["source"].get<std::string>();
  std::string html = "<div class=\"ev\"><div class=\"where\">" + EscapeHtml(evidence["@timestamp"].get<std::string>()) +
                     " " + EscapeHtml(source) + LoggedBy(node, evidence) + " [" +
                     EscapeHtml(evidence["pattern"].get<std::string>()) + "]</div>";
  const auto context = timeline.contexts().find(source);
  if (context == timeline.contexts().end()) {
    return html + "<pre>" + EscapeHtml(evidence["message"].get<std::string>()) + "</pre></div>\n";
  }
  const uint64_t line = std::stoull(source.substr(source.rfind(':') + 1));
  html += "<pre class=\"context\">";
  for (size_t i = 0; i < context->second.lines.size(); ++i) {
    const uint64_t number = context->second.first_line + i;
    const std::string text = std::to_string(number) + "  " + EscapeHtml(context->second.lines[i]);
    html += number == line ? "<b>" + text + "</b>\n" : text + "\n";
  }
  return html + "</pre></div>\n";
}

// One block per alert story (a rule's alert for one group): its emissions, then its evidence
// once, then its rule's runbook (once per rule: later stories point to the first).
std::string Stories(const Timeline& timeline) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> by_story;
  for (size_t i = 0; i < timeline.alerts().size(); ++i) {
    const std::string fingerprint = timeline.alerts()[i]["foreshock"]["fingerprint"].get<std::string>();
    if (!by_story.contains(fingerprint)) order.push_back(fingerprint);
    by_story[fingerprint].push_back(i);
  }
  std::string html;
  std::map<std::string, size_t> runbook_in;  // rule id -> story index that shows it
  for (size_t s = 0; s < order.size(); ++s) {
    const auto& indices = by_story[order[s]];
    const Json& first = timeline.alerts()[indices.front()];
    const std::string rule = first["rule"]["id"].get<std::string>();
    const std::string node = NodeOf(first);
    const std::string cluster = ClusterOf(first);
    html += "<div class=\"story\" id=\"story-" + std::to_string(s) + "\"><h3>" + EscapeHtml(rule) + LearnedMark(first) +
            " on " + EscapeHtml(node) + (cluster.empty() ? "" : " (cluster " + EscapeHtml(cluster) + ")") + "</h3>\n<ul>";
    std::set<std::pair<std::string, std::string>> shown;
    std::vector<const Json*> evidence;
    for (size_t i : indices) {
      const Json& alert = timeline.alerts()[i];
      html += "<li><a href=\"#alert-" + std::to_string(i) + "\">" + EscapeHtml(alert["@timestamp"].get<std::string>()) +
              "</a> " + EscapeHtml(alert["event"]["action"].get<std::string>()) + " " +
              EscapeHtml(alert["log"]["level"].get<std::string>()) + " stage " + alert["foreshock"]["stage"].dump() +
              ": " + EscapeHtml(alert["message"].get<std::string>()) + "</li>";
      for (const Json& line : alert["foreshock"]["evidence"]) {
        if (shown.insert({line["source"].get<std::string>(), line["@timestamp"].get<std::string>()}).second) {
          evidence.push_back(&line);
        }
      }
    }
    html += "</ul>\n";
    std::stable_sort(evidence.begin(), evidence.end(), [](const Json* a, const Json* b) {
      return (*a)["@timestamp"].get<std::string>() < (*b)["@timestamp"].get<std::string>();
    });
    if (!evidence.empty()) html += "<h4>Evidence</h4>\n";
    for (const Json* line : evidence) html += EvidenceHtml(timeline, node, *line);
    const std::string runbook = first["foreshock"].value("runbook", "");
    if (auto [at, fresh] = runbook_in.try_emplace(rule, s); !fresh) {
      html += "<p>Runbook: as for <a href=\"#story-" + std::to_string(at->second) + "\">" + EscapeHtml(rule) +
              " above</a>.</p>\n";
    } else if (!runbook.empty()) {
      html += "<h4>Runbook</h4>\n<pre class=\"runbook\">" + EscapeHtml(runbook) + "</pre>\n";
    }
    html += "</div>\n";
  }
  return html;
}

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

std::string RenderHtml(const Timeline& timeline, const Provenance& provenance, const Catalog& catalog) {
  std::map<std::string, Severity> severity;
  for (const Pattern& pattern : catalog.patterns()) severity[pattern.id] = pattern.severity;
  // Rows: nodes with hits or alerts, in name order.
  std::set<std::string> names;
  std::set<std::string> alerted;
  for (const auto& [node, hits] : timeline.nodes()) names.insert(node);
  for (const auto& alert : timeline.alerts()) {
    names.insert(NodeOf(alert));
    if (NodeOf(alert) != "(cluster-wide)") alerted.insert(NodeOf(alert));
  }
  const std::vector<std::string> rows(names.begin(), names.end());
  const Frame frame = FrameOf(timeline);
  const std::string title = Title(timeline);

  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width\">\n<title>" +
                     EscapeHtml(title) + "</title>\n<style>" + kStyle + "</style></head><body>\n";
  html += "<h1>" + EscapeHtml(title) + "</h1>\n<div class=\"sub\">";
  if (timeline.alerts().empty()) {
    html += "no alerts";
  } else {
    html += Counted(timeline.alerts().size(), "alert", "alerts") + " on " + Counted(alerted.size(), "node", "nodes");
    if (alerted.size() < names.size() && names.contains("(cluster-wide)")) html += " and cluster-wide";
  }
  html += ", " + Counted(timeline.nodes().size(), "node", "nodes") + " with precursor hits; times in UTC</div>\n";
  html += "<dl class=\"provenance\"><dt>made by</dt><dd>foreshock " + EscapeHtml(provenance.version) +
          "</dd><dt>command</dt><dd>" + EscapeHtml(provenance.command_line) + "</dd><dt>catalog</dt><dd>" +
          EscapeHtml(provenance.catalog) + "</dd><dt>generated</dt><dd>" + EscapeHtml(provenance.generated_at) +
          "</dd><dt>time zone</dt><dd>UTC (the logs' own stamps converted)</dd></dl>\n";
  html += "<div class=\"legend\"><span style=\"color:#546e7a\">&#9646; precursor hits</span>"
          "<span style=\"color:#b0bec5\">&#9646; info-level hits</span>"
          "<span style=\"color:#e57373\">&#9646; outage</span>"
          "<span style=\"color:#ef8f00\">&#9679; warning</span><span style=\"color:#c62828\">&#9679; critical</span>"
          "<span style=\"color:#2e7d32\">&#9679; resolved</span><span style=\"color:#c62828\">&#9633; lead time "
          "before an outage marker</span></div>\n";
  html += TimelineSvg(timeline, frame, rows, severity);
  html += "<h2>The numbers behind the story</h2>\n" + ValueCharts(timeline, frame, rows, severity);
  html += "<h2>Alerts</h2>\n";
  if (timeline.alerts().empty()) {
    html += "<p>No alerts.</p>\n";
  } else {
    html += "<table><tr><th>time (UTC)</th><th>cluster</th><th>node</th><th>severity</th><th>action</th><th>rule</th>"
            "<th>message</th><th>lead time</th></tr>\n";
  }
  for (size_t i = 0; i < timeline.alerts().size(); ++i) {
    const auto& alert = timeline.alerts()[i];
    const std::string action = alert["event"]["action"];
    const std::string level = alert["log"]["level"];
    std::string lead;
    if (alert["foreshock"].contains("lead_time_s")) {
      const double seconds = alert["foreshock"]["lead_time_s"].get<double>();
      lead = seconds > 0 ? FormatLeadTime(seconds) : "none";
    }
    html += "<tr id=\"alert-" + std::to_string(i) + "\"><td class=\"nowrap\">" +
            EscapeHtml(alert["@timestamp"].get<std::string>()) + "</td><td class=\"nowrap\">" +
            EscapeHtml(ClusterOf(alert)) + "</td><td class=\"nowrap\">" + EscapeHtml(NodeOf(alert)) +
            "</td><td><span class=\"sev\" style=\"background:" + SeverityColour(level, action) + "\">" +
            EscapeHtml(level) + "</span></td><td>" + EscapeHtml(action) + "</td><td class=\"nowrap\">" +
            EscapeHtml(alert["rule"]["id"].get<std::string>()) + LearnedMark(alert) + " (stage " +
            alert["foreshock"]["stage"].dump() + ")</td><td>" + EscapeHtml(alert["message"].get<std::string>()) +
            "</td><td class=\"nowrap\">" +
            EscapeHtml(lead) + "</td></tr>\n";
  }
  if (!timeline.alerts().empty()) html += "</table>\n<h2>Stories: evidence and runbooks</h2>\n" + Stories(timeline);
  html += "<h2>Summary</h2>\n<pre>" + EscapeHtml(timeline.RenderSummary()) + "</pre>\n";
  html += "<h2>Inputs</h2>\n<table><tr><th>input</th><th>compression</th><th>records</th><th>malformed</th>"
          "<th>unreadable</th><th>damage</th></tr>\n";
  for (const InputReport& input : timeline.inputs()) {
    html += "<tr><td>" + EscapeHtml(input.name) + "</td><td>" +
            EscapeHtml(input.compression.empty() ? "plain" : input.compression) + "</td><td>" +
            std::to_string(input.records) + "</td><td>" + std::to_string(input.malformed) + "</td><td>" +
            std::to_string(input.unreadable) + "</td><td>" +
            EscapeHtml(input.damage.empty() ? input.failure : input.damage) + "</td></tr>\n";
  }
  html += "</table>\n<p class=\"sub\">Made by foreshock " + EscapeHtml(provenance.version) + ".</p>\n</body></html>\n";
  return html;
}

}  // namespace foreshock
