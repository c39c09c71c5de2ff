#include "app/pipeline.h"

#include <gtest/gtest.h>

#include <thread>

#include "input/fd_source.h"
#include "testing/collecting_sink.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::SinksCollectingInto;
using testing::TempDir;

std::string Line(const std::string& time, const std::string& node, const std::string& message) {
  return "{\"@timestamp\":\"2026-11-29T" + time + "Z\",\"log.level\":\"WARN\",\"message\":\"" + message +
         "\",\"elasticsearch.node.name\":\"" + node + "\",\"elasticsearch.cluster.name\":\"prod\"}\n";
}

// A cluster-wide rule: three rejections anywhere in the cluster within a minute.
Catalog ClusterCatalog() {
  Pattern rejected;
  rejected.id = "t.rejected";
  rejected.regex = "rejected execution";
  Rule storm;
  storm.id = "t.storm";
  storm.name = "storm";
  storm.kind = Rule::Kind::kThreshold;
  storm.count = 3;
  storm.window = std::chrono::minutes(1);
  storm.group_by = {"cluster"};
  storm.realert = std::chrono::hours(1);
  storm.resolve_after = std::chrono::minutes(15);
  storm.steps.push_back({{"t.rejected"}, Severity::kWarning, "storm in {cluster}"});
  return Catalog({rejected}, {storm});
}

std::vector<Alert> RunOn(const Catalog& catalog, const std::vector<std::string>& paths) {
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  EXPECT_TRUE(matcher.ok());
  std::vector<Alert> alerts;
  Pipeline pipeline(catalog, **matcher, CorrelatorOptions{}, SinksCollectingInto(&alerts));
  std::vector<std::unique_ptr<RecordReader>> readers;
  for (const std::string& path : paths) {
    readers.push_back(std::move(RecordReader::Create(std::move(FdSource::Open(path)).value(), {})).value());
  }
  EXPECT_TRUE(pipeline.Run(readers).ok());
  return alerts;
}

// Node files cover the same hours; read one after the other, node-1's later lines would
// push time past node-2's and the cluster-wide storm would never be seen.
TEST(PipelineTest, MergesInputsByEventTimeWhateverTheirOrder) {
  TempDir dir;
  const std::string node1 = dir.Write("node-1.json", Line("02:00:00", "node-1", "rejected execution") +
                                                         Line("02:30:00", "node-1", "ordinary") +
                                                         Line("03:00:00", "node-1", "ordinary"));
  const std::string node2 = dir.Write("node-2.json", Line("02:00:20", "node-2", "rejected execution") +
                                                         Line("02:00:40", "node-2", "rejected execution"));
  const Catalog catalog = ClusterCatalog();
  for (const auto& order : {std::vector{node1, node2}, std::vector{node2, node1}}) {
    auto alerts = RunOn(catalog, order);
    ASSERT_EQ(alerts.size(), 2u);
    EXPECT_EQ(alerts[0].action, Alert::Action::kFiring);
    EXPECT_EQ(FormatTimestamp(alerts[0].time), "2026-11-29T02:00:40.000Z");
    EXPECT_EQ(alerts[0].message, "storm in prod");
    EXPECT_EQ(alerts[0].evidence.front().source, node1 + ":1");
    EXPECT_EQ(alerts[1].action, Alert::Action::kResolved);
    EXPECT_EQ(FormatTimestamp(alerts[1].time), "2026-11-29T02:15:40.000Z");
  }
}

// A three-step chain whose steps nodes log apart, for watch's rounds of reads.
Catalog ChainCatalog() {
  std::vector<Pattern> patterns;
  Rule chain;
  chain.id = "t.chain";
  chain.name = "chain";
  chain.kind = Rule::Kind::kSequence;
  chain.window = std::chrono::minutes(10);
  chain.group_by = {"cluster"};
  chain.realert = std::chrono::hours(1);
  chain.resolve_after = std::chrono::hours(1);
  for (const std::string step : {"first", "second", "third"}) {
    Pattern pattern;
    pattern.id = "t." + step;
    pattern.regex = step + " step";
    patterns.push_back(pattern);
    chain.steps.push_back({{pattern.id}, Severity::kWarning, step});
  }
  return Catalog(patterns, {chain});
}

// Live lines are stamped near the wall clock (the event clock holds others until it is sure).
const TimePoint kLiveStart =
    std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()) - std::chrono::minutes(1);

