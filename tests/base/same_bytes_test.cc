#include "base/same_bytes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace foreshock {
namespace {

// Against std::mismatch, on runs of every length up to a few blocks, differing at every place
// or nowhere.
TEST(SameBytesTest, FindTheFirstDifferenceOfRunsOfAnyLength) {
  std::mt19937 random(5);
  for (size_t size = 0; size <= 70; ++size) {
    std::string a(size, ' ');
    for (char& c : a) c = static_cast<char>(random() % 256);
    for (size_t differ = 0; differ <= size; ++differ) {
      std::string b = a;
      if (differ < size) b[differ] = static_cast<char>(b[differ] ^ (1 + random() % 255));
      if (differ + 3 < size) b[differ + 3] = static_cast<char>(random() % 256);  // and after, at times
      const size_t expected = static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin());
      EXPECT_EQ(FirstDifference(a.data(), b.data(), size), expected) << size << " " << differ;
      EXPECT_EQ(SameBytes(a.data(), b.data(), size), expected == size) << size << " " << differ;
    }
  }
}

}  // namespace
}  // namespace foreshock
