#pragma once

// SameBytes compares two byte runs of the same length eight or sixteen bytes at a time, inline: the
// JSON header walk compares short keys and the bytes between values on every line, where a
// memcmp call costs more than the comparison. FirstDifference finds where two runs first
// differ, sixteen bytes a step where SSE2 is: a record is read against the one before it.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace foreshock {

inline bool SameBytes(const char* a, const char* b, size_t size) {
  if (size < 8) {
    for (size_t i = 0; i < size; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
#if defined(__SSE2__)
  if (size >= 16) {  // sixteen bytes a step, the last sixteen overlapping those before
    const auto same = [&](size_t at) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + at));
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + at));
      return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
    };
    for (size_t i = 0; i + 16 < size; i += 16) {
      if (!same(i)) return false;
    }
    return same(size - 16);
  }
#endif
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

// The first index below `size` where `a` and `b` differ, or `size`.
inline size_t FirstDifference(const char* a, const char* b, size_t size) {
  size_t at = 0;
#if defined(__SSE2__)
  for (; at + 16 <= size; at += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + at));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + at));
    const unsigned same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
    if (same != 0xffffu) return at + static_cast<size_t>(std::countr_one(same));
  }
#endif
  for (; at + 8 <= size; at += 8) {
    uint64_t x;
    uint64_t y;
    std::memcpy(&x, a + at, 8);
    std::memcpy(&y, b + at, 8);
    // The lowest differing byte (little-endian words; big-endian ones compare bytes below).
    if (x != y) {
      if constexpr (std::endian::native == std::endian::little) return at + static_cast<size_t>(std::countr_zero(x ^ y)) / 8;
      break;
    }
  }
  while (at < size && a[at] == b[at]) ++at;
  return at;
}

}  // namespace foreshock
