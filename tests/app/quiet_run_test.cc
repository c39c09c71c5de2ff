// Quiet runs (RecordReader::SkipQuietRun driven by Pipeline::Run) pass over ordinary lines
// without handing them out. They must stop exactly where a record would matter: before a
// correlator sweep (sweep points decide the order of resolutions), before a held hit goes,
// while an absence waits for any line, and before another input's next record. Random
// multi-node logs with hits, recoveries, absences, stack traces, gaps and out-of-order lines
// must give the same alerts, in the same order, as record-by-record processing with every
// record decoded in full.

#include <gtest/gtest.h>

#include <random>

#include "app/pipeline.h"
#include "input/fd_source.h"
#include "testing/collecting_sink.h"
#include "testing/temp_dir.h"
#include "testing/timing_logs.h"

namespace foreshock {
namespace {

testing::TimingOutcome RunPipeline(const Catalog& catalog, const Matcher& matcher, const std::vector<std::string>& paths,
                                   bool prefilter) {
  std::vector<Alert> alerts;
  Pipeline pipeline(catalog, matcher, CorrelatorOptions{}, testing::SinksCollectingInto(&alerts));
  std::vector<std::unique_ptr<RecordReader>> readers;
  RecordReaderOptions options;
  options.prefilter = prefilter ? &matcher : nullptr;
  for (const std::string& path : paths) {
    readers.push_back(std::move(RecordReader::Create(std::move(FdSource::Open(path)).value(), options)).value());
  }
  EXPECT_TRUE(pipeline.Run(readers).ok());
  uint64_t passed_over = 0;
  for (const auto& reader : readers) passed_over += reader->stats().quiet_run;
  return testing::OutcomeOf(alerts, pipeline.summary().records, passed_over);
}

TEST(QuietRunTest, RandomLogsGiveTheAlertsOfRecordByRecordProcessing) {
  const Catalog catalog = testing::TimingCatalog();
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  testing::ShortcutComparison comparison;
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
    comparison.Compare(RunPipeline(catalog, **matcher, paths, /*prefilter=*/true),
                       RunPipeline(catalog, **matcher, paths, /*prefilter=*/false),
                       "seed " + std::to_string(seed) + ", " + std::to_string(nodes) + " node(s)");
    if (HasFailure()) break;
  }
  comparison.ExpectEveryRuleFiredAndResolved(200);
}

}  // namespace
}  // namespace foreshock
