#include "base/command_words.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

using Words = std::vector<std::string>;

TEST(CommandWordsTest, QuotesKeepBlanksAndNothingIsExpanded) {
  EXPECT_EQ(*CommandWords("/usr/bin/pagerduty-cli  --summary 'disk full on $HOST' --tag \"a b\""),
            (Words{"/usr/bin/pagerduty-cli", "--summary", "disk full on $HOST", "--tag", "a b"}));
  EXPECT_EQ(*CommandWords(R"(notify "say \"hi\" \\ \$x" it\'s ~/*)"),
            (Words{"notify", R"(say "hi" \ $x)", "it's", "~/*"}));
  EXPECT_EQ(*CommandWords("a''b \"\" c"), (Words{"ab", "", "c"})) << "an empty quoted word is a word";
  EXPECT_EQ(*CommandWords("  "), Words{});
}

TEST(CommandWordsTest, AnUnclosedQuoteSaysWhere) {
  const auto single = CommandWords("notify 'oops");
  ASSERT_FALSE(single.ok());
  EXPECT_EQ(single.status().message(), "the ' at character 8 is never closed");
  EXPECT_FALSE(CommandWords("notify \"oops").ok());
  EXPECT_FALSE(CommandWords("notify oops\\").ok());
}

}  // namespace
}  // namespace foreshock
