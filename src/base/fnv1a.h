#pragma once

// FNV-1a, 64 bits: a small hash that is the same on every machine, run and version. It names
// things that must stay stable (alert fingerprints, spool folders, file heads); it is not
// meant to resist anyone choosing inputs.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace foreshock {

inline constexpr uint64_t kFnv1aBasis = 14695981039346656037ULL;

// Continues `hash` over `bytes`; start from kFnv1aBasis.
inline uint64_t Fnv1a(std::string_view bytes, uint64_t hash = kFnv1aBasis) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

// A hash of `bytes` as fast as a word a step, as stable as Fnv1a (little-endian words),
// continuing `hash`: for long texts hashed per line (the correlator's duplicate keys). Each
// word is mixed in with a multiply and a shift, so every bit of it reaches every bit of the
// hash.
inline uint64_t WordHash(std::string_view bytes, uint64_t hash = kFnv1aBasis) {
  constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
  const auto mix = [&](uint64_t word) {
    hash = (hash ^ word) * kMultiplier;
    hash ^= hash >> 29;
  };
  size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + at, 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    mix(word);
  }
  uint64_t tail = bytes.size() - at;  // the length too: "a" and "a\0" differ
  for (size_t i = 0; at + i < bytes.size(); ++i) tail |= uint64_t{static_cast<unsigned char>(bytes[at + i])} << (8 * (i + 1));
  mix(tail);
  return hash;
}

}  // namespace foreshock
