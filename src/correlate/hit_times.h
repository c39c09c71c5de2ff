#pragma once

// The times of one group's hits at one step, still inside its window, counted by time span.
// Hits come nearly in time order, and each goes at the back. One that comes before many
// others (a node's log sent again by its shipper, its files replayed newest first, in a storm
// of hits) waits in a short unsorted list, merged in when that fills: such a storm costs a
// few moves a hit, not the whole window's. At most a given number are kept, the latest: a
// window asks for a few hits, not for all of an hour's storm.

#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

#include "base/time.h"

namespace foreshock {

class HitTimes {
 public:
  // Adds `time`, then drops the earliest in order while more than `keep` are kept (those
  // waiting to be merged in stay: at most kMaxLate more).
  void Add(TimePoint time, size_t keep);
  // Drops the times before `limit`.
  void DropBefore(TimePoint limit);
  // How many lie in [to - span, to].
  int CountWithin(TimePoint to, Duration span) const;
  // The earliest at or after `from`, if any.
  std::optional<TimePoint> FirstFrom(TimePoint from) const;
  void Clear();
  // All of them, in time order.
  std::vector<TimePoint> InOrder() const;

 private:
  void MergeLate();

  // A time this far from the back at most is put in place at once.
  static constexpr size_t kNearBack = 32;
  static constexpr size_t kMaxLate = 256;
  std::deque<TimePoint> sorted_;
  std::vector<TimePoint> late_;  // unsorted
};

}  // namespace foreshock
