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
    "[ecommerce-summary] updating state for transform to [{\"checkpoint\":42,\"next_checkpoint\":43}]; rechecking files";

// Probed positions of the ordinary line that hold an anchor key, at each alignment.
size_t Anchored(const LiteralGate& gate) {
  size_t positions = 0;
  for (size_t shift = 0; shift < gate.stride(); ++shift) positions += gate.AnchoredPositions(std::string(shift, ' ') + kOrdinary);
  return positions;
}

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
  EXPECT_GT(Anchored(base), 2u);
  EXPECT_EQ(Anchored(*tuned), 0u);
  EXPECT_EQ(SampleUntilTuned(&tuner, base, 100), 0u) << "tuned once";
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

}  // namespace
}  // namespace foreshock
