#include "match/folded_literal.h"

#include <gtest/gtest.h>

#include <random>

#include "testing/random_text.h"

namespace foreshock {
namespace {

TEST(FoldedLiteralTest, FindsTheLiteralAnywhereIgnoringCase) {
  const FoldedLiteral literal("failed to perform ");
  for (size_t pad = 0; pad < 40; ++pad) {
    const std::string text = std::string(pad, 'x') + "FAILED to Perform " + std::string(40 - pad, 'y');
    EXPECT_TRUE(literal.Contains(text)) << "at offset " << pad;
    EXPECT_TRUE(literal.Contains(text.substr(pad, 18))) << "the text is the literal";
    EXPECT_FALSE(literal.Contains(text.substr(0, pad + 17))) << "cut one byte short";
    EXPECT_FALSE(literal.Contains(text.substr(pad + 1))) << "its first byte missing";
  }
  EXPECT_FALSE(literal.Contains(""));
  EXPECT_TRUE(FoldedLiteral("[gc][").Contains("[2026][GC][young]"));
  EXPECT_FALSE(FoldedLiteral("{a@b}").Contains("[a`b]")) << "only letters fold";
}

// Against a plain case-insensitive search, on random texts over a small alphabet where
// the literal recurs and overlaps itself, texts long and short around the 16-byte steps.
TEST(FoldedLiteralTest, AgreesWithANaiveSearchOnRandomTexts) {
  std::mt19937 random(5);
  size_t found = 0;
  size_t missing = 0;
  for (int round = 0; round < 20000; ++round) {
    // Literals up to twelve bytes: the byte looked for (the rarest) may stand far into them.
    const std::string literal = testing::RandomText(random, 1 + random() % (round % 2 == 0 ? 6 : 12));
    const std::string text = testing::RandomText(random, random() % 90);
    const bool expected = testing::ContainsIgnoringCase(text, literal);
    EXPECT_EQ(FoldedLiteral(literal).Contains(text), expected) << "'" << literal << "' in '" << text << "'";
    (expected ? found : missing) += 1;
  }
  EXPECT_GT(found, 1000u) << "the texts exercise both answers";
  EXPECT_GT(missing, 1000u);
}

}  // namespace
}  // namespace foreshock
