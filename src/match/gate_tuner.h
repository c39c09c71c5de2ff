#pragma once

// GateTuner fits a matcher's LiteralGate to one input. The gate probes a few keys of each
// literal, chosen by a guess at which bytes are rare, and every line holding a probed key
// costs a verification: on a cluster running transforms, the "heck" of "health check " is in
// every checkpoint line. The tuner counts the keys of the first texts the gate rules out
// (the input's ordinary lines, up to kSampleBytes of them), then builds a gate for the same
// literals anchored on the keys those lines held least. Its answers are the same; ordinary
// lines cost fewer verifications. One per reader, on the reader's thread.

#include <memory>
#include <span>
#include <string_view>

#include "match/literal_gate.h"

namespace foreshock {

class GateTuner {
 public:
  static constexpr size_t kSampleBytes = 512 * 1024;

  // The gate to ask in place of `base` (a matcher's, or null): the tuned one once the
  // sample is in and while `base` is the gate it was tuned from, else `base`.
  const LiteralGate* GateFor(const LiteralGate* base) const {
    return tuned_ != nullptr && base != nullptr && base->serial() == tuned_from_ ? tuned_.get() : base;
  }
  // Counts `parts`, which `base` ruled out, until the sample is in; a new base starts the
  // sample over. True when this completed the sample and tuned the gate. Inline: told of
  // every ordinary line.
  bool Sample(const LiteralGate* base, std::span<const std::string_view> parts) {
    return (tuned_ == nullptr || base == nullptr || base->serial() != tuned_from_) && Count(base, parts);
  }

 private:
  bool Count(const LiteralGate* base, std::span<const std::string_view> parts);

  uint64_t tuned_from_ = 0;             // the base gate's serial(); 0: none
  std::unique_ptr<LiteralGate> tuned_;  // null while sampling
  LiteralGate::KeyCounts counts_;       // empty once tuned
  size_t sampled_ = 0;                  // bytes counted
};

}  // namespace foreshock
