#pragma once

// GateTuner fits a matcher's LiteralGate to one input. The gate probes a few keys of each
// literal, chosen by a guess at which bytes are rare, and every line holding a probed key
// costs a verification: on a cluster running transforms, the "heck" of "health check " is in
// every checkpoint line. The tuner counts the keys of the texts the gate rules out (the
// input's ordinary lines, kSampleBytes of them), then builds a gate for the same literals
// anchored on the keys those lines held least. Its answers are the same; ordinary lines cost
// fewer verifications. A log's vocabulary drifts (a node's start-up lines are not its day's),
// so after every kResampleAfterBytes of ruled-out text it samples and tunes again. One per
// reader, on the reader's thread.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "match/literal_gate.h"

namespace foreshock {

class GateTuner {
 public:
  static constexpr size_t kSampleBytes = 256 * 1024;
  static constexpr uint64_t kResampleAfterBytes = uint64_t{128} << 20;

  // The gate to ask in place of `base` (a matcher's, or null): the tuned one once a sample
  // is in and while `base` is the gate it was tuned from, else `base`.
  const LiteralGate* GateFor(const LiteralGate* base) const {
    return tuned_ != nullptr && base != nullptr && base->serial() == tuned_from_ ? tuned_.get() : base;
  }
  // Told of `parts`, which `base` ruled out: counts them while sampling, and only their
  // size between samples; a new base starts over. True when this completed a sample and
  // tuned the gate. Inline: told of every ordinary line.
  bool Sample(const LiteralGate* base, std::span<const std::string_view> parts) {
    if (base == nullptr) return false;
    if (tuned_ != nullptr && sampled_ == 0 && base->serial() == tuned_from_) {
      for (std::string_view part : parts) since_tuned_ += part.size();
      if (since_tuned_ < kResampleAfterBytes) return false;
    }
    return Count(*base, parts);
  }

 private:
  bool Count(const LiteralGate& base, std::span<const std::string_view> parts);

  uint64_t tuned_from_ = 0;             // the base gate's serial(); 0: none
  std::unique_ptr<LiteralGate> tuned_;  // null until the first sample is in
  LiteralGate::KeyCounts counts_;       // empty between samples
  size_t sampled_ = 0;                  // bytes counted into counts_
  uint64_t since_tuned_ = 0;            // ruled-out bytes since the last tuning
};

}  // namespace foreshock
