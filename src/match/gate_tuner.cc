#include "match/gate_tuner.h"

namespace foreshock {

bool GateTuner::Count(const LiteralGate& base, std::span<const std::string_view> parts) {
  if (base.serial() != tuned_from_) {
    tuned_from_ = base.serial();
    tuned_.reset();
    counts_.clear();
    sampled_ = 0;
  }
  for (std::string_view part : parts) {
    base.CountKeys(part, &counts_);
    sampled_ += part.size();
  }
  if (sampled_ < kSampleBytes) return false;
  tuned_ = base.Tuned(counts_);
  LiteralGate::KeyCounts().swap(counts_);
  sampled_ = 0;
  since_tuned_ = 0;
  return true;
}

}  // namespace foreshock
