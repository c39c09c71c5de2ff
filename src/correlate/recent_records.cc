#include "correlate/recent_records.h"

#include <algorithm>

namespace foreshock {
namespace {

constexpr size_t kFirstSize = 1024;  // entries of the ring and slots of the table, at first

}  // namespace

void RecentRecords::ForgetBefore(TimePoint before) {
  while (count_ > 0 && (ring_[oldest_].arrived < before || count_ == kCapacity)) ForgetOldest();
}

void RecentRecords::ForgetOldest() {
  Erase(ring_[oldest_].key);
  oldest_ = (oldest_ + 1) % ring_.size();
  --count_;
}

bool RecentRecords::SeenElseAdd(uint64_t key, TimePoint arrived) {
  if (Contains(key)) return true;
  if (count_ == kCapacity) ForgetOldest();
  if (2 * (count_ + 1) > slots_.size()) GrowTable();
  Insert(key);
  if (count_ == ring_.size()) GrowRing();
  ring_[(oldest_ + count_) % ring_.size()] = {arrived, key};
  ++count_;
  // The oldest is forgotten next, most often at the next record: its slot is fetched now, not
  // waited for then (the table outgrows the caches).
  __builtin_prefetch(&slots_[Home(ring_[oldest_].key)]);
  return false;
}

void RecentRecords::GrowRing() {
  std::vector<Entry> grown(std::min(kCapacity, std::max(kFirstSize, 2 * ring_.size())));
  for (size_t i = 0; i < count_; ++i) grown[i] = (*this)[i];
  ring_ = std::move(grown);
  oldest_ = 0;
}

void RecentRecords::Clear() {
  ring_.clear();
  oldest_ = 0;
  count_ = 0;
  slots_.clear();
  has_zero_ = false;
}

size_t RecentRecords::Home(uint64_t key) const {
  // Keys are hashes already; the multiply spreads their high bits over the table's size.
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32) & (slots_.size() - 1);
}

bool RecentRecords::Contains(uint64_t key) const {
  if (key == 0) return has_zero_;
  if (slots_.empty()) return false;
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(key);; i = (i + 1) & mask) {
    if (slots_[i] == key) return true;
    if (slots_[i] == 0) return false;
  }
}

void RecentRecords::Insert(uint64_t key) {
  if (key == 0) {
    has_zero_ = true;
    return;
  }
  const size_t mask = slots_.size() - 1;
  size_t i = Home(key);
  while (slots_[i] != 0) i = (i + 1) & mask;
  slots_[i] = key;
}

void RecentRecords::Erase(uint64_t key) {
  if (key == 0) {
    has_zero_ = false;
    return;
  }
  const size_t mask = slots_.size() - 1;
  size_t hole = Home(key);
  while (slots_[hole] != key) hole = (hole + 1) & mask;
  // Shift back the keys after the hole whose probe passed through it, so that every key stays
  // reachable from its home without tombstones.
  for (size_t next = (hole + 1) & mask; slots_[next] != 0; next = (next + 1) & mask) {
    const size_t home = Home(slots_[next]);
    const bool home_after_hole = ((home - hole - 1) & mask) < ((next - hole) & mask);
    if (!home_after_hole) {
      slots_[hole] = slots_[next];
      hole = next;
    }
  }
  slots_[hole] = 0;
}

void RecentRecords::GrowTable() {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(old.empty() ? kFirstSize : 2 * old.size(), 0);
  for (uint64_t key : old) {
    if (key != 0) Insert(key);
  }
}

}  // namespace foreshock
