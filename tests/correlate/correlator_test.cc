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
                         const std::string& pattern, std::vector<Capture> captures = {},
                         const std::string& cluster = "") {
    LogRecord record;
    record.time = kStart + at;
    record.has_time = true;
    record.node = node;
    record.cluster = cluster;
    record.text = pattern + " line " + std::to_string(at.count());
    record.message_length = record.text.size();
    record.source = "test.log";
    std::vector<Alert> alerts;
    correlator->AdvanceTo(record.time, &alerts);
    PatternHit hit;
    hit.pattern = catalog_.FindPattern(pattern);
    hit.captures = std::move(captures);
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

// A storm of later-step hits with no first step (breaker trips, no scroll line) keeps only
// what a first step arriving late could still start with: the step's window stays a window
// long, and the hits held are the recent ones, so a scroll line a little late escalates with
// the trips after it.
TEST_F(CorrelatorTest, AStormOfLaterStepsKeepsOnlyWhatALateFirstStepCouldUse) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  const Duration storm = std::chrono::hours(2);
  for (Duration at{}; at <= storm; at += seconds(10)) EXPECT_TRUE(Hit(&correlator, at, "node-2", "breaker").empty());
  size_t kept = 0;
  const nlohmann::json state = correlator.SaveState();
  for (const auto& group : state.at("groups")) {
    if (group.at("rule") == "chain") kept = group.at("step_hits").at(2).size();
  }
  EXPECT_GT(kept, 0u);
  EXPECT_LE(kept, (30 * 60 + 30) / 10 + 1) << "the 30-minute window and 30 s of lateness, no more";
  const auto alerts = Hit(&correlator, storm - seconds(15), "node-2", "scroll");
  ASSERT_EQ(alerts.size(), 2u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kFiring);
  EXPECT_EQ(alerts[1].action, Alert::Action::kEscalated);
  EXPECT_EQ(alerts[1].stage, 3);
  EXPECT_EQ(alerts[1].time, kStart + storm - seconds(10));
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

// A restarted `watch` restores its open alerts: with no line after the restart, each still
// resolves once its quiet time has passed.
TEST_F(CorrelatorTest, AnAlertRestoredFromSavedStateResolvesWhenQuiet) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-2", "scroll").size(), 1u);
  Correlator restored(catalog_, CorrelatorOptions{});
  restored.RestoreState(correlator.SaveState());
  std::vector<Alert> alerts;
  restored.AdvanceTo(kStart + minutes(14), &alerts);
  EXPECT_TRUE(alerts.empty());
  restored.AdvanceTo(kStart + minutes(20), &alerts);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].action, Alert::Action::kResolved);
  EXPECT_EQ(alerts[0].time, kStart + minutes(15));
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

// A shipper sending its last minutes again (or a file read again from its start): the lines
// come back long after the lateness, while the first ones are still in the window. They are
// counted once, and the alert fires on the third line that is new.
TEST_F(ThresholdTest, LinesSentAgainMinutesLaterCountOnce) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  EXPECT_TRUE(Hit(&correlator, seconds(0), "node-1", "gc").empty());
  EXPECT_TRUE(Hit(&correlator, seconds(10), "node-1", "gc").empty());
  EXPECT_TRUE(Hit(&correlator, minutes(2), "node-2", "gc").empty());
  EXPECT_TRUE(Hit(&correlator, seconds(0), "node-1", "gc").empty()) << "sent again";
  EXPECT_TRUE(Hit(&correlator, seconds(10), "node-1", "gc").empty()) << "sent again";
  EXPECT_EQ(correlator.stats().duplicates, 2u);
  const auto alerts = Hit(&correlator, minutes(3), "node-1", "gc");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].count, 3);
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

// Inhibition and lead time read the firing groups of the alert's place only: a chain restored
// from saved state still silences its node, and once resolved no longer does.
TEST_F(InhibitTest, AChainSilencesItsNodeWhileItFiresRestoredOrNot) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-2", "scroll").size(), 1u);
  Correlator restored(catalog_, CorrelatorOptions{});
  restored.RestoreState(correlator.SaveState());
  auto alerts = Hit(&restored, minutes(1), "node-2", "breaker");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].rule->id, "chain");
  EXPECT_EQ(alerts[0].action, Alert::Action::kEscalated);
  ASSERT_TRUE(alerts[0].lead_time.has_value());
  EXPECT_EQ(*alerts[0].lead_time, minutes(1)) << "the scroll line warned a minute before";
  EXPECT_EQ(restored.stats().inhibited, 1u);
  std::vector<Alert> quiet;
  restored.AdvanceTo(kStart + minutes(20), &quiet);
  ASSERT_EQ(quiet.size(), 1u);
  EXPECT_EQ(quiet[0].action, Alert::Action::kResolved);
  alerts = Hit(&restored, minutes(21), "node-2", "breaker");
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].rule->id, "breaker_alone");
  ASSERT_TRUE(alerts[0].lead_time.has_value());
  EXPECT_EQ(*alerts[0].lead_time, Duration(0)) << "the chain that warned is resolved";
}

