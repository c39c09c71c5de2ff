// Quiet runs (RecordReader::SkipQuietRun driven by Pipeline::Run) pass over ordinary lines
// without handing them out. They must stop exactly where a record would matter: before a
// correlator sweep (sweep points decide the order of resolutions), before a held hit goes,
// while an absence waits for any line, and before another input's next record. Random
// multi-node logs with hits, recoveries, absences, stack traces, gaps and out-of-order lines
// must give the same alerts, in the same order, as record-by-record processing with every
// record decoded in full.

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>

#include "app/pipeline.h"
#include "base/time.h"
#include "input/fd_source.h"
#include "testing/collecting_sink.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using std::chrono::seconds;

struct Outcome {
  std::vector<std::string> alerts;  // in emission order, with what tells them apart
  std::set<std::pair<std::string, std::string>> kinds;  // (action, rule id)
  uint64_t records = 0;
  uint64_t quiet_run = 0;
};

Pattern MakePattern(const std::string& id, const std::string& regex, Marker marker = Marker::kNone,
                    std::vector<std::string> resolves = {}) {
  Pattern pattern;
  pattern.id = id;
  pattern.regex = regex;
  pattern.marker = marker;
  pattern.resolves = std::move(resolves);
  return pattern;
}

Rule MakeRule(const std::string& id, Rule::Kind kind, const std::string& pattern) {
  Rule rule;
  rule.id = id;
  rule.name = id;
  rule.kind = kind;
  rule.group_by = {"node"};
  rule.realert = std::chrono::hours(1);
  rule.steps.push_back({{pattern}, Severity::kWarning, id + " on {node}"});
  return rule;
}

// Rules whose alerts depend on when time-driven decisions are taken: a threshold resolved by
// a recovery after a hold-down (its resolution is stamped with the recovery's time, earlier
// than it is due), a single alert resolved after a quiet spell, and an absence that any line
// of the node disarms.
Catalog TimingCatalog() {
  std::vector<Pattern> patterns = {
      MakePattern("t.pressure", "heap pressure rising"),
      MakePattern("t.relieved", "heap pressure relieved", Marker::kRecovery, {"t.pressure"}),
      MakePattern("t.crash", "shard engine crashed"),
      MakePattern("t.snapshot", "snapshot started for"),
  };
  Rule pressure = MakeRule("t.pressure_rule", Rule::Kind::kThreshold, "t.pressure");
  pressure.count = 2;
  pressure.window = seconds(60);
  pressure.resolve_after = seconds(90);
  pressure.hold_down = seconds(20);
  Rule crash = MakeRule("t.crash_rule", Rule::Kind::kSingle, "t.crash");
  crash.resolve_after = seconds(45);
  Rule silent = MakeRule("t.silent_after_snapshot", Rule::Kind::kAbsence, "t.snapshot");
  silent.window = seconds(8);
  silent.resolve_after = seconds(30);
  silent.expect = {"any"};
  Rule relieved = MakeRule("t.relieved_rule", Rule::Kind::kSingle, "t.relieved");
  return Catalog(patterns, {pressure, crash, silent, relieved});
}

const char* const kOrdinary[] = {
    "update_mapping [_doc]",
    "closed transport connection [60214] to [{es-data-3}{a28cf4b8}] with age [7965ms]",
    "[logs-app-2026.11.11][6] flushing shard on inactive",
    "scheduling refresh; last refresh 12ms ago",
};
const char* const kPrecursors[] = {"heap pressure rising", "heap pressure relieved", "shard engine crashed",
                                   "snapshot started for nightly"};

std::string Stamp(int64_t millis, char fraction_mark) {
  const int64_t s = millis / 1000;
  char out[40];
  std::snprintf(out, sizeof out, "2026-11-29T%02lld:%02lld:%02lld%c%03lld", static_cast<long long>(s / 3600 % 24),
                static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60), fraction_mark,
                static_cast<long long>(millis % 1000));
  return out;
}

