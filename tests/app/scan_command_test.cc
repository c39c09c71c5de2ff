// End-to-end tests of `foreshock scan`: the built binary, run as a child process on real
// files and pipes.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "testing/precursor_lines.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

using nlohmann::json;
using testing::ProcessOptions;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunForeshock;
using testing::TempDir;

std::string Sample(const std::string& node) {
  return std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-" + node + ".json";
}

std::vector<json> Alerts(const ProcessResult& result) {
  std::vector<json> alerts;
  size_t start = 0;
  while (start < result.out.size()) {
    const size_t end = result.out.find('\n', start);
    EXPECT_NE(end, std::string::npos) << "every alert ends with a newline";
    alerts.push_back(json::parse(result.out.substr(start, end - start)));
    start = end + 1;
  }
  return alerts;
}

// One line per alert: time, action, severity, rule, node, stage, lead time.
std::string Summary(const json& alert) {
  std::string lead = alert["foreshock"].contains("lead_time_s")
                         ? " lead=" + alert["foreshock"]["lead_time_s"].dump()
                         : "";
  return alert["@timestamp"].get<std::string>() + " " + alert["event"]["action"].get<std::string>() +
         " " + alert["log"]["level"].get<std::string>() + " " + alert["rule"]["id"].get<std::string>() +
         " " + alert["elasticsearch"]["node"]["name"].get<std::string>() + " stage=" +
         alert["foreshock"]["stage"].dump() + lead;
}

const std::vector<std::string> kSeedAlerts = {
    "2026-11-29T02:54:11.482Z firing warning es.chain.scroll_leak order-events-node-2 stage=1",
    "2026-11-29T03:04:18.201Z escalated critical es.chain.scroll_leak order-events-node-2 stage=2",
    "2026-11-29T03:13:02.117Z escalated critical es.chain.scroll_leak order-events-node-2 stage=3 "
    "lead=1130.635",
    "2026-11-29T04:06:22.735Z resolved info es.chain.scroll_leak order-events-node-2 stage=3",
};

std::vector<std::string> Summaries(const ProcessResult& result) {
  std::vector<std::string> out;
  for (const json& alert : Alerts(result)) out.push_back(Summary(alert));
  return out;
}

std::string SlowLog() {
  return std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-2_index_search_slowlog.json";
}

