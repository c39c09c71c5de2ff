#include "correlate/hit_times.h"

#include <algorithm>

namespace foreshock {

void HitTimes::Add(TimePoint time, size_t keep) {
  if (sorted_.empty() || sorted_.back() <= time) {
    sorted_.push_back(time);
  } else if (sorted_.size() <= kNearBack || sorted_[sorted_.size() - kNearBack] <= time) {
    sorted_.insert(std::upper_bound(sorted_.end() - static_cast<std::ptrdiff_t>(std::min(sorted_.size(), kNearBack)),
                                    sorted_.end(), time),
                   time);
  } else {
    late_.push_back(time);
    if (late_.size() >= kMaxLate) MergeLate();
  }
  while (sorted_.size() > keep) sorted_.pop_front();
}

void HitTimes::MergeLate() {
  std::sort(late_.begin(), late_.end());
  std::deque<TimePoint> merged;
  std::merge(sorted_.begin(), sorted_.end(), late_.begin(), late_.end(), std::back_inserter(merged));
  sorted_.swap(merged);
  late_.clear();
}

void HitTimes::DropBefore(TimePoint limit) {
  while (!sorted_.empty() && sorted_.front() < limit) sorted_.pop_front();
  if (!late_.empty()) std::erase_if(late_, [&](TimePoint time) { return time < limit; });
}

int HitTimes::CountWithin(TimePoint to, Duration span) const {
  const auto from = std::lower_bound(sorted_.begin(), sorted_.end(), to - span);
  int count = static_cast<int>(std::upper_bound(from, sorted_.end(), to) - from);
  for (TimePoint time : late_) count += time >= to - span && time <= to ? 1 : 0;
  return count;
}

std::optional<TimePoint> HitTimes::FirstFrom(TimePoint from) const {
  std::optional<TimePoint> first;
  if (const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), from); it != sorted_.end()) first = *it;
  for (TimePoint time : late_) {
    if (time >= from && (!first || time < *first)) first = time;
  }
  return first;
}

void HitTimes::Clear() {
  sorted_.clear();
  late_.clear();
}

std::vector<TimePoint> HitTimes::InOrder() const {
  std::vector<TimePoint> all(sorted_.begin(), sorted_.end());
  all.insert(all.end(), late_.begin(), late_.end());
  const auto late = all.begin() + static_cast<std::ptrdiff_t>(sorted_.size());
  std::sort(late, all.end());
  std::inplace_merge(all.begin(), late, all.end());
  return all;
}

}  // namespace foreshock
