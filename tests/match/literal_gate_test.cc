#include "match/literal_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "testing/random_text.h"

namespace foreshock {
namespace {

TEST(LiteralGateTest, FindsLiteralsAtAnyAlignmentIgnoringCase) {
  const LiteralGate gate({"[parent] Data too large", "too many open files"});
  EXPECT_EQ(gate.stride(), 16u) << "19-byte shortest literal, 4-byte keys";
  const std::string literal = "Too Many Open Files";
  for (size_t pad = 0; pad < 40; ++pad) {
    const std::string text = std::string(pad, 'x') + literal + std::string(40 - pad, 'y');
    EXPECT_TRUE(gate.Contains(text)) << "at offset " << pad;
    EXPECT_TRUE(gate.Contains(text.substr(pad, literal.size()))) << "the text is the literal";
    EXPECT_FALSE(gate.Contains(text.substr(0, pad + literal.size() - 1))) << "cut one byte short";
  }
  EXPECT_TRUE(gate.Contains("x [PARENT] data TOO large"));
  EXPECT_FALSE(gate.Contains("[parent] Data too larg"));
  EXPECT_FALSE(gate.Contains(""));
}

TEST(LiteralGateTest, LooseKeyFoldingNeverMatchesWhatDiffers) {
  // '@' and '`' share a key once bit 5 is set, as do '[' and '{': verification tells them apart.
  const LiteralGate gate({"{a@b}"});
  EXPECT_FALSE(gate.Contains("[a`b]"));
  EXPECT_TRUE(gate.Contains("{A@B}"));
}

// Against a plain case-insensitive search, on random texts over a small alphabet where the
// literals overlap and recur, for every key width and stride (shortest literal 1 to 9 bytes).
TEST(LiteralGateTest, AgreesWithANaiveSearchOnRandomTexts) {
  std::mt19937 random(11);
  size_t found = 0;
  size_t missing = 0;
  for (size_t shortest = 1; shortest <= 9; ++shortest) {
    for (int round = 0; round < 300; ++round) {
      std::vector<std::string> literals;
      for (int i = 0; i < 4; ++i) literals.push_back(testing::RandomText(random, shortest + (i == 0 ? 0 : random() % 4)));
      const LiteralGate gate(literals);
      const std::string text = testing::RandomText(random, random() % 60);
      bool expected = false;
      for (const std::string& literal : literals) expected = expected || testing::ContainsIgnoringCase(text, literal);
      EXPECT_EQ(gate.Contains(text), expected) << "text '" << text << "', shortest literal " << literals[0];
      (expected ? found : missing) += 1;
    }
  }
  EXPECT_GT(found, 300u) << "the texts exercise both answers";
  EXPECT_GT(missing, 300u);
}

// Hits() names every literal a text holds (Contains() stops at the first).
TEST(LiteralGateTest, HitsNamesEveryLiteralATextHolds) {
  std::mt19937 random(13);
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> literals;
    const size_t shortest = 1 + random() % 8;
    for (int i = 0; i < 4; ++i) literals.push_back(testing::RandomText(random, shortest + (i == 0 ? 0 : random() % 4)));
    const LiteralGate gate(literals);
    const std::string text = testing::RandomText(random, random() % 80);
    std::vector<uint32_t> hits;
    gate.Hits(text, &hits);
    std::sort(hits.begin(), hits.end());
    hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < literals.size(); ++i) {
      // (Literals the same once folded are one index each: the first one's.)
      bool earlier = false;
      for (uint32_t j = 0; j < i; ++j) earlier = earlier || gate.literals()[j] == gate.literals()[i];
      if (!earlier && testing::ContainsIgnoringCase(text, literals[i])) expected.push_back(i);
    }
    for (uint32_t& hit : hits) {
      for (uint32_t j = 0; j < hit; ++j) {
        if (gate.literals()[j] == gate.literals()[hit]) hit = j;
      }
    }
    std::sort(hits.begin(), hits.end());
    hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
    EXPECT_EQ(hits, expected) << "text '" << text << "'";
    EXPECT_EQ(gate.Contains(text), !expected.empty());
  }
}

// A gate tuned to a sample of text answers as the one it was tuned from, Hits() included,
// whatever the sample held: here random texts over the same small alphabet as the literals,
// so most of their keys were seen.
TEST(LiteralGateTest, ATunedGateAnswersAsTheGuessingOne) {
  std::mt19937 random(17);
  size_t found = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> literals;
    const size_t shortest = 1 + random() % 12;
    for (int i = 0; i < 4; ++i) {
      literals.push_back(testing::RandomText(random, shortest + (i == 0 ? 0 : random() % 6)));
    }
    const LiteralGate gate(literals);
    LiteralGate::KeyCounts counts;
    for (int sample = 0; sample < 1 + static_cast<int>(random() % 4); ++sample) {
      gate.CountKeys(testing::RandomText(random, random() % 200), &counts);
    }
    const std::unique_ptr<LiteralGate> tuned = gate.Tuned(counts);
    ASSERT_EQ(tuned->literals(), gate.literals());
    ASSERT_EQ(tuned->stride(), gate.stride());
    const std::string text = testing::RandomText(random, random() % 80);
    EXPECT_EQ(tuned->Contains(text), gate.Contains(text))
        << "text '" << text << "', shortest literal " << literals[0];
    std::vector<uint32_t> hits;
    std::vector<uint32_t> tuned_hits;
    gate.Hits(text, &hits);
    tuned->Hits(text, &tuned_hits);
    for (auto* list : {&hits, &tuned_hits}) {
      std::sort(list->begin(), list->end());
      list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    EXPECT_EQ(tuned_hits, hits) << "text '" << text << "'";
    found += hits.empty() ? 0 : 1;
  }
  EXPECT_GT(found, 200u) << "the texts exercise both answers";
}

// The guess anchors "health check " on "heck", which a transform's checkpoint lines are full
// of; tuned to those lines, the gate probes keys they do not hold, and still finds the
// literals. (Only literals longer than the shortest have keys to choose from.)
TEST(LiteralGateTest, TuningMovesTheProbesOffKeysOrdinaryLinesHold) {
  const LiteralGate gate({"[parent]", "health check ", "too many open files"});
  ASSERT_EQ(gate.stride(), 5u);
  const std::string ordinary =
      "[ecommerce-summary] updating state for transform to [{\"checkpoint\":42,\"should_stop_at_checkpoint\":false,"
      "\"next_checkpoint\":43}]; too many requests; rechecking files";
  ASSERT_FALSE(gate.Contains(ordinary));
  ASSERT_GE(gate.AnchoredPositions(ordinary), 5u) << "the guess probes keys these lines hold";
  LiteralGate::KeyCounts counts;
  for (int line = 0; line < 100; ++line) gate.CountKeys(ordinary, &counts);
  const std::unique_ptr<LiteralGate> tuned = gate.Tuned(counts);
  EXPECT_EQ(tuned->AnchoredPositions(ordinary), 0u);
  EXPECT_FALSE(tuned->Contains(ordinary));
  for (const std::string text : {"shard health check failed", "[PARENT] data too large", "Too many open files"}) {
    EXPECT_TRUE(tuned->Contains(ordinary + text + ordinary)) << text;
  }
  EXPECT_EQ(gate.Tuned({})->AnchoredPositions(ordinary), gate.AnchoredPositions(ordinary)) << "no sample: the guess";
}

}  // namespace
}  // namespace foreshock