// A rule grouped by cluster silences on every node of its cluster, and only there.
class ClusterInhibitTest : public CorrelatorTest {
 protected:
  ClusterInhibitTest() : CorrelatorTest(StormCatalog()) {}
  static Catalog StormCatalog() {
    Rule storm = MakeRule("gc_storm", Rule::Kind::kSingle, {{"gc"}});
    storm.group_by = {"cluster"};
    Rule breaker = MakeRule("breaker_alone", Rule::Kind::kSingle, {{"breaker"}});
    breaker.inhibited_by = {"gc_storm"};
    return Catalog({MakePattern("gc"), MakePattern("breaker", Marker::kOutage)}, {storm, breaker});
  }
};

TEST_F(ClusterInhibitTest, AClusterWideAlertSilencesItsClusterOnly) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Hit(&correlator, seconds(0), "node-1", "gc", {}, "prod").size(), 1u);
  EXPECT_TRUE(Hit(&correlator, seconds(10), "node-2", "breaker", {}, "prod").empty())
      << "another node of the storm's cluster";
  const auto elsewhere = Hit(&correlator, seconds(20), "node-3", "breaker", {}, "staging");
  ASSERT_EQ(elsewhere.size(), 1u);
  EXPECT_EQ(elsewhere[0].rule->id, "breaker_alone");
  EXPECT_EQ(correlator.stats().inhibited, 1u);
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

