#pragma once

// RecentRecords: the hit records the correlator saw lately, each by a 64-bit key (its stamp,
// node and text) and the time it arrived, for telling a repeat from a new record (a shipper
// sending its last minutes again, a file read again from its start). It keeps at most
// kCapacity, in arrival order, each until the caller forgets those that arrived before a
// time. Keys are looked up in an open-addressed table at most half full (linear probing,
// deletion by shifting back, so no tombstones): a hit line costs about one cache miss for
// its lookup and one for forgetting the oldest, where a node-based set took several.

#include <cstdint>
#include <vector>

#include "base/time.h"

namespace foreshock {

class RecentRecords {
 public:
  static constexpr size_t kCapacity = 1 << 16;

  struct Entry {
    TimePoint arrived;
    uint64_t key;
  };

  // Forgets the records that arrived before `before`, and the oldest while all kCapacity are
  // held, so that one more fits.
  void ForgetBefore(TimePoint before);
  // True if `key` is remembered; else remembers it as arriving at `arrived`, and false.
  bool SeenElseAdd(uint64_t key, TimePoint arrived);
  void Clear();

  size_t size() const { return count_; }
  // The i-th oldest remembered record, i < size().
  const Entry& operator[](size_t i) const { return ring_[(oldest_ + i) % ring_.size()]; }

 private:
  size_t Home(uint64_t key) const;
  bool Contains(uint64_t key) const;
  void Insert(uint64_t key);
  void Erase(uint64_t key);
  void ForgetOldest();  // of a non-empty ring
  void GrowTable();
  void GrowRing();

  std::vector<Entry> ring_;  // count_ entries from oldest_ on, wrapping; grows to kCapacity
  size_t oldest_ = 0;
  size_t count_ = 0;
  std::vector<uint64_t> slots_;  // 0: empty (key 0 is kept in has_zero_)
  bool has_zero_ = false;
};

}  // namespace foreshock
