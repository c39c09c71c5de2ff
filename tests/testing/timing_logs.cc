#include "testing/timing_logs.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "base/time.h"

namespace foreshock::testing {
namespace {

using std::chrono::seconds;

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

}  // namespace

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

TimingOutcome OutcomeOf(const std::vector<Alert>& alerts, uint64_t records, uint64_t passed_over) {
  TimingOutcome outcome;
  for (const Alert& alert : alerts) {
    const std::string action(ActionName(alert.action));
    outcome.alerts.push_back(action + " " + alert.rule->id + " " + FormatTimestamp(alert.time) + " " +
                             alert.fingerprint + " " + alert.message);
    outcome.kinds.emplace(action, alert.rule->id);
  }
  outcome.records = records;
  outcome.passed_over = passed_over;
  return outcome;
}

void ShortcutComparison::Compare(const TimingOutcome& with_shortcut, const TimingOutcome& without,
                                 const std::string& what) {
  EXPECT_EQ(with_shortcut.alerts, without.alerts) << what;
  EXPECT_EQ(with_shortcut.records, without.records) << what;
  EXPECT_EQ(without.passed_over, 0u) << what;
  passed_over_ += with_shortcut.passed_over;
  records_ += with_shortcut.records;
  alerts_ += with_shortcut.alerts.size();
  kinds_.insert(with_shortcut.kinds.begin(), with_shortcut.kinds.end());
}

void ShortcutComparison::ExpectEveryRuleFiredAndResolved(size_t more_than_alerts) const {
  EXPECT_GT(passed_over_, records_ / 2) << passed_over_ << " of " << records_;
  EXPECT_GT(alerts_, more_than_alerts);
  for (const char* rule : {"t.pressure_rule", "t.crash_rule", "t.silent_after_snapshot"}) {
    EXPECT_TRUE(kinds_.contains({"firing", rule})) << rule;
    EXPECT_TRUE(kinds_.contains({"resolved", rule})) << rule;
  }
}

}  // namespace foreshock::testing
