#include "decode/json_line_shape.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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


// MatchByTail() on `object`: the values found by tag (head first, then the tail's tagged
// ones: MembersOf tags each member with its place), or {"no match"}. The head's values come
// out in order too, the very views the tags give.
std::vector<std::string> ValuesByTail(JsonLineShapes* shapes, std::string_view object) {
  JsonLineShapes::TailMatch match;
  if (!shapes->MatchByTail(object, &match)) return {"no match"};
  std::vector<std::string> values;
  for (std::string_view value : match.tagged) {
    if (value.empty()) break;  // a value found has its quotes
    values.emplace_back(value);
  }
  for (size_t i = 0; i < match.head_count; ++i) EXPECT_EQ(match.head[i].data(), match.tagged[i].data()) << i;
  return values;
}

// Match() on `object`, then KeepTail() of it, as the header walk does with a line it vouched for.
void MatchAndKeep(JsonLineShapes* shapes, std::string_view object) {
  QuoteIndex quotes;
  ASSERT_TRUE(quotes.Build(object));
  std::vector<Member> members;
  ASSERT_TRUE(shapes->Match(object, quotes, &members)) << object;
  shapes->KeepTail(object, members);
}

// The head ends at the member tagged 1 (the second).
constexpr uint8_t kHeadTag = 1;

TEST(JsonLineShapesTest, TakesALineWhoseTailWasSeenByWalkingItsHeadAlone) {
  JsonLineShapes shapes(kHeadTag);
  const std::string learned = R"({"@timestamp":"2026-11-29T02:54:11.000Z","message":"first","node":"es-1","cluster":"c"})";
  shapes.Learn(learned, MembersOf(learned));
  // The tail of the line it learned from is kept.
  EXPECT_EQ(ValuesByTail(&shapes, R"({"@timestamp":"2026-11-29T02:54:12.500Z","message":"second, longer: {} []","node":"es-1","cluster":"c"})"),
            (std::vector<std::string>{"\"2026-11-29T02:54:12.500Z\"", "\"second, longer: {} []\"", "\"es-1\"", "\"c\""}));
  // Another tail: only once a line with it was matched and kept.
  const std::string other = R"({"@timestamp":"x","message":"m","node":"es-22","cluster":"c"})";
  EXPECT_EQ(ValuesByTail(&shapes, other), std::vector<std::string>{"no match"});
  MatchAndKeep(&shapes, other);
  EXPECT_EQ(ValuesByTail(&shapes, R"({"@timestamp":"y","message":"","node":"es-22","cluster":"c"})"),
            (std::vector<std::string>{"\"y\"", "\"\"", "\"es-22\"", "\"c\""}));
}

// A line whose tail holds an escape a literal could hide behind teaches its layout, not its
// tail: no later line is read by that tail as it stands. Whitespace's escapes (a stack
// trace's \n\tat) are no such escape.
TEST(JsonLineShapesTest, KeepsNoTailHoldingEscapesButWhitespaces) {
  for (const char* trace : {R"(a\\b)", R"(a\/b)", R"(\u0007)", R"(a\n\\b)"}) {
    JsonLineShapes shapes(kHeadTag);
    const std::string learned = std::string(R"({"@timestamp":"1","message":"first","trace":")") + trace + "\"}";
    shapes.Learn(learned, MembersOf(learned));
    EXPECT_EQ(ValuesByTail(&shapes, learned), std::vector<std::string>{"no match"}) << learned;
    EXPECT_EQ(Values(&shapes, learned).size(), 3u) << "the layout is learned";
    MatchAndKeep(&shapes, learned);
    EXPECT_EQ(ValuesByTail(&shapes, learned), std::vector<std::string>{"no match"}) << learned;
  }
  JsonLineShapes shapes(kHeadTag);
  const std::string learned = R"({"@timestamp":"1","message":"first","trace":"x\n\tat y\r\n"})";
  shapes.Learn(learned, MembersOf(learned));
  EXPECT_EQ(ValuesByTail(&shapes, learned).size(), 3u) << learned;
}

