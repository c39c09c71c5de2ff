#pragma once

// FUZZ_CHECK(condition): a property every input must keep. A violation aborts with the
// condition's text, so libFuzzer saves the input as a crash like any sanitizer report.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(condition)                                                               \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      std::fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (false)

// Prints where two texts that should be equal first differ, bytes outside printable ASCII
// escaped (a NUL would otherwise end the report early), with some context either side.
inline void PrintFirstDifference(const char* name_a, const std::string& a, const char* name_b, const std::string& b) {
  const size_t at = std::mismatch(a.begin(), a.begin() + std::min(a.size(), b.size()), b.begin()).first - a.begin();
  const auto excerpt = [at](const std::string& text) {
    std::string out;
    const size_t from = at > 200 ? at - 200 : 0;
    for (size_t i = from; i < std::min(text.size(), at + 200); ++i) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      if (i == at) out += "<<HERE>>";
      if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
        out += static_cast<char>(c);
      } else {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
        out += escaped;
      }
    }
    return out;
  };
  std::fprintf(stderr, "first difference at byte %zu of %zu and %zu\n%s:\n%s\n%s:\n%s\n", at, a.size(), b.size(), name_a,
               excerpt(a).c_str(), name_b, excerpt(b).c_str());
}