TEST(ScanCommandTest, SeedIncidentWarnsTwentyMinutesEarlyOnNodeTwoOnly) {
  const ProcessResult result = RunForeshock({"scan", Sample("1"), Sample("2"), Sample("3"), SlowLog()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Summaries(result), kSeedAlerts);
  for (const json& alert : Alerts(result)) {
    EXPECT_EQ(alert["elasticsearch"]["cluster"]["name"], "search-prod");
    EXPECT_EQ(alert["foreshock"]["group"]["node"], "order-events-node-2");
    EXPECT_EQ(alert["event"]["kind"], "alert");
  }
  EXPECT_EQ(result.out.find("order-events-node-1"), std::string::npos);
  EXPECT_EQ(result.out.find("order-events-node-3"), std::string::npos);
  const json first = Alerts(result).front();
  EXPECT_EQ(first["foreshock"]["fields"]["max_scroll_contexts"], 500);
  EXPECT_EQ(first["foreshock"]["evidence"][0]["source"], Sample("2") + ":516");
  EXPECT_NE(first["foreshock"]["runbook"].get<std::string>().find("DELETE _search/scroll/_all"),
            std::string::npos);
  EXPECT_NE(result.err.find("4695 records"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("0 malformed (searched as text), 0 unreadable"), std::string::npos)
      << result.err;
}

TEST(ScanCommandTest, InputOrderDoesNotChangeTheAlerts) {
  const ProcessResult forward = RunForeshock({"scan", Sample("1"), Sample("2"), Sample("3")});
  const ProcessResult backward = RunForeshock({"scan", Sample("3"), Sample("2"), Sample("1")});
  ASSERT_EQ(forward.exit_code, 0);
  EXPECT_EQ(forward.out, backward.out);
}

TEST(ScanCommandTest, ReadsStdinAsAPipe) {
  ProcessOptions options;
  options.stdin_data = ReadFile(Sample("2"));
  const ProcessResult result = RunForeshock({"scan"}, options);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Summaries(result), kSeedAlerts);
  EXPECT_EQ(Alerts(result)[0]["foreshock"]["evidence"][0]["source"], "stdin:516");
}

// Two nodes' files one after another (`cat`) go back hours in time: the second file's hits
// are far past --lateness and cannot be put back in order. The run says so once, where, and
// what to do, instead of giving another story in silence; named as files, they merge.
TEST(ScanCommandTest, FilesOneAfterAnotherOnStdinAreToldApartFromAStreamInOrder) {
  const std::string dir = std::string(testing::kSamplesDir) + "/scenarios/disk-fill/";
  ProcessOptions options;
  options.stdin_data = ReadFile(dir + "es-data-3.log") + ReadFile(dir + "es-master-1.log");
  const ProcessResult piped = RunForeshock({"scan"}, options);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  const std::string late = "stdin:365: a hit stamped 2026-11-29T01:02:34.635Z comes 4.0 h after the input reached "
                           "2026-11-29T05:00:25.363Z, past --lateness (30s): it is applied out of order";
  EXPECT_NE(piped.err.find(late), std::string::npos) << piped.err;
  EXPECT_NE(piped.err.find("Several files one after another (cat)? Name them instead"), std::string::npos)
      << piped.err;
  size_t reports = 0;
  for (size_t at = piped.err.find("past --lateness"); at != std::string::npos;
       at = piped.err.find("past --lateness", at + 1)) {
    ++reports;
  }
  EXPECT_EQ(reports, 1u) << "one report, then the count: " << piped.err;
  EXPECT_NE(piped.err.find("61 late hit records (applied out of order)"), std::string::npos) << piped.err;

  const ProcessResult named = RunForeshock({"scan", dir + "es-data-3.log", dir + "es-master-1.log"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(named.err.find("past --lateness"), std::string::npos) << named.err;
  EXPECT_NE(named.err.find("0 late hit records (applied out of order)"), std::string::npos) << named.err;
  EXPECT_EQ(Alerts(named).size(), 5u) << named.out;
}

// A live stream's hits are correlated as they arrive: one that comes behind a later one,
// already correlated, is applied out of order, and the run says so truly: not past
// --lateness (which it is not, and which a larger value would not help).
TEST(ScanCommandTest, AHitBehindOneAlreadyCorrelatedOnALiveStreamIsToldSo) {
  TempDir dir;
  const std::string err = dir.path() + "/err";
  testing::ChildProcess child({"/bin/sh", "-c", std::string(testing::kForeshockBinary) + " scan 2>" + err});
  const std::string lines = ReadFile(Sample("2"));
  const size_t precursor = lines.find("Trying to create too many scroll contexts");
  const size_t precursor_begin = lines.rfind('\n', precursor) + 1;
  const size_t precursor_end = lines.find('\n', precursor) + 1;
  const size_t next_end = lines.find('\n', precursor_end) + 1;
  // The line after the precursor (a hit 4 s later) first; the precursor once that went out.
  child.Write(lines.substr(0, precursor_begin) + lines.substr(precursor_end, next_end - precursor_end));
  ASSERT_TRUE(child.ReadLine(std::chrono::seconds(10)).has_value()) << "the later hit is correlated while stdin is open";
  child.Write(lines.substr(precursor_begin, precursor_end - precursor_begin) + lines.substr(next_end));
  child.CloseStdin();
  while (child.ReadLine(std::chrono::seconds(10))) {
  }
  EXPECT_EQ(child.Wait(), 0);
  const std::string said = ReadFile(err);
  EXPECT_NE(said.find("stdin:517: a hit stamped 2026-11-29T02:54:11.482Z comes 4.2 s after the input reached "
                      "2026-11-29T02:54:15.682Z, behind a later hit already correlated (a live input's hits are "
                      "correlated as they arrive"),
            std::string::npos)
      << said;
  EXPECT_EQ(said.find("past --lateness"), std::string::npos) << said;
  EXPECT_NE(said.find(" 1 late hit records (applied out of order)"), std::string::npos) << said;
}

// Behind `journalctl -f`: each alert is on stdout as soon as its line is read, long before
// the input ends.
TEST(ScanCommandTest, AlertsAppearWhileTheInputIsStillOpen) {
  testing::ChildProcess child({testing::kForeshockBinary, "scan", "-"});
  const std::string lines = ReadFile(Sample("2"));
  const size_t first_precursor = lines.find("Trying to create too many scroll contexts");
  child.Write(lines.substr(0, lines.find('\n', first_precursor) + 1));
  auto alert = child.ReadLine(std::chrono::seconds(10));
  ASSERT_TRUE(alert.has_value()) << "no alert while stdin is still open";
  EXPECT_EQ(json::parse(*alert)["event"]["action"], "firing");
  child.CloseStdin();
  EXPECT_EQ(child.Wait(), 0);
}

TEST(ScanCommandTest, BadInputIsCountedAndPassedOverWithoutLosingAlerts) {
  TempDir dir;
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 131 + 7) % 256));
  const std::string node2 = ReadFile(Sample("2"));
  const size_t middle = node2.find('\n', node2.size() / 2) + 1;
  // Garbage, invalid JSON and a 10 MB line in the middle of node-2's log.
  const std::string damaged = node2.substr(0, middle) + garbage + "\n{\"@timestamp\": not json\n" +
                              "{\"message\":\"" + std::string(10 << 20, 'x') + "\"}\n" +
                              node2.substr(middle);
  const std::string path = dir.Write("order-events-node-2.json", damaged);
  const std::string empty = dir.Write("empty.json", "");
  const std::string binary = dir.Write("binary.log", garbage);
  const ProcessResult result = RunForeshock({"scan", empty, binary, path, Sample("1"), Sample("3")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Summaries(result), kSeedAlerts);
  EXPECT_NE(result.err.find("malformed"), std::string::npos);
  EXPECT_NE(result.err.find("1 truncated"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(path + ":"), std::string::npos) << "bad lines are reported with their place";
}

// A file is read a chunk at a time (256 KiB); lines that straddle the chunks' edges, a
// precursor among them at two of them, give the alerts they give through a pipe.
TEST(ScanCommandTest, AFileReadInWindowsGivesTheAlertsAPipeGives) {
  TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  std::string log;
  std::vector<size_t> edges = {4 << 20, 8 << 20};
  int precursors = 0;
  for (int n = 0; log.size() < (9 << 20); ++n) {
    std::string line = testing::PrecursorLine(n % 3600, /*precursor=*/false);
    line.insert(line.find("\",\"elasticsearch"), std::string(900, 'x'));  // a long message
    // The line that crosses an edge is a precursor.
    if (!edges.empty() && log.size() + line.size() > edges.front()) {
      edges.erase(edges.begin());
      line = testing::PrecursorLine(n % 3600);
      ++precursors;
    }
    log += line;
  }
  ASSERT_EQ(precursors, 2);
  const std::string path = dir.Write("windows.json", log);
  const std::vector<std::string> args = {"scan", "--no-builtin-catalog", "--catalog", catalog};
  std::vector<std::string> from_file = args;
  from_file.push_back(path);
  const ProcessResult chunked = RunForeshock(from_file);
  ProcessOptions piped_options;
  piped_options.stdin_data = log;
  const ProcessResult piped = RunForeshock(args, piped_options);
  ASSERT_EQ(chunked.exit_code, 0) << chunked.err;
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  std::vector<std::string> chunked_messages;
  for (const json& alert : Alerts(chunked)) chunked_messages.push_back(alert["message"]);
  std::vector<std::string> piped_messages;
  for (const json& alert : Alerts(piped)) piped_messages.push_back(alert["message"]);
  EXPECT_EQ(chunked_messages.size(), 2u);
  EXPECT_EQ(chunked_messages, piped_messages);
  EXPECT_NE(chunked.err.find(" 0 malformed"), std::string::npos) << chunked.err;
}

TEST(ScanCommandTest, FailOnAlertExitsOneOnlyWhenAskedTo) {
  EXPECT_EQ(RunForeshock({"scan", Sample("2")}).exit_code, 0);
  EXPECT_EQ(RunForeshock({"scan", "--fail-on-alert", Sample("2")}).exit_code, 1);
  EXPECT_EQ(RunForeshock({"scan", "--fail-on-alert", Sample("1")}).exit_code, 0);
}

TEST(ScanCommandTest, ClosedStdoutEndsTheRunQuietly) {
  ProcessOptions options;
  options.close_stdout_early = true;
  const ProcessResult result = RunForeshock({"scan", Sample("2")}, options);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err.find("error"), std::string::npos) << result.err;
}

TEST(ScanCommandTest, UsageErrorsExitTwoWithOneLineReason) {
  TempDir dir;
  const std::string bad_catalog = dir.Write("bad.yaml", "patterns:\n  - id: x\n");
  const struct {
    std::vector<std::string> args;
    const char* reason;
  } cases[] = {
      {{"scan", "--frobnicate"}, "unrecognised option '--frobnicate'"},
      {{"frobnicate"}, "unknown verb 'frobnicate'"},
      {{"scan", dir.path() + "/missing.json"}, "none of the 1 input could be opened"},
      {{"scan", "--timezone", "Mars/Olympus", Sample("1")}, "--timezone 'Mars/Olympus'"},
      {{"scan", "--format", "syslog", Sample("1")}, "unknown format 'syslog'"},
      {{"scan", "--catalog", bad_catalog, Sample("1")}, "bad.yaml:2:9: error: id 'x' must be"},
      {{"scan", "--log-level", "loud", Sample("1")}, "unknown --log-level 'loud'"},
  };
  for (const auto& c : cases) {
    const ProcessResult result = RunForeshock(c.args);
    EXPECT_EQ(result.exit_code, 2) << c.reason;
    EXPECT_NE(result.err.find(c.reason), std::string::npos) << result.err;
    EXPECT_TRUE(result.out.empty()) << "stdout carries only alerts";
  }
}

// A missing file, a folder, and a file whose reading fails part way (/proc/self/mem
// answers every read with EIO) among the inputs: each is reported and passed over, the
// seed's node 2 still gives all its alerts, and the exit status says the run was partial.
TEST(ScanCommandTest, ABadInputIsReportedAndPassedOverAndTheOthersStillAlert) {
  TempDir dir;
  const ProcessResult result =
      RunForeshock({"scan", dir.path() + "/missing.json", dir.path(), "/proc/self/mem", Sample("2"), Sample("1")});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(Summaries(result), kSeedAlerts) << result.err;
  EXPECT_NE(result.err.find("open " + dir.path() + "/missing.json: No such file or directory; passed over"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find(dir.path() + " is a directory; passed over"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("/proc/self/mem: read /proc/self/mem: Input/output error; the rest of it is passed over"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("3 inputs of 5 could not be read in full"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(", 4 alerts;"), std::string::npos) << "the alerts counted are the alerts written";
}

// The elected master says it is still waiting for es-data-2 to apply a cluster state: that is
// es-data-2's trouble (its GC, its disk), alerted on es-data-2, never a master overload.
TEST(ScanCommandTest, APublicationWaitingForALaggingNodeIsThatNodesAlertNotTheMasters) {
  ProcessOptions options;
  options.stdin_data =
      "[2026-11-29T03:01:10,402][INFO ][o.e.c.c.C.CoordinatorPublication] [es-master-1] after [10s] publication of "
      "cluster state version [90211] is still waiting for {es-data-2}{Qm1wT2hDdGlQTXZwTmFSZw}{R2vXo5x1Q7Ky3ZJ6pN0v1g}"
      "{10.20.1.12}{10.20.1.12:9300}{cdfhilmrstw} [SENT_APPLY_COMMIT]\n"
      "[2026-11-29T03:01:40,402][INFO ][o.e.c.c.C.CoordinatorPublication] [es-master-1] after [30s] publication of "
      "cluster state version [90211] is still waiting for {es-data-2}{Qm1wT2hDdGlQTXZwTmFSZw}{R2vXo5x1Q7Ky3ZJ6pN0v1g}"
      "{10.20.1.12}{10.20.1.12:9300}{cdfhilmrstw} [SENT_APPLY_COMMIT]\n";
  const ProcessResult result = RunForeshock({"scan"}, options);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::vector<json> alerts = Alerts(result);
  ASSERT_EQ(alerts.size(), 1u) << result.out;
  EXPECT_EQ(alerts[0]["rule"]["id"], "es.cluster.slow_publication");
  EXPECT_EQ(alerts[0]["foreshock"]["group"]["node"], "es-data-2");
  EXPECT_EQ(alerts[0]["elasticsearch"]["node"]["name"], "es-data-2");
  // The master that logged it is kept as the observer, in the alert and in its evidence.
  EXPECT_EQ(alerts[0]["foreshock"]["observer"], "es-master-1");
  EXPECT_EQ(alerts[0]["foreshock"]["evidence"][0]["observer"], "es-master-1");
  EXPECT_EQ(result.out.find("es.chain.master_overload"), std::string::npos);
  const ProcessResult text = RunForeshock({"scan", "--output", "stdout:text"}, options);
  EXPECT_NE(text.out.find("es.cluster.slow_publication [es-data-2, reported by es-master-1]"), std::string::npos)
      << text.out;
}

// Every line that names the node it is about counts for that node, whoever logged it: a
// transport response or request that timed out names the slow node, a Zen1 "master_left" the
// master that was lost.
TEST(ScanCommandTest, LinesNamingAnotherNodeAlertOnThatNode) {
  const std::vector<std::pair<std::string, std::string>> lines = {
      {"[2026-11-29T03:05:12,480][WARN ][o.e.t.TransportService   ] [es-master-1] Received response for a request "
       "that has timed out, sent [12.2s/12207ms] ago, timed out [2.2s/2202ms] ago, action "
       "[internal:coordination/fault_detection/follower_check], node [{es-data-2}{Qm7kqNBtTmOe9bX1w6rXyA}"
       "{zT0bq5VRQpS0nJ0nFqNcrA}{10.0.0.12}{10.0.0.12:9300}{cdfhilmrstw}], id [884213]\n",
       "es-data-2"},
      {"[2026-11-29T03:05:12,480][WARN ][o.e.c.InternalClusterInfoService] [es-master-1] failed to retrieve stats "
       "for node [Qm7kqNBtTmOe9bX1w6rXyA]\n"
       "org.elasticsearch.transport.ReceiveTimeoutTransportException: [es-data-3][10.0.0.13:9300]"
       "[cluster:monitor/nodes/stats[n]] request_id [771204] timed out after [15008ms]\n",
       "es-data-3"},
      {"[2018-07-03T11:45:48,548][INFO ][o.e.d.z.ZenDiscovery     ] [es-data-1] master_left "
       "[{es-master-2}{igrwQ}{10.0.0.2}{10.0.0.2:9300}], reason [failed to ping, tried [3] times, each with  "
       "maximum [30s] timeout]\n",
       "es-master-2"},
  };
  for (const auto& [line, subject] : lines) {
    ProcessOptions options;
    options.stdin_data = line;
    const ProcessResult result = RunForeshock({"scan"}, options);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::vector<json> alerts = Alerts(result);
    ASSERT_EQ(alerts.size(), 1u) << line << result.out;
    EXPECT_EQ(alerts[0]["elasticsearch"]["node"]["name"], subject) << line;
    EXPECT_NE(alerts[0]["foreshock"]["observer"], subject) << line;
  }
}

// One node lagging is that node's story; three at once point at the master or the network.
TEST(ScanCommandTest, PublicationsWaitingOnManyNodesAtOnceAreAClusterAlert) {
  auto lagging = [](const std::string& time, const std::string& node) {
    return "[2026-11-29T03:" + time + ",402][WARN ][o.e.c.c.LagDetector      ] [es-master-1] node [{" + node +
           "}{Qm1wT2hD}{10.20.1.12}{10.20.1.12:9300}{cdfhilmrstw}] is lagging at cluster state version [90210], "
           "although publication of cluster state version [90211] completed [1.5m] ago\n";
  };
  ProcessOptions one;
  one.stdin_data = lagging("01:10", "es-data-2") + lagging("02:10", "es-data-2") + lagging("03:10", "es-data-2");
  const ProcessResult alone = RunForeshock({"scan"}, one);
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  ASSERT_EQ(Alerts(alone).size(), 1u) << alone.out;
  EXPECT_EQ(Alerts(alone)[0]["rule"]["id"], "es.cluster.lagging_node");

  ProcessOptions many;
  many.stdin_data = lagging("01:10", "es-data-2") + lagging("02:10", "es-data-3") + lagging("03:10", "es-data-4");
  const ProcessResult widely = RunForeshock({"scan"}, many);
  ASSERT_EQ(widely.exit_code, 0) << widely.err;
  std::multiset<std::string> rules;
  for (const json& alert : Alerts(widely)) rules.insert(alert["rule"]["id"].get<std::string>());
  EXPECT_EQ(rules.count("es.cluster.lagging_node"), 3u) << widely.out;
  EXPECT_EQ(rules.count("es.cluster.lagging_widely"), 1u) << widely.out;
  for (const json& alert : Alerts(widely)) {
    if (alert["rule"]["id"] != "es.cluster.lagging_widely") continue;
    // About three nodes: it names none of them, and says who reported them.
    EXPECT_FALSE(alert.contains("elasticsearch") && alert["elasticsearch"].contains("node")) << alert.dump();
    EXPECT_EQ(alert["foreshock"]["observer"], "es-master-1");
  }
}

// "1 alert", not "1 alerts": scan's summary, and replay's header for one input.
TEST(ScanCommandTest, OneOfEachIsCountedInTheSingular) {
  TempDir dir;
  const std::string log = dir.Write(
      "node-1.json",
      "{\"@timestamp\":\"2026-11-29T02:54:11.482Z\", \"log.level\": \"WARN\", \"message\":\"Trying to create too many "
      "scroll contexts. Must be less than or equal to: [500]. This limit can be set by changing the "
      "[search.max_open_scroll_context] setting.\", \"ecs.version\": \"1.2.0\",\"elasticsearch.node.name\":\"node-1\"}\n");
  const ProcessResult scan = RunForeshock({"scan", log});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_NE(scan.err.find("1 line, 1 record, 1 pattern hit, 1 alert;"), std::string::npos) << scan.err;
  const ProcessResult replay = RunForeshock({"replay", log});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.err.find("foreshock replay: 1 input, 1 record, 1 alert,"), std::string::npos) << replay.err;
}

// Building blocks no rule uses (INFO-band GC overhead, slow young collections) go bare to
// the correlator, which passes them over: they are still counted as hits, as `match` counts
// them, and the rules that do use GC lines still alert.
TEST(ScanCommandTest, HitsNoRuleUsesAreStillCounted) {
  TempDir dir;
  const std::string log = dir.Write(
      "es-data-1.log",
      "[2026-11-29T00:00:01,145][INFO ][o.e.m.j.JvmGcMonitorService] [es-data-1] [gc][67104] overhead, spent "
      "[848ms] collecting in the last [1s]\n"
      "[2026-11-29T00:00:02,145][INFO ][o.e.m.j.JvmGcMonitorService] [es-data-1] [gc][young][3449979][986594] "
      "duration [900ms], collections [1]/[1.3s], total [900ms]/[8.8h], memory [16.5gb]->[15.7gb]/[30.8gb], "
      "all_pools {[young] [1gb]->[0b]/[0b]}{[old] [15gb]->[15.6gb]/[30gb]}\n"
      "[2026-11-29T00:00:03,362][WARN ][o.e.m.j.JvmGcMonitorService] [es-data-1] [gc][86776] overhead, spent "
      "[4390ms] collecting in the last [5s]\n");
  const ProcessResult match = RunForeshock({"match", "--summary-only", log});
  ASSERT_EQ(match.exit_code, 0) << match.err;
  EXPECT_NE(match.out.find("3 records, 3 matched"), std::string::npos) << match.out;
  const ProcessResult scan = RunForeshock({"scan", log});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_NE(scan.err.find("3 lines, 3 records, 3 pattern hits, 1 alert;"), std::string::npos) << scan.err;
  EXPECT_NE(scan.out.find("\"@timestamp\":\"2026-11-29T00:00:03.362Z\""), std::string::npos) << scan.out;
}

// No placeholder reaches an alert unfilled: a line naming no node or cluster says so, a
// capture its line lacks says so; --cluster names the cluster of lines that carry none, and
// Elasticsearch's own file names (prod_server.json) name it too.
TEST(ScanCommandTest, PlaceholdersAreFilledOrSayWhatTheLogDidNotName) {
  testing::TempDir dir;
  const std::string catalog = dir.Write("c.yaml", R"(patterns:
  - id: test.heap
    title: Heap warning
    category: memory
    severity: warning
    regex: 'heap warning(?: at (?P<heap>\d+%))?'
    examples: {match: ['heap warning at 95%'], no_match: ['heap fine']}
rules:
  - id: test.heap_rule
    name: Heap
    category: memory
    pattern: test.heap
    message: 'on {node} in {cluster}: {count} hit, heap {heap}'
)");
  const std::vector<std::string> args = {"scan", "--no-builtin-catalog", "--catalog", catalog, "--format", "text"};
  testing::ProcessOptions piped;
  piped.stdin_data = "heap warning\n";
  const auto bare = RunForeshock(args, piped);
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  const auto alert = nlohmann::json::parse(bare.out.substr(0, bare.out.find('\n')));
  EXPECT_EQ(alert["message"], "on (node not named in the log) in (cluster not named in the log; see --cluster): 1 hit, "
                              "heap (heap not logged)");
  std::vector<std::string> named = args;
  named.insert(named.end(), {"--cluster", "search-prod", "--node", "es-data-1"});
  const auto with_names = RunForeshock(named, piped);
  EXPECT_NE(with_names.out.find("\"message\":\"on es-data-1 in search-prod: 1 hit, heap (heap not logged)\""),
            std::string::npos)
      << with_names.out;
  // Named for the cluster, the file names no node: its folder does, in an archive by node.
  for (const char* folder : {"es-data-7", "elasticsearch"}) {
    std::filesystem::create_directories(dir.path() + "/" + folder);
    const std::string file = dir.Write(std::string(folder) + "/logs-prod_server.json", "heap warning at 95%\n");
    std::vector<std::string> from_file = args;
    from_file.push_back(file);
    const auto by_file = RunForeshock(from_file);
    const std::string node = folder == std::string("es-data-7") ? "es-data-7" : "(node not named in the log)";
    EXPECT_NE(by_file.out.find("\"message\":\"on " + node + " in logs-prod: 1 hit, heap 95%\""), std::string::npos)
        << by_file.out;
  }
}

TEST(ScanCommandTest, EveryVerbHasHelpAndTheBinaryHasAVersion) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"}, {"scan", "--help"},
                                              {"catalog", "--help"}}) {
    const ProcessResult result = RunForeshock(args);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("Usage: foreshock"), std::string::npos) << result.out;
  }
  const ProcessResult version = RunForeshock({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("foreshock ", 0), 0u);
}

}  // namespace
}  // namespace foreshock

