// Quiet runs (RecordReader::SkipQuietRun driven by Pipeline::Run) pass over ordinary lines
// without handing them out. They must stop exactly where a record would matter: before a
// correlator sweep (sweep points decide the order of resolutions), before a held hit goes,
// while an absence waits for any line, and before another input's next record. Random
// multi-node logs with hits, recoveries, absences, stack traces, gaps and out-of-order lines
// must give the same alerts, in the same order, as record-by-record processing with every
// record decoded in full.

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "app/pipeline.h"
#include "base/time.h"
#include "input/fd_source.h"
#include "testing/collecting_sink.h"
#include "testing/temp_dir.h"
#include "testing/timing_logs.h"

namespace foreshock {
namespace {

struct Outcome {
  std::vector<std::string> alerts;  // in emission order, with what tells them apart
  std::set<std::pair<std::string, std::string>> kinds;  // (action, rule id)
  uint64_t records = 0;
  uint64_t quiet_run = 0;
};

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
    outcome.alerts.push_back(testing::DescribeAlert(alert));
    outcome.kinds.emplace(ActionName(alert.action), alert.rule->id);
  }
  outcome.records = pipeline.summary().records;
  for (const auto& reader : readers) outcome.quiet_run += reader->stats().quiet_run;
  return outcome;
}

TEST(QuietRunTest, RandomLogsGiveTheAlertsOfRecordByRecordProcessing) {
  const Catalog catalog = testing::TimingCatalog();
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
      paths.push_back(dir.Write(node + (json ? ".json" : ".log"), testing::NodeLog(&random, node, json, 1500, offset)));
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
