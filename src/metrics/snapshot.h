#pragma once

// A TelemetrySnapshot is everything foreshock reports about itself at one moment: the
// counters of its inputs, matcher, correlator and outputs, read off the running pipeline
// by the app and handed to the metrics endpoint and the self-monitor. Counters only grow.

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "base/time.h"
#include "deliver/delivery_queue.h"

namespace foreshock {

struct InputCounters {
  uint64_t lines = 0;
  uint64_t bytes = 0;
  uint64_t malformed = 0;
  uint64_t unreadable = 0;
  uint64_t truncated = 0;
};

struct TelemetrySnapshot {
  std::map<std::string, InputCounters> inputs;           // by input name (path or "-")
  std::map<std::string, uint64_t> pattern_hits;          // by pattern id
  // (rule id, severity, action) -> alerts emitted.
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t> alerts;
  std::map<std::string, DeliveryStats> outputs;          // by destination name
  uint64_t files_followed = 0;
  uint64_t rotations = 0;
  uint64_t truncations = 0;      // copytruncate restarts
  uint64_t rotations_lost = 0;   // rotated files that could not be finished
  uint64_t windows_evicted = 0;  // correlation state dropped to stay within bounds
  uint64_t late_records = 0;
  uint64_t clock_anomalies = 0;
  TimePoint newest_event{};      // the latest event time seen; zero before any
};

}  // namespace foreshock
