// watch's follower lets each file pass over quiet runs (Pipeline::PassQuietRun) between the
// records it hands to the pipeline. Following random logs, written in two bursts, must give
// the alerts that record-by-record processing with every record decoded in full gives, in
// the same order, and most records must really be passed over.

#include "app/follower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "app/pipeline.h"
#include "testing/collecting_sink.h"
#include "testing/temp_dir.h"
#include "testing/timing_logs.h"

namespace foreshock::app {
namespace {

// Two JSON logs' lines, interleaved by their timestamps (each log's own order kept).
std::string MergedByTime(const std::string& a, const std::string& b) {
  auto lines = [](const std::string& log) {
    std::vector<std::string> out;
    for (size_t at = 0; at < log.size();) {
      const size_t end = log.find('\n', at);
      out.push_back(log.substr(at, end + 1 - at));
      at = end + 1;
    }
    return out;
  };
  auto stamp = [](const std::string& line) { return line.substr(0, line.find("\",")); };  // {"@timestamp":"..."
  const std::vector<std::string> first = lines(a);
  const std::vector<std::string> second = lines(b);
  std::string merged;
  size_t i = 0;
  size_t j = 0;
  while (i < first.size() || j < second.size()) {
    const bool take_first = j == second.size() || (i < first.size() && stamp(first[i]) <= stamp(second[j]));
    merged += take_first ? first[i++] : second[j++];
  }
  return merged;
}

// Steps the follower until a step reads nothing.
void Drain(Follower* follower, Pipeline* pipeline) {
  bool got_data = true;
  while (got_data) ASSERT_TRUE(follower->Step(pipeline, &got_data).ok());
}

// Follows `path` from its start; `rest` is appended once the follower has read what the
// file held.
testing::TimingOutcome Follow(const Catalog& catalog, const Matcher& matcher, const std::string& path,
                              const std::string& rest, bool prefilter) {
  std::vector<Alert> alerts;
  Pipeline pipeline(catalog, matcher, CorrelatorOptions{}, testing::SinksCollectingInto(&alerts));
  FollowerOptions options;
  options.patterns = {path};
  options.start = TailSource::StartAt::kBeginning;
  options.use_inotify = false;
  options.reader.prefilter = prefilter ? &matcher : nullptr;
  // The last record (a plain one may still get stack-trace lines) goes once the file is idle.
  options.reader.quiet_flush = Duration(0);
  Follower follower(options, {});
  Drain(&follower, &pipeline);
  std::ofstream(path, std::ios::app) << rest;
  Drain(&follower, &pipeline);
  EXPECT_TRUE(pipeline.Finish().ok());
  return testing::OutcomeOf(alerts, pipeline.summary().records, follower.records_passed_over());
}

TEST(FollowerTest, QuietRunsGiveTheAlertsOfRecordByRecordProcessing) {
  const Catalog catalog = testing::TimingCatalog();
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  testing::ShortcutComparison comparison;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    const bool json = seed % 2 == 0;
    // Plain: one node's file. JSON: two nodes' lines in one stream, as a shipper writes them.
    const std::string log = json ? MergedByTime(testing::NodeLog(&random, "es-0", true, 1500, 0),
                                                testing::NodeLog(&random, "es-1", true, 1500, 0))
                                 : testing::NodeLog(&random, "es-0", false, 1500, 0);
    // The second burst starts with a record of its own, about half way.
    size_t split = log.size() / 2;
    while (split < log.size() && (log[split - 1] != '\n' || (log[split] != '[' && log[split] != '{'))) ++split;
    testing::TimingOutcome outcomes[2];
    for (const bool prefilter : {true, false}) {
      testing::TempDir dir;
      const std::string path = dir.Write(json ? "es.json" : "es.log", log.substr(0, split));
      outcomes[prefilter ? 0 : 1] = Follow(catalog, **matcher, path, log.substr(split), prefilter);
    }
    comparison.Compare(outcomes[0], outcomes[1], "seed " + std::to_string(seed));
    if (HasFailure()) break;
  }
  comparison.ExpectEveryRuleFiredAndResolved(100);
}

}  // namespace
}  // namespace foreshock::app
