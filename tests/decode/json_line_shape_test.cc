#include "decode/json_line_shape.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace foreshock {
namespace {

using Member = JsonLineShapes::Member;

// The members of a flat object whose values are all strings, found by hand: every second
// quoted string after a colon is a value. Tags count up from 0.
std::vector<Member> MembersOf(std::string_view object) {
  std::vector<Member> members;
  size_t at = 0;
  while ((at = object.find(':', at)) != std::string_view::npos) {
    const size_t open = object.find('"', at);
    const size_t close = object.find('"', open + 1);
    members.push_back({object.substr(open, close - open + 1), static_cast<uint8_t>(members.size())});
    at = close;
  }
  return members;
}

// Match() on `object`, its quotes indexed first; the values found, or {"no match"}.
std::vector<std::string> Values(JsonLineShapes* shapes, std::string_view object) {
  QuoteIndex quotes;
  EXPECT_TRUE(quotes.Build(object));
  std::vector<Member> members;
  if (!shapes->Match(object, quotes, &members)) return {"no match"};
  std::vector<std::string> values;
  for (size_t i = 0; i < members.size(); ++i) {
    EXPECT_EQ(members[i].tag, i);
    values.emplace_back(members[i].value);
  }
  return values;
}

TEST(JsonLineShapesTest, ReadsTheValuesOfALineLaidOutLikeALearnedOne) {
  JsonLineShapes shapes;
  const std::string learned = R"({"@timestamp":"2026-11-29T02:54:11.000Z", "message":"first","node": "es-1"})";
  shapes.Learn(learned, MembersOf(learned));
  EXPECT_EQ(Values(&shapes, learned),
            (std::vector<std::string>{"\"2026-11-29T02:54:11.000Z\"", "\"first\"", "\"es-1\""}));
  EXPECT_EQ(Values(&shapes, R"({"@timestamp":"x", "message":"a much longer message, with: colons, {braces} and commas","node": ""})"),
            (std::vector<std::string>{"\"x\"", "\"a much longer message, with: colons, {braces} and commas\"", "\"\""}));
}

TEST(JsonLineShapesTest, RefusesALineLaidOutOtherwise) {
  JsonLineShapes shapes;
  const std::string learned = R"({"a":"1","b":"2"})";
  shapes.Learn(learned, MembersOf(learned));
  const std::vector<std::string> no_match{"no match"};
  for (const char* other : {
           R"({"a":"1","c":"2"})",          // another key
           R"({"a":"1","b":"2","c":"3"})",  // a member more
           R"({"a":"1"})",                  // a member less
           R"({"a":"1","b":2})",            // a number, not a string
           R"({"a":"1","b":"2"} )",         // (the caller leaves trailing spaces off)
           R"({"a":"1", "b":"2"})",         // a space more
           R"({"a":"1","b":"2""})",         // a quote more
           R"({"a":"1","b":"})",            // the last value runs into the brace
           R"({"a":"1","b":)",              // cut short
           R"({"a":")",
       }) {
    EXPECT_EQ(Values(&shapes, other), no_match) << other;
  }
}

// Four layouts are kept, the oldest replaced first, and a layout too big to be worth
// keeping is not kept.
TEST(JsonLineShapesTest, KeepsTheLastFewLayouts) {
  JsonLineShapes shapes;
  auto line = [](int key) { return "{\"k" + std::to_string(key) + "\":\"v\"}"; };
  for (int key = 0; key < 5; ++key) {
    const std::string learned = line(key);
    shapes.Learn(learned, MembersOf(learned));
  }
  EXPECT_EQ(Values(&shapes, line(0)), std::vector<std::string>{"no match"});
  for (int key = 1; key < 5; ++key) EXPECT_EQ(Values(&shapes, line(key)), std::vector<std::string>{"\"v\""});
  const std::string huge = "{\"" + std::string(JsonLineShapes::kMaxLayoutBytes, 'k') + "\":\"v\"}";
  shapes.Learn(huge, MembersOf(huge));
  EXPECT_EQ(Values(&shapes, huge), std::vector<std::string>{"no match"});
}

}  // namespace
}  // namespace foreshock
