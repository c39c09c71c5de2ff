#pragma once

// SelfMonitor turns foreshock's own troubles into alerts (rule category `foreshock`), sent
// to the same outputs as the catalog's, because a detector that silently stopped working is
// the seed incident again: `foreshock.delivery_failing` when a destination has been failing
// for longer than a bound (resolved when it delivers again), `foreshock.data_lost` when a
// rotated file was gone before it could be finished, `foreshock.window_evicted` when
// correlation state was dropped to stay within its memory bound (both resolved after a quiet
// period). It compares each snapshot with the previous one.

#include <map>
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

 private:
  struct Open {
    bool firing = false;
    TimePoint since{};
    TimePoint last{};
    int count = 0;
  };
  Alert Make(const Rule& rule, Alert::Action action, const std::string& subject, const std::string& message,
             const Open& open, TimePoint now) const;
  // Fires (or re-counts) `open` when `grew`, resolves it after `quiet_` without growth.
  void Track(const Rule& rule, Open* open, bool grew, const std::string& message, TimePoint now,
             std::vector<Alert>* alerts);

  Duration failing_bound_;
  Duration quiet_;
  Rule delivery_failing_;
  Rule data_lost_;
  Rule window_evicted_;
  std::map<std::string, Open> failing_;  // by destination
  Open data_lost_open_;
  Open evicted_open_;
  uint64_t last_lost_ = 0;
  uint64_t last_evicted_ = 0;
};

}  // namespace foreshock::app
