// The seed incident, re-encoded into every format foreshock reads (as ES, journald,
// Filebeat and container runtimes would have written it), produces exactly the alerts of the
// ECS original: same rule, node, action, severity, stage, event time and lead time.

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/time.h"
#include "base/timestamp_parser.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

using nlohmann::json;
using testing::TempDir;

struct Event {
  json ecs;
  std::string line;  // the ECS original
  TimePoint time;
};

std::vector<Event> ReadNode(int node) {
  std::ifstream in(std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-" +
                   std::to_string(node) + ".json");
  std::vector<Event> events;
  std::string line;
  while (std::getline(in, line)) {
    json ecs = json::parse(line);
    const TimePoint time = ParseTimestamp(ecs["@timestamp"].get<std::string>(), TimeZone::Utc())->time;
    events.push_back({std::move(ecs), line, time});
  }
  return events;
}

// "2026-11-29T02:54:11,482" shifted by `offset`, as log4j writes it.
std::string PlainStamp(TimePoint time, Duration offset = Duration(0)) {
  std::string stamp = FormatTimestamp(time + offset);
  stamp[19] = ',';
  return stamp.substr(0, 23);
}

std::string NanoStamp(TimePoint time) {
  std::string stamp = FormatTimestamp(time);
  return stamp.substr(0, 23) + "123456Z";
}

// org.elasticsearch.rest.RestResponse -> o.e.r.RestResponse, as the plain layout prints it.
std::string ShortLogger(const std::string& logger) {
  std::string out;
  size_t start = 0;
  for (size_t dot = logger.find('.'); dot != std::string::npos; dot = logger.find('.', start)) {
    out += logger.substr(start, 1) + ".";
    start = dot + 1;
  }
  return out + logger.substr(start);
}

std::string Str(const json& ecs, const char* key) { return ecs.value(key, std::string()); }

// The physical lines of the plain-text rendering of one event.
std::vector<std::string> PlainLines(const Event& event, Duration offset = Duration(0)) {
  std::string level = Str(event.ecs, "log.level");
  level.resize(std::max<size_t>(level.size(), 5), ' ');
  // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) about
  // `"[" + std::string`.
  std::string header = "[";
  header.append(PlainStamp(event.time, offset)).append("][").append(level).append("][");
  header.append(ShortLogger(Str(event.ecs, "log.logger"))).append("] [");
  header.append(Str(event.ecs, "elasticsearch.node.name")).append("] ").append(Str(event.ecs, "message"));
  std::vector<std::string> lines = {header};
  if (event.ecs.contains("error.type")) {
    lines.push_back(Str(event.ecs, "error.type") + ": " + Str(event.ecs, "error.message"));
    std::istringstream trace(Str(event.ecs, "error.stack_trace"));
    for (std::string frame; std::getline(trace, frame);) lines.push_back(frame);
  }
  return lines;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : "\n") + line;
  return out;
}

std::string Priority(const std::string& level) {
  return level == "WARN" ? "4" : level == "ERROR" ? "3" : level == "DEBUG" ? "7" : "6";
}

using Encoder = std::function<std::string(const std::vector<Event>&)>;

