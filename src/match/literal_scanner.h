#pragma once

// LiteralScanner finds which of a fixed set of literal strings occur in a text, ignoring
// ASCII case. The matcher uses it to find RE2's prefilter atoms: a record that contains no
// atom of any pattern cannot match any pattern. When every literal has at least three bytes
// (the usual case), each literal is anchored on its likely rarest three bytes (fewest
// spaces, punctuation and common letters: "] pri" is anchored on "pri", not "] p"); each
// position's three bytes are hashed into a table of the anchors, with no dependency from
// one position to the next, and only positions that hit are compared with their literals.
// Shorter literals are found by Aho-Corasick with every transition precomputed over byte
// classes (one dependent table lookup per byte). Immutable after construction; Scan() is
// const and thread-safe.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "match/anchor_index.h"

namespace foreshock {

class LiteralScanner {
 public:
  // `literals` must be non-empty strings; matching ignores ASCII case.
  explicit LiteralScanner(const std::vector<std::string>& literals);

  // Appends the index of every literal found in `text` to *found, each once.
  void Scan(std::string_view text, std::vector<int>* found) const;

 private:
  static constexpr uint32_t kTrigramLog2 = 16;
  static uint32_t Fold(unsigned char byte) { return kAsciiLower[byte]; }
  static uint32_t TrigramHash(uint32_t a, uint32_t b, uint32_t c) {
    return ((a << 16 | b << 8 | c) * 0x9E3779B1u) >> (32 - kTrigramLog2);
  }
  void BuildTrigramIndex(const std::vector<std::string>& literals);
  void BuildAutomaton(const std::vector<std::string>& literals);
  void ScanByTrigrams(std::string_view text, std::vector<int>* found) const;
  void ScanByAutomaton(std::string_view text, std::vector<int>* found) const;

  bool by_trigrams_ = false;  // every literal has three bytes or more
  // By trigrams:
  AnchorIndex trigrams_{kTrigramLog2, /*bucket_bits=*/12};
  std::vector<std::string> folded_;  // the literals, lower-cased
  // By the automaton:
  uint8_t byte_class_[256] = {};  // folded byte -> class; 0 for bytes in no literal
  size_t class_count_ = 1;
  std::vector<uint32_t> table_;            // state row + class -> next state row (see BuildAutomaton)
  std::vector<std::vector<int>> outputs_;  // literals ending at each state (suffix links folded in)
  size_t literal_count_ = 0;
};

}  // namespace foreshock
