#include "match/literal_scanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "testing/random_text.h"

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

TEST(LiteralScannerTest, LiteralsSharingTheirFirstBytesAreTellApart) {
  const LiteralScanner scanner({"Too Many", "too few", "tooth", "many"});
  std::vector<int> found;
  scanner.Scan("TOO FEW ... too man", &found);
  EXPECT_EQ(found, (std::vector<int>{1}));
  found.clear();
  scanner.Scan("too many teeth, tooth", &found);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<int>{0, 2, 3}));
}

// Both ways of scanning (by trigrams when every literal has three bytes or more, else by
// automaton) against a plain case-insensitive search, on random texts over a small alphabet
// where literals overlap, share prefixes and sit at either end.
TEST(LiteralScannerTest, AgreesWithANaiveSearchOnRandomTexts) {
  std::mt19937 random(7);
  for (const size_t shortest : {size_t{1}, size_t{3}}) {
    for (int round = 0; round < 200; ++round) {
      std::vector<std::string> literals;
      for (int i = 0; i < 6; ++i) literals.push_back(testing::RandomText(random, shortest + random() % 4));
      const LiteralScanner scanner(literals);
      const std::string text = testing::RandomText(random, random() % 40);
      std::vector<int> found;
      scanner.Scan(text, &found);
      const std::set<int> unique(found.begin(), found.end());
      EXPECT_EQ(unique.size(), found.size()) << "each literal once";
      std::set<int> expected;
      for (size_t i = 0; i < literals.size(); ++i) {
        if (testing::ContainsIgnoringCase(text, literals[i])) expected.insert(static_cast<int>(i));
      }
      EXPECT_EQ(unique, expected) << "text '" << text << "'";
    }
  }
}

}  // namespace
}  // namespace foreshock