const std::vector<std::pair<std::string, Encoder>>& Encoders() {
  static const std::vector<std::pair<std::string, Encoder>> encoders = {
      {"es-plain", [](const std::vector<Event>& events) {
         std::string out;
         for (const Event& e : events) out += Join(PlainLines(e)) + "\n";
         return out;
       }},
      {"es-json", [](const std::vector<Event>& events) {
         std::string out;
         for (const Event& e : events) {
           json record = {{"type", "server"}, {"timestamp", PlainStamp(e.time) + "+0000"},
                          {"level", Str(e.ecs, "log.level")}, {"component", ShortLogger(Str(e.ecs, "log.logger"))},
                          {"cluster.name", Str(e.ecs, "elasticsearch.cluster.name")},
                          {"node.name", Str(e.ecs, "elasticsearch.node.name")}, {"message", Str(e.ecs, "message")}};
           if (e.ecs.contains("error.type")) {
             std::vector<std::string> lines = PlainLines(e);
             record["stacktrace"] = std::vector<std::string>(lines.begin() + 1, lines.end());
           }
           out += record.dump() + "\n";
         }
         return out;
       }},
      {"journald-json", [](const std::vector<Event>& events) {
         // One journal entry per physical line, as journald stores a process's stdout; every
         // fifth message is stored as a byte array.
         std::string out;
         int entry = 0;
         for (const Event& e : events) {
           for (const std::string& line : PlainLines(e)) {
             json record = {{"__REALTIME_TIMESTAMP", std::to_string(e.time.time_since_epoch().count())},
                            {"_HOSTNAME", Str(e.ecs, "elasticsearch.node.name") + ".prod.example.com"},
                            {"PRIORITY", Priority(Str(e.ecs, "log.level"))},
                            {"SYSLOG_IDENTIFIER", "elasticsearch"}, {"_SYSTEMD_UNIT", "elasticsearch.service"}};
             if (++entry % 5 == 0) {
               record["MESSAGE"] = std::vector<unsigned char>(line.begin(), line.end());
             } else {
               record["MESSAGE"] = line;
             }
             out += record.dump() + "\n";
           }
         }
         return out;
       }},
      {"journald-text", [](const std::vector<Event>& events) {
         std::string out;
         for (const Event& e : events) {
           std::string stamp = FormatTimestamp(e.time);
           stamp = stamp.substr(0, 23) + "000+00:00";
           for (const std::string& line : PlainLines(e)) {
             out += stamp + " " + Str(e.ecs, "elasticsearch.node.name") + " elasticsearch[812]: " + line + "\n";
           }
         }
         return out;
       }},
      {"filebeat", [](const std::vector<Event>& events) {
         std::string out;
         int64_t offset = 0;
         for (const Event& e : events) {
           const std::string message = Join(PlainLines(e));
           json record = {{"@timestamp", FormatTimestamp(e.time + std::chrono::milliseconds(700))},
                          {"@metadata", {{"beat", "filebeat"}, {"type", "_doc"}}},
                          {"message", message},
                          {"log", {{"offset", offset}, {"file", {{"path", "/var/log/elasticsearch/search-prod.log"}}}}},
                          {"input", {{"type", "filestream"}}}, {"agent", {{"type", "filebeat"}}},
                          {"host", {{"name", Str(e.ecs, "elasticsearch.node.name")}}}};
           offset += static_cast<int64_t>(message.size()) + 1;
           out += record.dump() + "\n";
         }
         return out;
       }},
      {"cri", [](const std::vector<Event>& events) {
         // ES in a pod writes ECS JSON to stdout; the runtime splits long lines into pieces.
         std::string out;
         for (const Event& e : events) {
           std::string_view rest = e.line;
           while (rest.size() > 700) {
             out += NanoStamp(e.time) + " stdout P " + std::string(rest.substr(0, 700)) + "\n";
             rest.remove_prefix(700);
           }
           out += NanoStamp(e.time) + " stdout F " + std::string(rest) + "\n";
         }
         return out;
       }},
      {"docker-json", [](const std::vector<Event>& events) {
         std::string out;
         for (const Event& e : events) {
           std::string rest = e.line + "\n";
           while (!rest.empty()) {
             const size_t piece = std::min<size_t>(rest.size(), 900);
             out += json({{"log", rest.substr(0, piece)}, {"stream", "stdout"}, {"time", NanoStamp(e.time)}}).dump() + "\n";
             rest.erase(0, piece);
           }
         }
         return out;
       }},
      {"kubectl", [](const std::vector<Event>& events) {
         std::string out;
         for (const Event& e : events) out += NanoStamp(e.time) + " " + e.line + "\n";
         return out;
       }},
      {"compose", [](const std::vector<Event>& events) {
         std::string out;
         for (const Event& e : events) out += Str(e.ecs, "elasticsearch.node.name") + "  | " + e.line + "\n";
         return out;
       }},
  };
  return encoders;
}

std::vector<std::string> Summaries(const std::string& out) {
  std::vector<std::string> summaries;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const json alert = json::parse(line);
    summaries.push_back(alert["@timestamp"].get<std::string>() + " " + alert["event"]["action"].get<std::string>() +
                        " " + alert["log"]["level"].get<std::string>() + " " + alert["rule"]["id"].get<std::string>() +
                        " " + alert["elasticsearch"]["node"]["name"].get<std::string>() + " stage " +
                        alert["foreshock"]["stage"].dump() + " lead " +
                        alert["foreshock"].value("lead_time_s", json(nullptr)).dump() +
                        // The first evidence is the whole record: the message and, joined to it,
                        // the stack-trace line that held the scroll limit.
                        " evidence " + alert["foreshock"]["evidence"][0]["message"].get<std::string>().substr(0, 40) +
                        "..." + std::to_string(alert["foreshock"]["evidence"][0]["message"].get<std::string>().size()));
  }
  return summaries;
}

std::vector<std::string> AlertsFor(const std::vector<std::string>& files, std::vector<std::string> args = {}) {
  args.insert(args.begin(), "scan");
  args.insert(args.end(), files.begin(), files.end());
  const testing::ProcessResult result = testing::RunForeshock(args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return Summaries(result.out);
}

std::vector<std::string> OriginalAlerts() {
  std::vector<std::string> files;
  for (int node = 1; node <= 3; ++node) {
    files.push_back(std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-" +
                    std::to_string(node) + ".json");
  }
  return AlertsFor(files);
}

TEST(FormatEquivalenceTest, EveryFormatGivesTheAlertsOfTheEcsOriginal) {
  const std::vector<std::string> expected = OriginalAlerts();
  ASSERT_EQ(expected.size(), 4u);
  for (const auto& [format, encode] : Encoders()) {
    TempDir dir;
    std::vector<std::string> files;
    for (int node = 1; node <= 3; ++node) {
      files.push_back(dir.Write("node-" + std::to_string(node) + ".log", encode(ReadNode(node))));
    }
    EXPECT_EQ(AlertsFor(files), expected) << "format " << format;
    // Forcing the format reads it the same way as sniffing it.
    EXPECT_EQ(AlertsFor(files, {"--format", format}), expected) << "forced format " << format;
  }
}

// Plain logs written in local time: --timezone turns them back into the same event times.
TEST(FormatEquivalenceTest, PlainLogsInLocalTimeWithTimezone) {
  const std::vector<std::string> expected = OriginalAlerts();
  TempDir dir;
  std::vector<std::string> files;
  for (int node = 1; node <= 3; ++node) {
    std::string out;
    for (const Event& e : ReadNode(node)) out += Join(PlainLines(e, std::chrono::hours(1))) + "\n";
    files.push_back(dir.Write("node-" + std::to_string(node) + ".log", out));
  }
  EXPECT_EQ(AlertsFor(files, {"--timezone", "Europe/Paris"}), expected);
  EXPECT_NE(AlertsFor(files), expected) << "read as UTC, the same lines are an hour off";
}

}  // namespace
}  // namespace foreshock
