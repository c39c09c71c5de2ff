#pragma once

// Where a value a shape takes out begins and ends. A shape (see record_shape.h) reads a text
// as pieces: the bytes between those that end one (TemplateOf()'s separators, a backslash, a
// line break, or kShapeMarkByte). PieceAround() finds the piece around a byte, PieceFrom()
// the piece that begins at one. Pure functions, thread-safe.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace foreshock {

// The bytes TemplateOf() splits a message's tokens at.
constexpr bool IsTemplateSeparator(char c) {
  switch (c) {
    case ' ': case '\t': case '[': case ']': case '(': case ')': case '{': case '}': case ',': case ';':
    case '"': case '\'': case '=': case '<': case '>': case '|':
      return true;
    default:
      return false;
  }
}

constexpr bool IsDigit(char c) { return c >= '0' && c <= '9'; }

#if defined(__SSE2__)
// The digits of a block, as 0xff bytes (signed compares: bytes past 0x7f are negative).
inline __m128i DigitBytes(__m128i bytes) {
  return _mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(bytes, _mm_set1_epi8('9' + 1)));
}
#endif

// The byte a shape's marks start with; the text's own is written otherwise.
inline constexpr char kShapeMarkByte = '\x01';

constexpr bool EndsPiece(char c) {
  return IsTemplateSeparator(c) || c == '\\' || c == '\n' || c == '\r' || c == kShapeMarkByte;
}

struct Piece {
  size_t begin = 0;        // just after the byte that ends the piece before, or 0
  size_t end = 0;          // the byte that ends it, or the text's size
  bool digit = false;      // it holds a digit
  bool capital_e = false;  // it holds an 'E' (a piece without one names no class)
};

namespace shape_piece_internal {
// By byte: whether it ends a piece, is a digit, is an 'E'.
inline constexpr uint8_t kEnds = 1;
inline constexpr uint8_t kDigit = 2;
inline constexpr uint8_t kCapitalE = 4;
inline constexpr std::array<uint8_t, 256> kKinds = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const char byte = static_cast<char>(c);
    table[static_cast<size_t>(c)] = static_cast<uint8_t>((EndsPiece(byte) ? kEnds : 0) |
                                                         (IsDigit(byte) ? kDigit : 0) |
                                                         (byte == 'E' ? kCapitalE : 0));
  }
  return table;
}();
}  // namespace shape_piece_internal

// The piece of `text` that holds its byte at `at` (which must not end a piece). Inline: a
// shape asks it of every piece holding a digit.
inline Piece PieceAround(std::string_view text, size_t at) {
  using namespace shape_piece_internal;
  const auto kind = [&](size_t i) { return kKinds[static_cast<unsigned char>(text[i])]; };
  uint8_t kinds = kind(at);
  size_t begin = at;
  while (begin > 0 && (kind(begin - 1) & kEnds) == 0) kinds |= kind(--begin);
  size_t end = at + 1;
  while (end < text.size() && (kind(end) & kEnds) == 0) kinds |= kind(end++);
  return {begin, end, (kinds & kDigit) != 0, (kinds & kCapitalE) != 0};
}
// The piece of `text` that begins at `begin` (0, or just after a byte that ends a piece; the
// byte at `begin` must not end one), sixteen bytes a step where SSE2 is.
Piece PieceFrom(std::string_view text, size_t begin);

}  // namespace foreshock
