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

void ReorderBuffer::Release(bool live, bool end, std::vector<std::unique_ptr<HeldRecord>>* out) {
  TimePoint until = watermark_ - allowed_lateness_;
  if (live) {
    // The oldest record held too long takes everything before it along.
    const auto now = std::chrono::steady_clock::now();
    for (const std::unique_ptr<HeldRecord>& held : held_) {
      if (now - held->held_since >= max_hold_) until = std::max(until, held->record.time);
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