namespace foreshock {
namespace {

// A log line is untrusted: terminal escapes, C1 controls, invalid UTF-8 and markup in it
// reach no output raw, whichever output the alert takes.
TEST(ScanTest, HostileBytesInALogLineAreEscapedInEveryOutput) {
  TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  const std::string hostile = "PRECURSOR-7 \x1b]0;owned\x07 \x1b[31mred \xc2\x9b" "2J bad\xff\xfe utf8 </td><script>x()</script> \xe2\x80\xae" "fdp.exe";
  const std::string line = "[2026-11-29T02:54:11,482][WARN ][o.e.s.SearchService] [es-1] " + hostile + "\n";
  const std::string log = dir.Write("es.log", line);
  const std::string text_alerts = dir.path() + "/alerts.txt";
  const auto result = RunForeshock({"scan", "--no-builtin-catalog", "--catalog", catalog, "--output", "stdout",
                                    "--output", "file:" + text_alerts, "--output", "exec:cat", log});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // stdout (JSON lines) and the exec command's copy of it (which lands on our stderr).
  for (const std::string* output : {&result.out, &result.err}) {
    EXPECT_EQ(output->find('\x1b'), std::string::npos);
    EXPECT_EQ(output->find("\xc2\x9b"), std::string::npos);
    EXPECT_EQ(output->find('\xff'), std::string::npos);
    EXPECT_EQ(output->find("\xe2\x80\xae"), std::string::npos) << "a bidi override reorders what a terminal shows";
  }
  EXPECT_NE(result.out.find("\\u202efdp.exe"), std::string::npos) << result.out;
  const json alert = json::parse(result.out.substr(0, result.out.find('\n')));
  EXPECT_NE(alert["foreshock"]["evidence"][0]["message"].get<std::string>().find("\x1b]0;owned\x07 \x1b[31mred \xc2\x9b"),
            std::string::npos)
      << "the JSON still carries the line's text, escaped";
  EXPECT_NE(result.out.find("\\u001b]0;owned\\u0007"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\\u009b2J"), std::string::npos) << result.out;
  EXPECT_NE(result.err.find("\\u001b]0;owned"), std::string::npos) << "exec received the same JSON";
  EXPECT_EQ(ReadFile(text_alerts).find('\x1b'), std::string::npos);

  const auto text = RunForeshock({"scan", "--no-builtin-catalog", "--catalog", catalog, "--output", "stdout:text", log});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("precursor 7"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.out.find("\xc2\x9b"), std::string::npos);
  EXPECT_EQ(text.out.find("\xe2\x80\xae"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
