#pragma once

// LiteralGate answers one question fast: does a text contain any of a set of literals
// (ignoring ASCII case)? The matcher asks it first, with the few long literals that each
// pattern cannot match without, so an ordinary log line is ruled out after a look at a
// fraction of its bytes. With every literal at least L bytes long, only every s-th position
// of the text is probed (s = L - q + 1 for q-byte keys, q <= 4): any occurrence of a
// literal covers one probed position at each of its offsets' residues mod s, and the key
// at the likely rarest offset of each residue class is in a table (of uncommon bytes, and
// held by no other literal: a key the literals share is a word of Elasticsearch's that
// ordinary lines use too). A hit in the table is verified against the literals anchored
// there, so the answer is exact. Which key is rare is a guess until text is seen: Tuned()
// anchors the same literals on the keys a sample of ordinary text (CountKeys()) held least.
// Immutable after construction; Contains() is const and thread-safe.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "match/anchor_index.h"

namespace foreshock {

class LiteralGate {
 public:
  // `literals` must be non-empty strings.
  explicit LiteralGate(const std::vector<std::string>& literals);

  // How often keys occurred in a sample of text, by the key's hash, saturating.
  using KeyCounts = std::vector<uint16_t>;
  // Adds the key at every position of `text` to *counts (sized on first use).
  void CountKeys(std::string_view text, KeyCounts* counts) const;
  // A gate for the same literals (same indexes, same answers) whose anchors are the keys
  // `ordinary` counted least; the guess decides between keys counted alike.
  std::unique_ptr<LiteralGate> Tuned(const KeyCounts& ordinary) const;

  bool Contains(std::string_view text) const;
  // Appends the index (in literals()) of every literal `text` contains; some may come twice.
  void Hits(std::string_view text, std::vector<uint32_t>* literals) const;
  // How many positions of `text` hold some literal's anchor key: each that falls on a probe
  // (one in stride(), as the text lies) costs Contains() a verification.
  size_t AnchoredPositions(std::string_view text) const;
  // Positions probed per byte of text, 1/s (for the log).
  size_t stride() const { return stride_; }
  // The literals, lower-cased.
  const std::vector<std::string>& literals() const { return folded_; }
  // Unique to this gate among all built in the process (an address may be reused).
  uint64_t serial() const { return serial_; }

 private:
  static constexpr uint32_t kBitsLog2 = 16;
  static uint32_t Hash(uint32_t key) { return (key * 0x9E3779B1u) >> (32 - kBitsLog2); }
  uint32_t KeyAt(const unsigned char* bytes) const;
  LiteralGate() = default;
  // Picks, per literal and residue, the anchor key; `ordinary` (may be null) as in Tuned().
  void ChooseAnchors(const KeyCounts* ordinary);
  // For each key in the literals (at any offset), how many literals hold it, by key.
  using KeyHolders = std::vector<std::pair<uint32_t, int>>;
  KeyHolders LiteralsHoldingEachKey() const;
  // Whether a literal anchored on `hash` occurs with its anchor at text[position].
  [[gnu::noinline]] bool FoundAt(std::string_view text, size_t position, uint32_t hash) const;

  static uint64_t NextSerial();

  uint64_t serial_ = NextSerial();
  size_t key_bytes_ = 4;  // q
  size_t stride_ = 1;     // s
  AnchorIndex anchors_{kBitsLog2, /*bucket_bits=*/10};
  std::vector<std::string> folded_;  // the literals, lower-cased
};

}  // namespace foreshock
