#pragma once

// SelfMonitor turns foreshock's own troubles into alerts (rule category `foreshock`), sent
// to the same outputs as the catalog's, because a detector that silently stopped working is
// the seed incident again: `foreshock.delivery_failing` when a destination has been failing
// for longer than a bound (resolved when it delivers again), `foreshock.spool_unwritable`
// when alerts for a destination could not be written to its spool (a full disk: reading
// waits; resolved once they are written), `foreshock.data_lost` when a
// rotated file was gone before it could be finished, `foreshock.window_evicted` when
// correlation state was dropped to stay within its memory bound (both resolved after a quiet
// period). It compares each snapshot with the previous one. What it has open, and losses it
// has seen but not alerted on yet, are saved with `watch`'s state (SaveState/RestoreState),
// so a restart, even after kill -9, neither forgets a loss nor leaves an alert unresolved.

#include <algorithm>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "correlate/alert.h"
#include "metrics/snapshot.h"

namespace foreshock::app {

class SelfMonitor {
 public:
  // `failing_bound`: how long a destination may fail before it is an alert.
  // `quiet`: how long without new loss or eviction before those alerts resolve.
  SelfMonitor(Duration failing_bound, Duration quiet);

  // Appends the alerts this snapshot calls for to *alerts.
  void Check(const TelemetrySnapshot& snapshot, std::vector<Alert>* alerts);

  // What is open, and the rotations lost (of `rotations_lost`, the count so far) not alerted
  // on yet. A destination restored as failing resolves once it delivers again.
  nlohmann::json SaveState(uint64_t rotations_lost) const;
  // Throws nlohmann::json::exception on a malformed state.
  void RestoreState(const nlohmann::json& saved);
  // From now on a loss is alerted on only once a saved state holds it (LossesSaved()): a kill
  // in between then leaves it to the next run instead of losing it.
  void HoldLossesUntilSaved() { saved_lost_ = 0; }
  // A state holding the first `rotations_lost` losses was saved.
  void LossesSaved(uint64_t rotations_lost) {
    if (saved_lost_) saved_lost_ = std::max(*saved_lost_, rotations_lost);
  }

 private:
  struct Open {
    bool firing = false;
    TimePoint since{};
    TimePoint last{};
    int count = 0;
    bool restored = false;  // firing when the previous run stopped
  };
  Alert Make(const Rule& rule, Alert::Action action, const std::string& subject, const std::string& message,
             const Open& open, TimePoint now) const;
  // Fires (or re-counts) `open` when `grew`, resolves it after `quiet_` without growth.
  void Track(const Rule& rule, Open* open, bool grew, const std::string& message, TimePoint now,
             std::vector<Alert>* alerts);

  Duration failing_bound_;
  Duration quiet_;
  Rule delivery_failing_;
  Rule spool_unwritable_;
  Rule data_lost_;
  Rule window_evicted_;
  std::map<std::string, Open> failing_;  // by destination
  std::map<std::string, Open> unwritable_;  // by destination
  Open data_lost_open_;
  Open evicted_open_;
  uint64_t last_lost_ = 0;
  uint64_t carried_lost_ = 0;  // lost by a previous run and not alerted on by it
  std::optional<uint64_t> saved_lost_;  // with HoldLossesUntilSaved(): losses a saved state holds
  uint64_t last_evicted_ = 0;
};

}  // namespace foreshock::app
