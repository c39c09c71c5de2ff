#include "correlate/reorder_buffer.h"

#include <algorithm>

namespace foreshock {

bool ReorderBuffer::Hold(const LogRecord& record, std::vector<PatternHit>* hits) {
  Observe(record.time);
  if (record.time < released_) return false;
  auto at = std::upper_bound(held_.begin(), held_.end(), record.time,
                             [](TimePoint t, const HeldRecord& held) { return t < held.record.time; });
  held_.insert(at, HeldRecord{record, std::move(*hits), std::chrono::steady_clock::now()});
  return true;
}

void ReorderBuffer::Release(bool live, bool end, std::vector<HeldRecord>* out) {
  TimePoint until = watermark_ - allowed_lateness_;
  if (live) {
    // The oldest record held too long takes everything before it along.
    const auto now = std::chrono::steady_clock::now();
    for (const HeldRecord& held : held_) {
      if (now - held.held_since >= max_hold_) until = std::max(until, held.record.time);
    }
  }
  while (!held_.empty() && (end || held_.front().record.time <= until)) {
    released_ = std::max(released_, held_.front().record.time);
    out->push_back(std::move(held_.front()));
    held_.pop_front();
  }
  if (end) released_ = std::max(released_, watermark_);
}

}  // namespace foreshock
