#pragma once

// FNV-1a, 64 bits: a small hash that is the same on every machine, run and version. It names
// things that must stay stable (alert fingerprints, spool folders, file heads); it is not
// meant to resist anyone choosing inputs.

#include <cstdint>
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

}  // namespace foreshock
