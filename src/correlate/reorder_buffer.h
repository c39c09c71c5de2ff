#pragma once

// ReorderBuffer puts the records that hit a pattern back into event-time order before they
// reach the Correlator. Logs of several nodes, or of one busy node, arrive a little out of
// order; a record is held until the watermark (the newest event time seen) is
// `allowed_lateness` past it, then released in time order, so a replay with lines shuffled
// within that bound gives exactly the alerts of the ordered logs. Live inputs cannot wait for
// event time to pass: there a held record is also released once every input was read after
// it had waited `max_hold` of wall-clock time, keeping alert latency in milliseconds (a
// reader that is itself slow to read the other inputs again does not let the record pass
// their earlier lines already written). Only records with hits are held
// (copies of them), so memory stays small; released records handed back with Recycle() are
// copied into next, their buffers reused, so holding a record costs no allocation once
// records as long have been held. Not thread-safe.

#include <chrono>
#include <deque>
#include <memory>
#include <vector>

#include "base/time.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct HeldRecord {
  LogRecord record;  // a copy; `source` still points at the input's name
  std::vector<PatternHit> hits;
  std::chrono::steady_clock::time_point held_since;
};

class ReorderBuffer {
 public:
  ReorderBuffer(Duration allowed_lateness, std::chrono::milliseconds max_hold)
      : allowed_lateness_(allowed_lateness), max_hold_(max_hold) {}

  // Whether a record of `time` is older than what was already released: it is late.
  bool TooLate(TimePoint time) const { return time < released_; }
  // Holds a record with its hits, taken from *hits. Returns false (and holds nothing, *hits
  // left as it was) when it is TooLate(): the caller applies it at once.
  bool Hold(const LogRecord& record, std::vector<PatternHit>* hits);

  // Notes the newest event time seen, hit or not.
  void Observe(TimePoint time) { watermark_ = std::max(watermark_, time); }

  // Moves to *out, in time order, every held record that may go: those the watermark is
  // `allowed_lateness` past, and, for live inputs, those held at least max_hold before
  // `inputs_read_at`, a time after which every input was read to its end (time_point::min():
  // by event time only), unless stamped at or after `held_before_us`: a record an earlier stage
  // still holds (EventClock::OldestHeldStamp()) may be older. `end` (input exhausted)
  // releases everything.
  void Release(std::chrono::steady_clock::time_point inputs_read_at, bool end,
               std::vector<std::unique_ptr<HeldRecord>>* out, TimePoint held_before_us = TimePoint::max());
  // Takes back released records once applied (leaves *released empty): Hold() copies into
  // them. At most kSpares are kept.
  void Recycle(std::vector<std::unique_ptr<HeldRecord>>* released);

  void set_max_hold(std::chrono::milliseconds max_hold) { max_hold_ = max_hold; }
  TimePoint watermark() const { return watermark_; }
  // Event time up to which everything has been released.
  TimePoint released() const { return released_; }
  bool empty() const { return held_.empty(); }
  // The watermark at which Release() lets the oldest held record go by event time (its time
  // plus allowed_lateness; TimePoint::max() when none is held). Live inputs may see it go
  // earlier, after max_hold.
  TimePoint next_release() const {
    return held_.empty() ? TimePoint::max() : held_.front()->record.time + allowed_lateness_;
  }

 private:
  Duration allowed_lateness_;
  std::chrono::milliseconds max_hold_;
  static constexpr size_t kSpares = 64;
  // Sorted by record time; by pointer, so a record held costs no deque node of its own.
  std::deque<std::unique_ptr<HeldRecord>> held_;
  std::vector<std::unique_ptr<HeldRecord>> spares_;
  TimePoint watermark_{};
  TimePoint released_{};
};

}  // namespace foreshock
