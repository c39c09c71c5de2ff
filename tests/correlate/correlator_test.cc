#include "correlate/correlator.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

const TimePoint kStart = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29) + std::chrono::hours(2);

Pattern MakePattern(std::string id, Marker marker = Marker::kNone) {
  Pattern pattern;
  pattern.id = std::move(id);
  pattern.regex = "x";
  pattern.marker = marker;
  return pattern;
}

Rule MakeRule(std::string id, Rule::Kind kind, std::vector<std::vector<std::string>> steps) {
  Rule rule;
  rule.id = std::move(id);
  rule.name = rule.id;
  rule.kind = kind;
  rule.group_by = {"node"};
  rule.window = minutes(30);
  rule.realert = std::chrono::hours(1);
  rule.resolve_after = minutes(15);
  for (size_t i = 0; i < steps.size(); ++i) {
    rule.steps.push_back({steps[i], i == 0 ? Severity::kWarning : Severity::kCritical,
                          "stage " + std::to_string(i + 1) + " on {node}"});
  }
  return rule;
}

// The seed incident's shape: scroll limit -> heap pressure -> parent breaker (outage).
Catalog SeedCatalog(std::vector<Rule> extra = {}) {
  std::vector<Rule> rules = {
      MakeRule("chain", Rule::Kind::kSequence, {{"scroll"}, {"gc"}, {"breaker"}})};
  for (Rule& rule : extra) rules.push_back(std::move(rule));
  return Catalog({MakePattern("scroll"), MakePattern("gc"), MakePattern("breaker", Marker::kOutage)},
                 std::move(rules));
}

class CorrelatorTest : public ::testing::Test {
 protected:
  explicit CorrelatorTest(Catalog catalog = SeedCatalog()) : catalog_(std::move(catalog)) {}

  // Feeds one record from `node` at kStart + `at` that hit `pattern`; returns the alerts.
  std::vector<Alert> Hit(Correlator* correlator, Duration at, const std::string& node,
                         const std::string& pattern) {
    LogRecord record;
    record.time = kStart + at;
    record.has_time = true;
    record.node = node;
    record.text = pattern + " line";
    record.message_length = record.text.size();
    record.source = "test.log";
    std::vector<Alert> alerts;
    correlator->AdvanceTo(record.time, &alerts);
    PatternHit hit;
    hit.pattern = catalog_.FindPattern(pattern);
    correlator->Observe(record, {hit}, &alerts);
    return alerts;
  }

  Catalog catalog_;
};

TEST_F(CorrelatorTest, SequenceEscalatesOneAlertStageByStageWithLeadTime) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  auto alerts = Hit(&correlator, seconds(0), "node-2", "scroll");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kFiring);
  EXPECT_EQ(alerts[0].severity, Severity::kWarning);
  EXPECT_EQ(alerts[0].stage, 1);
  EXPECT_EQ(alerts[0].message, "stage 1 on node-2");
  EXPECT_FALSE(alerts[0].lead_time.has_value());
  const std::string fingerprint = alerts[0].fingerprint;

  EXPECT_TRUE(Hit(&correlator, seconds(30), "node-2", "scroll").empty()) << "a repeat is not news";
  EXPECT_TRUE(Hit(&correlator, seconds(40), "node-1", "gc").empty()) << "node-1 has no chain";

  alerts = Hit(&correlator, minutes(10), "node-2", "gc");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kEscalated);
  EXPECT_EQ(alerts[0].severity, Severity::kCritical);
  EXPECT_EQ(alerts[0].stage, 2);
  EXPECT_EQ(alerts[0].fingerprint, fingerprint);

  alerts = Hit(&correlator, minutes(19), "node-2", "breaker");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].stage, 3);
  ASSERT_TRUE(alerts[0].lead_time.has_value());
  EXPECT_EQ(*alerts[0].lead_time, minutes(19));
  EXPECT_EQ(alerts[0].count, 4);
  ASSERT_EQ(alerts[0].evidence.size(), 4u);
  EXPECT_EQ(alerts[0].evidence.back().pattern, "breaker");
  EXPECT_EQ(alerts[0].evidence.back().source, "test.log:0");
}

