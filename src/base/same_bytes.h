#pragma once

// SameBytes compares two byte runs of the same length a word at a time, inline: the
// JSON header walk compares short keys and the bytes between values on every line, where a
// memcmp call costs more than the comparison.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace foreshock {

inline bool SameBytes(const char* a, const char* b, size_t size) {
  const auto differ = [&](auto word, size_t at) {
    decltype(word) other;
    std::memcpy(&word, a + at, sizeof(word));
    std::memcpy(&other, b + at, sizeof(word));
    return word ^ other;
  };
  if (size < 4) {
    for (size_t i = 0; i < size; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  if (size <= 8) return (differ(uint32_t{}, 0) | differ(uint32_t{}, size - 4)) == 0;
  // Eight bytes at a time, the last eight overlapping the word before, and one test at the end.
  uint64_t differences = differ(uint64_t{}, size - 8);
  for (size_t i = 0; i + 8 < size; i += 8) differences |= differ(uint64_t{}, i);
  return differences == 0;
}

}  // namespace foreshock
