#include "correlate/reorder_buffer.h"

#include <algorithm>

namespace foreshock {

bool ReorderBuffer::Hold(const LogRecord& record, std::vector<PatternHit>* hits) {
  Observe(record.time);
  if (TooLate(record.time)) return false;
  auto at = std::upper_bound(held_.begin(), held_.end(), record.time,
                             [](TimePoint t, const std::unique_ptr<HeldRecord>& held) { return t < held->record.time; });
  std::unique_ptr<HeldRecord> held;
  if (spares_.empty()) {
    held = std::make_unique<HeldRecord>();
  } else {
    held = std::move(spares_.back());
    spares_.pop_back();
  }
  held->record = record;  // into the spare's buffers
  std::swap(held->hits, *hits);
  hits->clear();
  held->held_since = std::chrono::steady_clock::now();
  held_.insert(at, std::move(held));
  return true;
}

void ReorderBuffer::Recycle(std::vector<std::unique_ptr<HeldRecord>>* released) {
  for (std::unique_ptr<HeldRecord>& held : *released) {
    if (spares_.size() == kSpares) break;
    spares_.push_back(std::move(held));
  }
  released->clear();
}

void ReorderBuffer::Release(std::chrono::steady_clock::time_point inputs_read_at, bool end,
                            std::vector<std::unique_ptr<HeldRecord>>* out, TimePoint held_before_us) {
  TimePoint until = watermark_ - allowed_lateness_;
  if (inputs_read_at != std::chrono::steady_clock::time_point::min()) {
    // The oldest record held long enough takes everything before it along.
    for (const std::unique_ptr<HeldRecord>& held : held_) {
      if (held->record.time >= held_before_us) break;  // held_ is in time order
      if (held->held_since + max_hold_ <= inputs_read_at) until = std::max(until, held->record.time);
    }
  }
  while (!held_.empty() && (end || held_.front()->record.time <= until)) {
    released_ = std::max(released_, held_.front()->record.time);
    out->push_back(std::move(held_.front()));
    held_.pop_front();
  }
  if (end) released_ = std::max(released_, watermark_);
}

}  // namespace foreshock