TEST_F(CorrelatorTest, SequenceStartsOnlyAtItsFirstStep) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  EXPECT_TRUE(Hit(&correlator, seconds(0), "node-2", "gc").empty());
  EXPECT_TRUE(Hit(&correlator, seconds(1), "node-2", "breaker").empty());
  EXPECT_EQ(Hit(&correlator, seconds(2), "node-2", "scroll").size(), 1u);
}

TEST_F(CorrelatorTest, LaterStepsOutsideTheWindowDoNotEscalate) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-2", "scroll").size(), 1u);
  // Kept alive by repeats, but the GC storm comes 40 minutes after the chain began.
  for (int m = 10; m <= 40; m += 10) Hit(&correlator, minutes(m), "node-2", "scroll");
  EXPECT_TRUE(Hit(&correlator, minutes(41), "node-2", "gc").empty());
}

TEST_F(CorrelatorTest, ResolvesAfterQuietTimeAtTheTimeItBecameQuiet) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-2", "scroll").size(), 1u);
  std::vector<Alert> alerts;
  correlator.AdvanceTo(kStart + minutes(14), &alerts);
  EXPECT_TRUE(alerts.empty());
  correlator.AdvanceTo(kStart + minutes(20), &alerts);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kResolved);
  EXPECT_EQ(alerts[0].time, kStart + minutes(15));
  EXPECT_EQ(alerts[0].severity, Severity::kInfo);
  // A new precursor afterwards is a new alert.
  alerts = Hit(&correlator, minutes(30), "node-2", "scroll");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kFiring);
  EXPECT_EQ(alerts[0].count, 1);
}

TEST_F(CorrelatorTest, RemindsAfterRealertWhileStillFiring) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-2", "scroll").size(), 1u);
  for (int m = 10; m < 60; m += 10) EXPECT_TRUE(Hit(&correlator, minutes(m), "node-2", "scroll").empty());
  auto alerts = Hit(&correlator, minutes(60), "node-2", "scroll");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kFiring);
  EXPECT_EQ(alerts[0].count, 7);
}

class ThresholdTest : public CorrelatorTest {
 protected:
  ThresholdTest() : CorrelatorTest(ThresholdCatalog()) {}
  static Catalog ThresholdCatalog() {
    Rule storm = MakeRule("storm", Rule::Kind::kThreshold, {{"gc"}});
    storm.count = 3;
    storm.window = minutes(5);
    return Catalog({MakePattern("gc")}, {storm});
  }
};

TEST_F(ThresholdTest, FiresOnTheNthHitInsideTheWindowOnly) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  EXPECT_TRUE(Hit(&correlator, minutes(0), "node-1", "gc").empty());
  EXPECT_TRUE(Hit(&correlator, minutes(4), "node-1", "gc").empty());
  EXPECT_TRUE(Hit(&correlator, minutes(9), "node-1", "gc").empty()) << "the first hit left the window";
  EXPECT_TRUE(Hit(&correlator, minutes(9), "node-2", "gc").empty()) << "counted per node";
  EXPECT_TRUE(Hit(&correlator, minutes(10), "node-1", "gc").empty()) << "the hit at 4m left too";
  auto alerts = Hit(&correlator, minutes(11), "node-1", "gc");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].window_start, kStart + minutes(9));
  EXPECT_EQ(alerts[0].count, 5);
}

class InhibitTest : public CorrelatorTest {
 protected:
  InhibitTest() : CorrelatorTest(SeedCatalog({Inhibited()})) {}
  static Rule Inhibited() {
    Rule breaker = MakeRule("breaker_alone", Rule::Kind::kSingle, {{"breaker"}});
    breaker.steps[0].severity = Severity::kCritical;
    breaker.inhibited_by = {"chain"};
    return breaker;
  }
};