LogRecord Record(int second, const std::string& node, const std::string& text) {
  LogRecord record;
  record.time = record.stamp = kLiveStart + std::chrono::seconds(second);
  record.has_time = true;
  record.level = Level::kWarn;
  record.node = node;
  record.cluster = "prod";
  record.text = text;
  record.message_length = text.size();
  return record;
}

// Watch reads its files in rounds. A hit held for the other files goes once a round read
// them all after its 150 ms hold, not on wall time alone (the watcher itself may have been
// too slow to read them again), and not while a file ends part way through a line: the
// chain's second step, from another node, still comes before its third.
TEST(PipelineTest, AHeldHitWaitsForARoundOfReadsAfterItsHold) {
  const Catalog catalog = ChainCatalog();
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  std::vector<Alert> alerts;
  Pipeline pipeline(catalog, **matcher, CorrelatorOptions{}, SinksCollectingInto(&alerts));
  pipeline.SetLiveInputs(3);
  const auto hold = std::chrono::milliseconds(200);  // past the 150 ms a hit waits
  ASSERT_TRUE(pipeline.Process(Record(0, "node-1", "first step"), /*live=*/true).ok());
  std::this_thread::sleep_for(hold);
  pipeline.NoteReadRound(std::chrono::steady_clock::now(), false);
  ASSERT_TRUE(pipeline.OnIdle().ok());
  ASSERT_EQ(alerts.size(), 1u);
  ASSERT_TRUE(pipeline.Process(Record(20, "node-3", "third step"), /*live=*/true).ok());
  std::this_thread::sleep_for(hold);
  ASSERT_TRUE(pipeline.OnIdle().ok());
  EXPECT_EQ(alerts.size(), 1u) << "no round read the other files since the hold";
  pipeline.NoteReadRound(std::chrono::steady_clock::now(), /*record_being_written=*/true);
  ASSERT_TRUE(pipeline.OnIdle().ok());
  EXPECT_EQ(alerts.size(), 1u) << "a file ends part way through a line";
  ASSERT_TRUE(pipeline.Process(Record(10, "node-2", "second step"), /*live=*/true).ok());
  pipeline.NoteReadRound(std::chrono::steady_clock::now(), false);
  ASSERT_TRUE(pipeline.OnIdle().ok());
  ASSERT_EQ(alerts.size(), 3u);
  EXPECT_EQ(alerts[1].action, Alert::Action::kEscalated);
  EXPECT_EQ(alerts[1].stage, 2);
  EXPECT_EQ(alerts[1].time, kLiveStart + std::chrono::seconds(10));
  EXPECT_EQ(alerts[2].stage, 3);
  EXPECT_EQ(alerts[2].time, kLiveStart + std::chrono::seconds(20));
  EXPECT_EQ(pipeline.summary().late, 0u);
}

Pattern NamedPattern(const std::string& id, const std::string& regex) {
  Pattern pattern;
  pattern.id = id;
  pattern.regex = regex;
  return pattern;
}

// A catalog reloaded (SIGHUP) numbers its patterns anew: the hits counted before keep their
// patterns' names, and a pattern the old catalog did not have is counted under its own.
TEST(PipelineTest, HitCountsKeepTheirPatternsAcrossACatalogReload) {
  const Catalog before({NamedPattern("t.rejected", "rejected execution")}, {});
  const Catalog after({NamedPattern("t.breaker", "Data too large"), NamedPattern("t.rejected", "rejected execution"),
                       NamedPattern("t.scroll", "too many scroll contexts")},
                      {});
  auto before_matcher = Matcher::Create(before, MatcherOptions{});
  auto after_matcher = Matcher::Create(after, MatcherOptions{});
  ASSERT_TRUE(before_matcher.ok() && after_matcher.ok());
  Pipeline pipeline(before, **before_matcher, CorrelatorOptions{}, {});
  ASSERT_TRUE(pipeline.Process(Record(0, "node-1", "rejected execution of bulk"), /*live=*/false).ok());
  ASSERT_TRUE(pipeline.ReplaceCatalog(after, **after_matcher).ok());
  ASSERT_TRUE(pipeline.Process(Record(1, "node-1", "rejected execution of search"), /*live=*/false).ok());
  ASSERT_TRUE(pipeline.Process(Record(2, "node-1", "Trying to create too many scroll contexts"), false).ok());
  ASSERT_TRUE(pipeline.Finish().ok());
  EXPECT_EQ(pipeline.pattern_hits(), (std::map<std::string, uint64_t>{{"t.rejected", 2}, {"t.scroll", 1}}));
  EXPECT_EQ(pipeline.summary().hits, 3u);
}

}  // namespace
}  // namespace foreshock
