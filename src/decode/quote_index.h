#pragma once

// QuoteIndex is what the JSON header walk needs of a line, found in one pass over its bytes
// (32 at a time where the CPU has AVX2, else sixteen with SSE2, as every x86-64 has): where
// its quotes are, one bit per byte, and whether it holds a byte the walk refuses (control
// bytes and tabs, bytes of 0x80 and over, backslashes that begin no JSON escape or a
// \uXXXX of anything but a control character, and an escaped quote that begins an envelope's
// marker key, which the unwrapper would see). An escaped quote (\") is inside a string, so
// its bit is cleared: every quote left opens or closes a string, and a string's end is the
// next quote, a bit scan, not a byte search. It says which kinds of escape the line holds
// (JsonEscape): the matcher knows which of them could hide one of its literals (a literal
// holding a quote is in the decoded text of `\"` but not in its raw bytes), and the reader
// judges a line on its raw bytes only when none could. So the stack trace of an ECS line
// ("...\n\tat ...") and an ILM step's escaped JSON are searched as they stand. Reused from
// line to line, it allocates only when a line is longer than any before.

#include <cstdint>
#include <string_view>
#include <vector>

#include "decode/decoder.h"

namespace foreshock {

class QuoteIndex {
 public:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  // The widest vectors the CPU has, or SSE2's (the tests check both give the same index).
  enum class Vectors { kWidest, kSse2 };

  explicit QuoteIndex(Vectors vectors = Vectors::kWidest);

  // The bytes ClosingQuote() refuses: those the walk refuses, and every backslash.
  static bool Refuses(unsigned char byte) { return byte < 0x20 || byte >= 0x80 || byte == '\\'; }
  // The first quote at or after `at` in `text`, searched for without an index, or kNone
  // when a refused byte comes first (or no quote comes): where one string without escapes
  // ends. With `escapes`, a string with escapes: those Build() reads are read (an escaped
  // quote ends nothing), their kinds ORed into *escapes, and only other backslashes refused.
  static size_t ClosingQuote(std::string_view text, size_t at, uint8_t* escapes = nullptr);

  // Indexes `text`. False when it holds a byte the walk refuses (the index is then
  // incomplete).
  bool Build(std::string_view text);
  // The kinds of escape the text indexed last holds (JsonEscape bits; 0: none).
  uint8_t escapes() const { return escapes_; }
  // The position of the first quote at or after `at`, or kNone.
  size_t NextQuote(size_t at) const {
    size_t word = at / 64;
    if (word >= words_.size()) return kNone;
    uint64_t bits = words_[word] & (~uint64_t{0} << (at % 64));
    while (bits == 0) {
      if (++word == words_.size()) return kNone;
      bits = words_[word];
    }
    return word * 64 + static_cast<size_t>(__builtin_ctzll(bits));
  }

 private:
  // Reads the escapes of a text holding backslashes into escapes_, clearing the bits of
  // escaped quotes. False on a backslash that begins no escape the walk reads.
  bool ReadEscapes(std::string_view text);

  bool avx2_;  // AVX2 for the whole 64-byte words
  uint8_t escapes_ = 0;
  std::vector<uint64_t> words_;  // bit i of word w: a quote at w * 64 + i
};

}  // namespace foreshock