TEST_F(InhibitTest, AnOpenChainSilencesTheStandaloneAlertOnItsNodeOnly) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  Hit(&correlator, seconds(0), "node-2", "scroll");
  auto alerts = Hit(&correlator, minutes(5), "node-2", "breaker");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].rule->id, "chain");
  EXPECT_EQ(correlator.stats().inhibited, 1u);
  alerts = Hit(&correlator, minutes(6), "node-3", "breaker");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].rule->id, "breaker_alone");
  ASSERT_TRUE(alerts[0].lead_time.has_value());
  EXPECT_EQ(*alerts[0].lead_time, Duration(0)) << "no precursor warned about node-3";
}

TEST_F(CorrelatorTest, EvidenceSaysWhenItsRecordWasCut) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  LogRecord record;
  record.time = kStart;
  record.node = "node-2";
  record.text = "scroll line";
  record.message_length = record.text.size();
  record.truncated = true;
  std::vector<Alert> alerts;
  PatternHit hit;
  hit.pattern = catalog_.FindPattern("scroll");
  correlator.Observe(record, {hit}, &alerts);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].evidence[0].message, "scroll line [record truncated]");
}

class RecoveryTest : public CorrelatorTest {
 protected:
  RecoveryTest() : CorrelatorTest(RecoveryCatalog()) {}
  static Catalog RecoveryCatalog() {
    Pattern cleared = MakePattern("cleared", Marker::kRecovery);
    cleared.title = "High watermark no longer exceeded";
    cleared.resolves = {"high"};
    return Catalog({MakePattern("high"), cleared},
                   {MakeRule("high_rule", Rule::Kind::kSingle, {{"high"}})});
  }
};

TEST_F(RecoveryTest, ARecoveryMarkerResolvesItsNodesAlertAtOnce) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-1", "high").size(), 1u);
  ASSERT_EQ(Hit(&correlator, seconds(5), "node-2", "high").size(), 1u);
  auto alerts = Hit(&correlator, minutes(3), "node-1", "cleared");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kResolved);
  EXPECT_EQ(alerts[0].node, "node-1");
  EXPECT_EQ(alerts[0].time, kStart + minutes(3));
  EXPECT_EQ(alerts[0].message, "Resolved: high_rule on node-1: High watermark no longer exceeded.");
  // node-2's alert is untouched and resolves only when it goes quiet.
  std::vector<Alert> later;
  correlator.AdvanceTo(kStart + minutes(16), &later);
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].node, "node-2");
}

TEST_F(CorrelatorTest, StateIsBoundedAndEvictionsAreCounted) {
  CorrelatorOptions options;
  options.max_groups = 2;
  Correlator correlator(catalog_, options);
  for (int node = 0; node < 5; ++node) Hit(&correlator, seconds(node), "node-" + std::to_string(node), "scroll");
  EXPECT_EQ(correlator.stats().evicted, 3u);
}

TEST_F(CorrelatorTest, EvidenceIsCappedButKeepsTheLinesThatMadeTheStory) {
  CorrelatorOptions options;
  options.max_evidence = 3;
  Correlator correlator(catalog_, options);
  Hit(&correlator, seconds(0), "node-2", "scroll");
  for (int i = 1; i < 20; ++i) Hit(&correlator, seconds(i), "node-2", "scroll");
  auto alerts = Hit(&correlator, seconds(30), "node-2", "gc");
  ASSERT_EQ(alerts.size(), 1u);
  ASSERT_EQ(alerts[0].evidence.size(), 3u);
  EXPECT_EQ(alerts[0].evidence.front().time, kStart);
  EXPECT_EQ(alerts[0].evidence.back().pattern, "gc");
}

}  // namespace
}  // namespace foreshock
