#include "match/literal_scanner.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(LiteralScannerTest, FindsOverlappingLiteralsIgnoringCase) {
  const LiteralScanner scanner({"he", "she", "his", "hers", "too many"});
  std::vector<int> found;
  scanner.Scan("USHERS said: Too Many", &found);
  EXPECT_EQ(found, (std::vector<int>{1, 0, 3, 4}));
  found.clear();
  scanner.Scan("nothing to look at", &found);
  EXPECT_TRUE(found.empty());
}

TEST(LiteralScannerTest, ReportsEachLiteralOnceAndHandlesBinaryBytes) {
  const LiteralScanner scanner({"[gc]", "data too large"});
  std::vector<int> found;
  const std::string text = std::string("\xff\x00[gc][gc] DATA TOO LARGE [gc]", 30);
  scanner.Scan(text, &found);
  EXPECT_EQ(found, (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace foreshock
