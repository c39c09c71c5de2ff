#include "base/fnv1a.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_set>

namespace foreshock {
namespace {

// The hashes are saved with watch's state: the same bytes hash the same in every version.
TEST(HashTest, ValuesAreStableAcrossVersions) {
  EXPECT_EQ(Fnv1a(""), kFnv1aBasis);
  EXPECT_EQ(Fnv1a("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(WordHash("[2026-11-29T02:54:11,123][WARN ][o.e.s.SearchService] [es-1] too many scroll contexts"),
            0x20d1d2638041d438ULL);
}

// The correlator takes two lines with the same key for one line read twice: every bit of
// the text, and its length, must reach the key, and distinct log lines must not collide.
TEST(HashTest, WordHashSeesEveryBitAndTheLength) {
  for (size_t size = 1; size <= 40; ++size) {
    const std::string text(size, 'x');
    const uint64_t base = WordHash(text);
    for (size_t byte = 0; byte < size; ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string flipped = text;
        flipped[byte] = static_cast<char>(flipped[byte] ^ (1 << bit));
        EXPECT_NE(WordHash(flipped), base) << size << " bytes, byte " << byte << " bit " << bit;
      }
    }
    EXPECT_NE(WordHash(text + std::string(1, '\0')), base) << "a zero byte more";
  }
  std::unordered_set<uint64_t> seen;
  for (int n = 0; n < 200000; ++n) {
    seen.insert(WordHash("[2026-11-29T02:54:11,123][INFO ][o.e.m.j.JvmGcMonitorService] [es-1] [gc][" +
                         std::to_string(n) + "] overhead, spent [1.2s] collecting in the last [2s]"));
  }
  EXPECT_EQ(seen.size(), 200000u);
}

}  // namespace
}  // namespace foreshock