TEST_F(RecoveryTest, ARecoveryMarkerResolvesItsNodesAlertAtOnceWithoutHoldDown) {
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

// What the correlator uses: patterns its rules count or wait for, and recovery markers of
// those. A building block no rule names is passed over, so the pipeline neither holds nor
// captures its hits; it changes no alert.
TEST_F(RecoveryTest, UsesWhatItsRulesCountWaitForOrAreResolvedBy) {
  Pattern orphan_recovery = MakePattern("orphan_cleared", Marker::kRecovery);
  orphan_recovery.resolves = {"block"};
  Rule waits = MakeRule("waits", Rule::Kind::kAbsence, {{"high"}});
  waits.expect = {"answer"};
  Pattern cleared = MakePattern("cleared", Marker::kRecovery);
  cleared.resolves = {"high"};
  const Catalog catalog({MakePattern("high"), cleared, MakePattern("block"), orphan_recovery, MakePattern("answer")},
                        {MakeRule("high_rule", Rule::Kind::kSingle, {{"high"}}), waits});
  Correlator correlator(catalog, CorrelatorOptions{});
  EXPECT_TRUE(correlator.Uses(catalog.FindPattern("high")));
  EXPECT_TRUE(correlator.Uses(catalog.FindPattern("cleared")));
  EXPECT_TRUE(correlator.Uses(catalog.FindPattern("answer")));
  EXPECT_FALSE(correlator.Uses(catalog.FindPattern("block")));
  EXPECT_FALSE(correlator.Uses(catalog.FindPattern("orphan_cleared")));
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


namespace more {

using foreshock::Catalog;

class KindsTest : public CorrelatorTest {
 protected:
  KindsTest() : CorrelatorTest(KindsCatalog()) {}
  static Catalog KindsCatalog() {
    Pattern gc = MakePattern("gc");
    gc.fields = {{"spent", FieldType::kDuration}, {"interval", FieldType::kDuration}};
    Pattern left = MakePattern("left");
    left.subject = {"left_node"};
    Rule distinct = MakeRule("no_master", Rule::Kind::kDistinct, {{"nomaster"}});
    distinct.distinct_field = "node";
    distinct.count = 2;
    distinct.window = std::chrono::minutes(1);
    distinct.group_by = {"cluster"};
    Rule value = MakeRule("severe", Rule::Kind::kValue, {{"gc"}});
    value.value = {"spent", "interval", ValueCondition::Op::kGreaterEqual, 0.9};
    Rule absence = MakeRule("stuck", Rule::Kind::kAbsence, {{"high"}});
    absence.expect = {"cleared"};
    absence.window = std::chrono::minutes(30);
    Rule silent = MakeRule("silent", Rule::Kind::kAbsence, {{"breaker"}});
    silent.expect = {"any"};
    silent.window = std::chrono::minutes(5);
    Rule chain = MakeRule("chain", Rule::Kind::kSequence, {{"gc"}, {"left"}});
    chain.steps[0].count = 2;
    Rule implicit = MakeRule("left", Rule::Kind::kSingle, {{"left"}});
    implicit.implicit = true;
    Rule flappy = MakeRule("flappy", Rule::Kind::kSingle, {{"high"}});
    flappy.hold_down = std::chrono::minutes(5);
    Pattern cleared = MakePattern("cleared", Marker::kRecovery);
    cleared.title = "cleared";
    cleared.resolves = {"high"};
    return Catalog({MakePattern("nomaster"), gc, left, MakePattern("high"), cleared, MakePattern("breaker")},
                   {distinct, value, absence, silent, chain, implicit, flappy});
  }
  static std::vector<std::string> Rules(const std::vector<Alert>& alerts) {
    std::vector<std::string> out;
    for (const Alert& alert : alerts) out.push_back(alert.rule->id + ":" + std::string(ActionName(alert.action)));
    return out;
  }
};

TEST_F(KindsTest, DistinctCountsDifferentNodesOfTheCluster) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  EXPECT_TRUE(Hit(&correlator, seconds(0), "es-1", "nomaster").empty());
  EXPECT_TRUE(Hit(&correlator, seconds(10), "es-1", "nomaster").empty()) << "the same node again";
  auto alerts = Hit(&correlator, seconds(20), "es-2", "nomaster");
  ASSERT_EQ(Rules(alerts), std::vector<std::string>{"no_master:firing"});
}

TEST_F(KindsTest, ValueRuleComparesACaptureWithABound) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  auto mild = Hit(&correlator, seconds(0), "es-1", "gc", {{"spent", "3s", 3.0}, {"interval", "5s", 5.0}});
  EXPECT_TRUE(Rules(mild).empty()) << "60 % is below the bound";
  auto severe = Hit(&correlator, seconds(9), "es-1", "gc", {{"spent", "4.8s", 4.8}, {"interval", "5s", 5.0}});
  EXPECT_EQ(Rules(severe), (std::vector<std::string>{"severe:firing", "chain:firing"}))
      << "the second GC line also completes the chain's first step (count 2)";
}

TEST_F(KindsTest, AbsenceFiresAtTheDeadlineUnlessTheExpectedLineCame) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  Hit(&correlator, seconds(0), "es-1", "high");
  Hit(&correlator, seconds(0), "es-2", "high");
  Hit(&correlator, minutes(10), "es-2", "cleared");
  std::vector<Alert> alerts;
  correlator.AdvanceTo(kStart + minutes(31), &alerts, true);
  std::vector<std::string> stuck;
  for (const Alert& alert : alerts) {
    if (alert.rule->id == "stuck") stuck.push_back(alert.node + "@" + FormatTimestamp(alert.time));
  }
  EXPECT_EQ(stuck, std::vector<std::string>{"es-1@2026-11-29T02:30:00.000Z"});
}

TEST_F(KindsTest, AbsenceOfAnyLineIsDisarmedByActivity) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_TRUE(correlator.wants_activity());
  Hit(&correlator, seconds(0), "es-1", "breaker");
  Hit(&correlator, seconds(0), "es-2", "breaker");
  LogRecord chatter;
  chatter.node = "es-2";
  chatter.time = kStart + minutes(2);
  std::vector<Alert> alerts;
  correlator.NoteActivity(chatter, &alerts);
  correlator.AdvanceTo(kStart + minutes(6), &alerts, true);
  ASSERT_EQ(Rules(alerts), std::vector<std::string>{"silent:firing"});
  EXPECT_EQ(alerts[0].node, "es-1");
}

// The end of a damaged input is not silence: the node whose input was cut raises no absence
// due after its last line and no alert of it resolves for a quiet that runs past the cut.
TEST_F(KindsTest, ANodeWhoseInputWasCutIsNotSilentAndItsAlertsStayOpen) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  Hit(&correlator, seconds(0), "es-1", "breaker");
  Hit(&correlator, seconds(0), "es-2", "breaker");
  Hit(&correlator, seconds(0), "es-2", "high");
  correlator.NoteInputCut("es-2", kStart + seconds(30));
  std::vector<Alert> alerts;
  correlator.AdvanceTo(kStart + minutes(40), &alerts, true);
  std::vector<std::string> emitted;
  for (const Alert& alert : alerts) emitted.push_back(alert.node + ":" + Rules({alert})[0]);
  EXPECT_EQ(emitted, (std::vector<std::string>{"es-1:silent:firing"}))
      << "es-2's flappy alert (fired at 0) does not resolve, its silence is not raised";
  EXPECT_EQ(correlator.stats().absences_unjudged, 2u) << "es-2's silence and its 'stuck' absence";
}