// One node's log, its clock off by `clock_offset_millis`: mostly ordinary lines, a precursor now and then, sometimes a gap, a line
// a few seconds out of order or one later than --lateness, or (plain) a stack trace.
std::string NodeLog(std::mt19937* random, const std::string& node, bool json, int lines, int64_t clock_offset_millis) {
  auto chance = [&](int percent) { return static_cast<int>((*random)() % 100) < percent; };
  std::string log;
  int64_t millis = 2 * 3600 * 1000 + clock_offset_millis + static_cast<int64_t>((*random)() % 5000);
  for (int i = 0; i < lines; ++i) {
    millis += static_cast<int64_t>((*random)() % 700);
    if (chance(2)) millis += static_cast<int64_t>((*random)() % 40000);  // a quiet spell
    int64_t time = millis;
    if (chance(3)) time -= static_cast<int64_t>((*random)() % 6000);  // within --lateness
    if (chance(1)) time -= 30000 + static_cast<int64_t>((*random)() % 30000);  // late
    const std::string message =
        chance(4) ? kPrecursors[(*random)() % 4] : kOrdinary[(*random)() % std::size(kOrdinary)];
    if (json) {
      log += "{\"@timestamp\":\"" + Stamp(time, '.') + "Z\",\"log.level\":\"INFO\",\"message\":\"" + message +
             "\",\"elasticsearch.node.name\":\"" + node + "\",\"elasticsearch.cluster.name\":\"prod\"}\n";
    } else {
      // Appended piece by piece, not by operator+ on a literal (GCC 12's -Wrestrict misfires
      // on that at -O3).
      log += '[';
      log += Stamp(time, ',');
      log += "][INFO ][o.e.t.Test] [" + node + "] " + message + "\n";
      if (chance(2)) log += "java.lang.IllegalStateException: boom\n\tat org.elasticsearch.Foo.bar(Foo.java:1)\n";
    }
  }
  return log;
}

Outcome RunPipeline(const Catalog& catalog, const Matcher& matcher, const std::vector<std::string>& paths, bool prefilter) {
  Outcome outcome;
  std::vector<Alert> alerts;
  std::vector<std::unique_ptr<Sink>> sinks;
  sinks.push_back(std::make_unique<testing::CollectingSink>(&alerts));
  Pipeline pipeline(catalog, matcher, CorrelatorOptions{}, std::move(sinks));
  std::vector<std::unique_ptr<RecordReader>> readers;
  RecordReaderOptions options;
  options.prefilter = prefilter ? &matcher : nullptr;
  for (const std::string& path : paths) {
    readers.push_back(std::move(RecordReader::Create(std::move(FdSource::Open(path)).value(), options)).value());
  }
  EXPECT_TRUE(pipeline.Run(readers).ok());
  for (const Alert& alert : alerts) {
    const std::string action(ActionName(alert.action));
    outcome.alerts.push_back(action + " " + alert.rule->id + " " + FormatTimestamp(alert.time) + " " +
                             alert.fingerprint + " " + alert.message);
    outcome.kinds.emplace(action, alert.rule->id);
  }
  outcome.records = pipeline.summary().records;
  for (const auto& reader : readers) outcome.quiet_run += reader->stats().quiet_run;
  return outcome;
}

TEST(QuietRunTest, RandomLogsGiveTheAlertsOfRecordByRecordProcessing) {
  const Catalog catalog = TimingCatalog();
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  uint64_t passed_over = 0;
  uint64_t records = 0;
  size_t alerts = 0;
  std::set<std::pair<std::string, std::string>> kinds;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    testing::TempDir dir;
    std::mt19937 random(seed);
    std::vector<std::string> paths;
    const int nodes = 1 + static_cast<int>(seed % 3);
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "es-" + std::to_string(n);
      const bool json = (seed + static_cast<uint32_t>(n)) % 2 == 0;
      // Nodes whose clocks differ by more than --lateness: merged by time, one node's lines
      // must not run ahead of the other's.
      const int64_t offset = seed % 2 == 0 ? -25000 * n : 0;
      paths.push_back(dir.Write(node + (json ? ".json" : ".log"), NodeLog(&random, node, json, 1500, offset)));
    }
    const Outcome fast = RunPipeline(catalog, **matcher, paths, /*prefilter=*/true);
    const Outcome full = RunPipeline(catalog, **matcher, paths, /*prefilter=*/false);
    ASSERT_EQ(fast.alerts, full.alerts) << "seed " << seed << ", " << nodes << " node(s)";
    EXPECT_EQ(fast.records, full.records) << "seed " << seed;
    EXPECT_EQ(full.quiet_run, 0u);
    passed_over += fast.quiet_run;
    records += fast.records;
    alerts += fast.alerts.size();
    kinds.insert(fast.kinds.begin(), fast.kinds.end());
  }
  // The runs were really taken, and the logs made every rule fire and resolve.
  EXPECT_GT(passed_over, records / 2) << passed_over << " of " << records;
  EXPECT_GT(alerts, 200u);
  for (const char* rule : {"t.pressure_rule", "t.crash_rule", "t.silent_after_snapshot"}) {
    EXPECT_TRUE(kinds.contains({"firing", rule})) << rule;
    EXPECT_TRUE(kinds.contains({"resolved", rule})) << rule;
  }
}

}  // namespace
}  // namespace foreshock
