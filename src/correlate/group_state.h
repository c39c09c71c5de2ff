#pragma once

// The correlator's memory of one (rule, group) pair: whether its alert is firing and at which
// stage, the recent hit times its windows count, what it has captured and the evidence it
// keeps. Plain data, owned by the Correlator.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/time.h"
#include "correlate/alert.h"
#include "correlate/hit_times.h"
#include "match/pattern_hit.h"

namespace foreshock {

// A later sequence step that arrived before the sequence's first step (logs slightly out of
// order); replayed when the sequence starts.
struct HeldHit {
  TimePoint time;
  int step = 0;
  bool outage = false;
  Evidence evidence;
  std::vector<Capture> captures;
};

struct GroupState {
  int rule = -1;
  std::string index_key;  // rule id and group key
  std::vector<std::pair<std::string, std::string>> group;
  std::string node;
  std::string cluster;
  std::string fingerprint;
  bool firing = false;
  int stage = 0;  // 1-based once firing
  int count = 0;  // hits counted for the alert
  std::vector<HitTimes> step_hits;  // per step: hit times still inside a window
  std::map<std::string, TimePoint> distinct;  // kDistinct: value -> latest hit time
  std::deque<HeldHit> held;  // in arrival order, the oldest at the front most often
  TimePoint first_seen;
  TimePoint last_hit;
  TimePoint window_start;
  TimePoint last_emitted;
  std::optional<TimePoint> precursor_fired_at;  // fired by a hit that was not an outage
  std::optional<TimePoint> resolving_at;        // a recovery marker arrived; hold-down runs
  std::string resolving_why;                    // that marker's title
  std::optional<TimePoint> absence_deadline;    // kAbsence: armed until then
  std::map<std::string, Capture> fields;
  std::vector<Evidence> evidence;
  // For the sweep (DueGroups): unique among the groups ever held, the place in the list
  // (greater: nearer its front), and the earliest time noted for it.
  uint64_t serial = 0;
  uint64_t recency = 0;
  TimePoint scheduled = TimePoint::max();
};

}  // namespace foreshock