TEST(JsonLineShapesTest, TakesByItsTailOnlyALineMatchWouldTakeTheSame) {
  JsonLineShapes shapes(kHeadTag);
  const std::string learned = R"({"a":"1","message":"m","node":"es-1"})";
  shapes.Learn(learned, MembersOf(learned));
  const std::vector<std::string> no_match{"no match"};
  for (const char* other : {
           R"({"a":"1","message":"m","node":"es-2"})",        // another tail
           R"({"a":"1","message":"m","node":"es-1" })",       // a byte more in the tail
           R"({"a":"1","message":"m","node":"es-1")",         // cut short
           R"({"b":"1","message":"m","node":"es-1"})",        // another key in the head
           R"({"a":"1","msg":"m","node":"es-1"})",
           R"({"a":"1","message":"a "quote","node":"es-1"})",  // a quote in a value
           R"({"a":"1","message":"back\xslash","node":"es-1"})",  // no JSON escape
           R"({"a":"1","message":"\u00e9","node":"es-1"})",       // a letter's, which a literal may hold
           R"({"a":"1","message":"cut\)",
           "{\"a\":\"1\",\"message\":\"tab\there\",\"node\":\"es-1\"}",
           "{\"a\":\"1\",\"message\":\"caf\xc3\xa9\",\"node\":\"es-1\"}",
           "{\"a\":\"\x01\",\"message\":\"m\",\"node\":\"es-1\"}",
           R"({"a":"1","message":"m)",
       }) {
    EXPECT_EQ(ValuesByTail(&shapes, other), no_match) << other;
  }
  // Escapes the walk reads are read, and said: an escaped quote ends no value.
  JsonLineShapes::TailMatch match;
  const std::string escaped = R"({"a":"1","message":"a \"quoted\" back\\slash\/ \u0007","node":"es-1"})";
  ASSERT_TRUE(shapes.MatchByTail(escaped, &match)) << escaped;
  EXPECT_EQ(match.tagged[1], R"("a \"quoted\" back\\slash\/ \u0007")");
  EXPECT_EQ(match.escapes, kEscapedQuote | kEscapedBackslash | kEscapedSlash | kEscapedControl);
  ASSERT_TRUE(shapes.MatchByTail(learned, &match));
  EXPECT_EQ(match.escapes, 0) << "none read: none said";
  // Sixteen bytes and more in a value, the refused byte, the escape or the quote past the
  // first sixteen.
  const std::string long_value(40, 'v');
  EXPECT_EQ(ValuesByTail(&shapes, "{\"a\":\"1\",\"message\":\"" + long_value + "\t\",\"node\":\"es-1\"}"), no_match);
  EXPECT_EQ(ValuesByTail(&shapes, "{\"a\":\"1\",\"message\":\"" + long_value + "\\x\",\"node\":\"es-1\"}"), no_match);
  const std::string long_escaped = "{\"a\":\"1\",\"message\":\"" + long_value + "\\n\\\"\",\"node\":\"es-1\"}";
  ASSERT_TRUE(shapes.MatchByTail(long_escaped, &match));
  EXPECT_EQ(match.tagged[1], "\"" + long_value + "\\n\\\"\"");
  EXPECT_EQ(match.escapes, kEscapedWhitespace | kEscapedQuote);
  EXPECT_EQ(ValuesByTail(&shapes, "{\"a\":\"1\",\"message\":\"" + long_value + "\",\"node\":\"es-1\"}"),
            (std::vector<std::string>{"\"1\"", "\"" + long_value + "\"", "\"es-1\""}));
  // Without a head tag, no line is taken by its tail.
  JsonLineShapes no_head;
  no_head.Learn(learned, MembersOf(learned));
  EXPECT_EQ(ValuesByTail(&no_head, learned), no_match);
}