// Quiet lines before anything is armed are passed over cheaply; a group armed after them is
// still disarmed by the next line, and a silence that fired is resolved by it.
TEST_F(KindsTest, ActivityDisarmsAGroupArmedAfterQuietLines) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  LogRecord chatter;
  chatter.node = "es-1";
  std::vector<Alert> alerts;
  for (int second = 0; second < 2; ++second) {
    chatter.time = kStart + seconds(second);
    correlator.NoteActivity(chatter, &alerts);
  }
  Hit(&correlator, seconds(2), "es-1", "breaker");
  chatter.time = kStart + seconds(3);
  correlator.NoteActivity(chatter, &alerts);
  correlator.AdvanceTo(kStart + minutes(6), &alerts, true);
  EXPECT_TRUE(Rules(alerts).empty()) << "the line after the breaker trip disarmed the silence";

  Hit(&correlator, minutes(7), "es-1", "breaker");
  correlator.AdvanceTo(kStart + minutes(13), &alerts, true);
  ASSERT_EQ(Rules(alerts), std::vector<std::string>{"silent:firing"});
  alerts.clear();
  chatter.time = kStart + minutes(14);
  correlator.NoteActivity(chatter, &alerts);
  EXPECT_EQ(Rules(alerts), std::vector<std::string>{"silent:resolved"});
}

TEST_F(KindsTest, SubjectCaptureTiesALineToTheNodeItIsAbout) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  Hit(&correlator, seconds(0), "master-1", "gc");
  Hit(&correlator, seconds(5), "master-1", "gc");
  // The new master writes that master-1 left: it joins master-1's chain, and the pattern's own
  // alert is absorbed by that chain.
  auto alerts = Hit(&correlator, seconds(60), "master-2", "left", {{"left_node", "{master-1}{aB}{10.0.0.1}", {}}});
  ASSERT_EQ(Rules(alerts), std::vector<std::string>{"chain:escalated"});
  EXPECT_EQ(alerts[0].node, "master-1");
  auto elsewhere = Hit(&correlator, seconds(70), "master-2", "left", {{"left_node", "{data-9}{cD}", {}}});
  EXPECT_EQ(Rules(elsewhere), std::vector<std::string>{"left:firing"}) << "no chain for data-9";
}

TEST_F(KindsTest, HoldDownAbsorbsAFlappingCondition) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  ASSERT_EQ(Rules(Hit(&correlator, seconds(0), "es-1", "high")), std::vector<std::string>{"flappy:firing"});
  EXPECT_TRUE(Rules(Hit(&correlator, seconds(30), "es-1", "cleared")).empty());
  EXPECT_TRUE(Rules(Hit(&correlator, seconds(60), "es-1", "high")).empty()) << "back within the hold-down";
  EXPECT_TRUE(Rules(Hit(&correlator, seconds(90), "es-1", "cleared")).empty());
  std::vector<Alert> alerts;
  correlator.AdvanceTo(kStart + minutes(7), &alerts, true);
  ASSERT_EQ(Rules(alerts), std::vector<std::string>{"flappy:resolved"});
  EXPECT_EQ(alerts[0].time, kStart + seconds(90)) << "resolved when it last cleared";
}

TEST_F(KindsTest, ALaterStepArrivingFirstIsHeldUntilTheSequenceStarts) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  // "left" (step 2) at 0:20 reaches the correlator before the GC lines at 0:00 and 0:10. Its
  // own alert cannot know a chain will claim it (in the pipeline, the ReorderBuffer puts such
  // lines back in order first), but the chain still gets the step.
  EXPECT_EQ(Rules(Hit(&correlator, seconds(20), "es-1", "left")), std::vector<std::string>{"left:firing"});
  Hit(&correlator, seconds(0), "es-1", "gc");
  auto alerts = Hit(&correlator, seconds(10), "es-1", "gc");
  EXPECT_EQ(Rules(alerts), (std::vector<std::string>{"chain:firing", "chain:escalated"}));
  ASSERT_EQ(alerts.size(), 2u);
  EXPECT_EQ(alerts[1].time, kStart + seconds(20));
}

TEST_F(KindsTest, TheSameRecordTwiceCountsOnce) {
  Correlator correlator(catalog_, CorrelatorOptions{});
  Hit(&correlator, seconds(0), "es-1", "gc");
  EXPECT_TRUE(Hit(&correlator, seconds(0), "es-1", "gc").empty()) << "a duplicate does not make the count 2";
  EXPECT_EQ(correlator.stats().duplicates, 1u);
}

}  // namespace more
}  // namespace
}  // namespace foreshock
