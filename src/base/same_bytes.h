#pragma once

// SameBytes compares two byte runs of the same length eight bytes at a time, inline: the
// JSON header walk compares short keys and the bytes between values on every line, where a
// memcmp call costs more than the comparison.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace foreshock {

inline bool SameBytes(const char* a, const char* b, size_t size) {
  if (size < 8) {
    for (size_t i = 0; i < size; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  uint64_t x;
  uint64_t y;
  for (size_t i = 0; i + 8 <= size; i += 8) {
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  // The last eight bytes, overlapping the word before.
  std::memcpy(&x, a + size - 8, 8);
  std::memcpy(&y, b + size - 8, 8);
  return x == y;
}

}  // namespace foreshock