TEST(JsonLineShapesTest, KeepsTheLastFewTailsOfALayout) {
  JsonLineShapes shapes(kHeadTag);
  auto line = [](size_t node) { return R"({"a":"1","message":"m","node":"es-)" + std::to_string(node) + "\"}"; };
  const std::string first = line(0);
  shapes.Learn(first, MembersOf(first));
  for (size_t node = 1; node <= JsonLineShapes::kTails; ++node) MatchAndKeep(&shapes, line(node));
  EXPECT_EQ(ValuesByTail(&shapes, line(0)), std::vector<std::string>{"no match"}) << "the oldest, replaced";
  for (size_t node = 1; node <= JsonLineShapes::kTails; ++node) {
    EXPECT_EQ(ValuesByTail(&shapes, line(node)).size(), 3u) << node;
  }
}

// A layout with a tag of kMaxTags or more is not kept. One whose head has more than kMaxHead
// members is kept and matched by its layout, but never taken by its tail.
TEST(JsonLineShapesTest, KeepsNoLayoutWithTagsPastItsTablesNorTakesALongHeadByItsTail) {
  auto object_of = [](size_t members) {
    std::string object = "{";
    for (size_t i = 0; i < members; ++i) object += (i > 0 ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v\"";
    return object + "}";
  };
  JsonLineShapes shapes;
  const std::string nine = object_of(JsonLineShapes::kMaxTags + 1);  // tags 0 to kMaxTags
  shapes.Learn(nine, MembersOf(nine));
  EXPECT_EQ(Values(&shapes, nine), std::vector<std::string>{"no match"});

  JsonLineShapes long_head(kHeadTag);
  const std::string object = object_of(JsonLineShapes::kMaxHead + 2);
  std::vector<Member> members = MembersOf(object);
  for (Member& member : members) member.tag = JsonLineShapes::kNoTag;
  members[JsonLineShapes::kMaxHead].tag = kHeadTag;  // the head: kMaxHead + 1 members
  long_head.Learn(object, members);
  QuoteIndex quotes;
  ASSERT_TRUE(quotes.Build(object));
  std::vector<Member> matched;
  EXPECT_TRUE(long_head.Match(object, quotes, &matched));
  JsonLineShapes::TailMatch by_tail;
  EXPECT_FALSE(long_head.MatchByTail(object, &by_tail));
  members[JsonLineShapes::kMaxHead].tag = JsonLineShapes::kNoTag;  // a head of kMaxHead members
  members[JsonLineShapes::kMaxHead - 1].tag = kHeadTag;
  long_head.Learn(object, members);
  EXPECT_TRUE(long_head.MatchByTail(object, &by_tail));
  EXPECT_EQ(by_tail.head_count, JsonLineShapes::kMaxHead);
}

// Where lines do not repeat their tails (a thread name of their own each), MatchByTail()
// soon rests, and takes lines by their tail again after the rest.
TEST(JsonLineShapesTest, RestsWhereLinesDoNotRepeatTheirTails) {
  JsonLineShapes shapes(kHeadTag);
  auto line = [](size_t thread) { return R"({"a":"1","message":"m","thread":"T#)" + std::to_string(thread) + "\"}"; };
  const std::string first = line(0);
  shapes.Learn(first, MembersOf(first));
  ASSERT_EQ(ValuesByTail(&shapes, first).size(), 3u);
  for (size_t thread = 1; thread <= JsonLineShapes::kMissesBeforeRest; ++thread) {
    EXPECT_EQ(ValuesByTail(&shapes, line(thread)), std::vector<std::string>{"no match"});
    if (thread < JsonLineShapes::kMissesBeforeRest) MatchAndKeep(&shapes, line(thread));
  }
  // Resting: not even a kept tail is taken, and none is kept.
  MatchAndKeep(&shapes, line(1000));
  for (size_t i = 0; i < JsonLineShapes::kRestLines; ++i) {
    ASSERT_EQ(ValuesByTail(&shapes, line(JsonLineShapes::kMissesBeforeRest - 1)), std::vector<std::string>{"no match"}) << i;
  }
  EXPECT_EQ(ValuesByTail(&shapes, line(JsonLineShapes::kMissesBeforeRest - 1)).size(), 3u) << "after the rest";
  EXPECT_EQ(ValuesByTail(&shapes, line(1000)), std::vector<std::string>{"no match"}) << "kept while resting: not";
}

// Random lines of two layouts, a few tails and values of random bytes (quotes, backslashes,
// control and high bytes among them): whatever MatchByTail() takes, Match() takes the same.
TEST(JsonLineShapesTest, WhatMatchByTailTakesMatchTakesTheSame) {
  std::mt19937 random(7);
  const std::string alphabet = std::string("abc :,{}[]\"\\\t\x01\xc3\xa9") + std::string(20, 'x');
  auto value = [&] {
    std::string out;
    const size_t size = random() % 40;
    for (size_t i = 0; i < size; ++i) {
      // One in eight an escape JSON holds, which the walk reads.
      if (random() % 8 == 0) {
        out += std::string("\\\"\\\\\\n\\/").substr(2 * (random() % 4), 2);
      } else {
        out += alphabet[random() % alphabet.size()];
      }
    }
    return out;
  };
  auto line = [&] {
    const bool first_layout = random() % 2 == 0;
    return std::string(first_layout ? R"({"t":")" : R"({"time":")") + (random() % 4 == 0 ? value() : "12:00") +
           R"(","message":")" + value() + R"(","node":"n)" + std::to_string(random() % 3) + R"(","x":")" +
           (random() % 8 == 0 ? value() : "y") + "\"}";
  };
  JsonLineShapes shapes(kHeadTag);
  size_t taken = 0;
  size_t escaped = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string object = line();
    JsonLineShapes::TailMatch by_tail;
    const bool tail_known = shapes.MatchByTail(object, &by_tail);
    QuoteIndex quotes;
    std::vector<Member> matched;
    const bool indexed = quotes.Build(object);
    const bool known = indexed && shapes.Match(object, quotes, &matched);
    if (tail_known) {
      ++taken;
      ASSERT_TRUE(known) << object;
      // Every member has a tag here, its place: each tag's value is the member's.
      for (size_t tag = 0; tag < JsonLineShapes::kMaxTags; ++tag) {
        if (tag >= matched.size()) {
          EXPECT_TRUE(by_tail.tagged[tag].empty()) << object;
          continue;
        }
        EXPECT_EQ(by_tail.tagged[tag], matched[tag].value) << object;
        EXPECT_EQ(by_tail.tagged[tag].data(), matched[tag].value.data()) << object;
      }
      ASSERT_EQ(by_tail.head_count, 2u) << object;
      for (size_t m = 0; m < by_tail.head_count; ++m) EXPECT_EQ(by_tail.head[m].data(), matched[m].value.data());
      // The escapes said are those the head holds, as Build() reads them.
      const std::string_view last = by_tail.head[by_tail.head_count - 1];
      QuoteIndex head;
      ASSERT_TRUE(head.Build(object.substr(0, static_cast<size_t>(last.data() - object.data()) + last.size())));
      EXPECT_EQ(by_tail.escapes, head.escapes()) << object;
      escaped += by_tail.escapes != 0 ? 1 : 0;
    }
    if (known) {
      shapes.KeepTail(object, matched);
    } else if (indexed && std::count(object.begin(), object.end(), '"') == 16) {
      shapes.Learn(object, MembersOf(object));
    }
  }
  EXPECT_GT(taken, 500u);
  EXPECT_GT(escaped, 50u) << "heads with escapes are taken";
}

}  // namespace
}  // namespace foreshock
