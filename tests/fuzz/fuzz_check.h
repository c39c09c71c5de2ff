#pragma once

// FUZZ_CHECK(condition): a property every input must keep. A violation aborts with the
// condition's text, so libFuzzer saves the input as a crash like any sanitizer report.

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                               \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      std::fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (false)
