#pragma once

// Where a value a shape takes out begins and ends. A shape (see record_shape.h) reads a text
// as pieces: the bytes between those that end one (TemplateOf()'s separators, a backslash, a
// line break, or kShapeMarkByte). PieceAround() finds the piece around a byte, PieceFrom()
// the piece that begins at one. Pure functions, thread-safe.

#include <cstddef>
#include <string_view>

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

// The piece of `text` that holds its byte at `at` (which must not end a piece).
Piece PieceAround(std::string_view text, size_t at);
// The piece of `text` that begins at `begin` (0, or just after a byte that ends a piece; the
// byte at `begin` must not end one), sixteen bytes a step where SSE2 is.
Piece PieceFrom(std::string_view text, size_t begin);

}  // namespace foreshock
