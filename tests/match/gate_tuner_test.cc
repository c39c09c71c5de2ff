#include "match/gate_tuner.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace foreshock {
namespace {

const std::vector<std::string> kLiterals = {"[parent]", "health check ", "too many open files"};
// A transform's checkpoint line: ruled out, and full of keys the guessed anchors hold.
const std::string kOrdinary =
    "[ecommerce-summary] updating state for transform to [{\"checkpoint\":42,\"next_checkpoint\":43}]; "
    "rechecking files";

// Feeds `base` ordinary lines until the tuner tunes; how many lines that took (0: never).
size_t SampleUntilTuned(GateTuner* tuner, const LiteralGate& base, size_t most_lines) {
  const std::string_view parts[] = {kOrdinary};
  for (size_t line = 1; line <= most_lines; ++line) {
    if (tuner->Sample(&base, parts)) return line;
  }
  return 0;
}

TEST(GateTunerTest, TunesOnceTheSampleIsInAndKeepsTheLiterals) {
  const LiteralGate base(kLiterals);
  GateTuner tuner;
  EXPECT_EQ(tuner.GateFor(&base), &base) << "the guess until the sample is in";
  const size_t lines = SampleUntilTuned(&tuner, base, 1 << 20);
  EXPECT_EQ(lines, (GateTuner::kSampleBytes + kOrdinary.size() - 1) / kOrdinary.size());
  const LiteralGate* tuned = tuner.GateFor(&base);
  ASSERT_NE(tuned, &base);
  EXPECT_EQ(tuned->literals(), base.literals());
  EXPECT_GT(base.AnchoredPositions(kOrdinary), 2u);
  EXPECT_EQ(tuned->AnchoredPositions(kOrdinary), 0u);
  EXPECT_EQ(SampleUntilTuned(&tuner, base, 100), 0u) << "not again for a while";
  EXPECT_EQ(tuner.GateFor(nullptr), nullptr) << "no prefilter, no gate";
}

// A reloaded catalog brings a new gate, whose literal indexes mean other patterns: the gate
// tuned to the old one is never handed out for it, even when the new one is built where the
// old one was; the sample starts over.
TEST(GateTunerTest, ANewGateIsNeverAnsweredWithOneTunedToTheOld) {
  std::optional<LiteralGate> base(std::in_place, kLiterals);
  GateTuner tuner;
  ASSERT_GT(SampleUntilTuned(&tuner, *base, 1 << 20), 0u);
  ASSERT_NE(tuner.GateFor(&*base), &*base);
  const LiteralGate* where = &*base;
  base.emplace(std::vector<std::string>{"too many open files", "[parent]"});
  ASSERT_EQ(&*base, where) << "the same address";
  EXPECT_EQ(tuner.GateFor(&*base), &*base);
  EXPECT_GT(SampleUntilTuned(&tuner, *base, 1 << 20), 1u) << "sampled anew";
  EXPECT_EQ(tuner.GateFor(&*base)->literals(), base->literals());
}

// Tuned on a node's first lines, the gate is tuned again once kResampleAfterBytes of other
// lines have gone by: anchored off the keys of the first ones (the literal's first half),
// then off those of the lines that came since (its second half).
TEST(GateTunerTest, TunesAgainWhenTheLinesHaveChanged) {
  const LiteralGate base({"[parent]", "abcdefghijklmnop"});
  ASSERT_EQ(base.stride(), 5u);
  const std::string first = "xx abcdefghijk yy";
  const std::string later = "zz ijklmnop ww";
  GateTuner tuner;
  const auto feed = [&](const std::string& line, uint64_t most_bytes) {
    const std::string_view parts[] = {line};
    for (uint64_t fed = 0; fed < most_bytes; fed += line.size()) {
      if (tuner.Sample(&base, parts)) return fed + line.size();
    }
    return uint64_t{0};
  };
  ASSERT_GT(feed(first, uint64_t{1} << 30), 0u);
  const LiteralGate* tuned = tuner.GateFor(&base);
  EXPECT_EQ(tuned->AnchoredPositions(first), 0u);
  EXPECT_GT(tuned->AnchoredPositions(later), 0u) << "on the literal's second half, which the later lines hold";
  const uint64_t until_retuned = feed(later, uint64_t{1} << 30);
  EXPECT_GE(until_retuned + later.size(), GateTuner::kResampleAfterBytes + GateTuner::kSampleBytes);
  EXPECT_LT(until_retuned, GateTuner::kResampleAfterBytes + GateTuner::kSampleBytes + 2 * later.size());
  const LiteralGate* retuned = tuner.GateFor(&base);
  EXPECT_EQ(retuned->AnchoredPositions(later), 0u);
  EXPECT_EQ(retuned->literals(), base.literals());
  EXPECT_TRUE(retuned->Contains(later + "ABCDEFGHIJKLMNOP" + first));
  EXPECT_TRUE(retuned->Contains(first + "[parent]"));
}

}  // namespace
}  // namespace foreshock
