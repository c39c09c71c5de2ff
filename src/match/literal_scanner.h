#pragma once

// LiteralScanner finds which of a fixed set of literal strings occur in a text, ignoring
// ASCII case, in one pass (Aho-Corasick with every transition precomputed over byte classes,
// so the inner loop is one table lookup per byte). The matcher uses it to find RE2's
// prefilter atoms: a record that contains no atom of any pattern cannot match any pattern.
// Immutable after construction; Scan() is const and thread-safe.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace foreshock {

class LiteralScanner {
 public:
  // `literals` must be non-empty strings; matching ignores ASCII case.
  explicit LiteralScanner(const std::vector<std::string>& literals);

  // Appends the index of every literal found in `text` to *found, each once, in the order
  // first seen.
  void Scan(std::string_view text, std::vector<int>* found) const;

 private:
  static constexpr uint32_t kTrigramBits = 1 << 18;
  static uint32_t Fold(unsigned char byte) { return kFold[byte]; }
  static uint32_t TrigramHash(uint32_t a, uint32_t b, uint32_t c) {
    return ((a << 16 | b << 8 | c) * 0x9E3779B1u) >> (32 - 18);
  }
  // False when no literal can be in `text` (no literal's first three bytes are).
  bool MayHold(std::string_view text) const;
  static constexpr auto kFold = [] {
    std::array<uint8_t, 256> fold{};
    for (int i = 0; i < 256; ++i) fold[i] = static_cast<uint8_t>(i >= 'A' && i <= 'Z' ? i - 'A' + 'a' : i);
    return fold;
  }();

  uint8_t byte_class_[256] = {};  // folded byte -> class; 0 for bytes in no literal
  size_t class_count_ = 1;
  std::vector<int> transitions_;           // state * class_count_ + class -> next state
  std::vector<uint32_t> table_;            // the same, as Scan() walks it (see the constructor)
  std::vector<uint64_t> trigrams_;         // kTrigramBits bits; empty: not usable
  std::vector<std::vector<int>> outputs_;  // literals ending at each state (suffix links folded in)
  size_t literal_count_ = 0;
};

}  // namespace foreshock
