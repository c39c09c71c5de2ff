#pragma once

// Random multi-node logs, and a catalog whose alerts depend on when the time-driven decisions
// are taken, for the tests that compare a shortcut of the hot path (quiet runs, in Run()
// and in watch's follower) with record-by-record processing: the alerts must be the same,
// in the same order.

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "correlate/alert.h"

namespace foreshock::testing {

// Rules whose alerts depend on when time-driven decisions are taken: a threshold resolved by
// a recovery after a hold-down (its resolution is stamped with the recovery's time, earlier
// than it is due), a single alert resolved after a quiet spell, and an absence that any line
// of the node disarms. Rule ids: t.pressure_rule, t.crash_rule, t.silent_after_snapshot,
// t.relieved_rule.
Catalog TimingCatalog();

// One node's log (ES 8 JSON or plain), its clock off by `clock_offset_millis`: mostly
// ordinary lines, a precursor of TimingCatalog() now and then, sometimes a gap, a line a few
// seconds out of order or one later than --lateness, or (plain) a stack trace.
std::string NodeLog(std::mt19937* random, const std::string& node, bool json, int lines, int64_t clock_offset_millis);

// What one run over a log gave.
struct TimingOutcome {
  std::vector<std::string> alerts;  // in emission order: action, rule, time, fingerprint, message
  std::set<std::pair<std::string, std::string>> kinds;  // (action, rule id)
  uint64_t records = 0;
  uint64_t passed_over = 0;  // records the shortcut passed over (quiet runs)
};
TimingOutcome OutcomeOf(const std::vector<Alert>& alerts, uint64_t records, uint64_t passed_over);

// Compares runs with the shortcut to runs without it, log after log, and then checks that
// the logs did their job: the shortcut really passed over most records, and every rule of
// TimingCatalog() fired and resolved.
class ShortcutComparison {
 public:
  // Fails the current test when the two runs differ in their alerts or records.
  void Compare(const TimingOutcome& with_shortcut, const TimingOutcome& without, const std::string& what);
  void ExpectEveryRuleFiredAndResolved(size_t more_than_alerts) const;

 private:
  uint64_t passed_over_ = 0;
  uint64_t records_ = 0;
  size_t alerts_ = 0;
  std::set<std::pair<std::string, std::string>> kinds_;  // (action, rule id)
};

}  // namespace foreshock::testing
