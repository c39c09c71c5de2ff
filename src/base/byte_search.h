#pragma once

// FindByte: the first `byte` in [at, end), or `end`. Inline and eight bytes at a time, for
// the short spans of the hot path (JSON strings and keys) where a call to memchr costs more
// than the search itself.

#include <cstdint>
#include <cstring>

namespace foreshock {

inline const char* FindByte(const char* at, const char* end, char byte) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighs = 0x8080808080808080ULL;
  const uint64_t pattern = kOnes * static_cast<unsigned char>(byte);
  while (end - at >= 8) {
    uint64_t word;
    std::memcpy(&word, at, 8);
    const uint64_t differs = word ^ pattern;
    // The lowest flagged byte is always a real match (little-endian: ctz finds it first).
    const uint64_t found = (differs - kOnes) & ~differs & kHighs;
    if (found != 0) return at + (__builtin_ctzll(found) >> 3);
    at += 8;
  }
  while (at < end && *at != byte) ++at;
  return at;
}

}  // namespace foreshock
