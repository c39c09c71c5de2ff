#include "learn/shape_piece.h"

#include <bit>
#include <cstdint>

namespace foreshock {
namespace {

using namespace shape_piece_internal;

#if defined(__SSE2__)
// The bytes of a block that end a piece, a bit each (bit i for byte i): compares by value,
// and by range where a range's bytes all end one.
unsigned PieceEndsIn(__m128i bytes) {
  const auto is = [bytes](char c) { return _mm_cmpeq_epi8(bytes, _mm_set1_epi8(c)); };
  const auto within = [bytes](char low, char high) {  // low <= byte <= high, as unsigned bytes
    const __m128i above_low = _mm_sub_epi8(bytes, _mm_set1_epi8(low));
    return _mm_cmpeq_epi8(_mm_min_epu8(above_low, _mm_set1_epi8(static_cast<char>(high - low))), above_low);
  };
  const __m128i controls = _mm_or_si128(_mm_or_si128(within('\t', '\n'), is('\r')), is(kShapeMarkByte));
  const __m128i quotes = _mm_or_si128(_mm_or_si128(is(' '), is('"')), _mm_or_si128(within('\'', ')'), is(',')));
  const __m128i brackets = _mm_or_si128(_mm_or_si128(within(';', '>'), within('[', ']')), within('{', '}'));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(controls, quotes), brackets)));
}
#endif

}  // namespace

Piece PieceFrom(std::string_view text, size_t begin) {
  Piece piece{begin, begin, false, false};
#if defined(__SSE2__)
  while (text.size() - piece.end >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + piece.end));
    const unsigned ends = PieceEndsIn(bytes);
    // The block's bytes before the first that ends a piece (all, when none does).
    const unsigned within = ends == 0 ? 0xffffu : (1u << std::countr_zero(ends)) - 1;
    piece.digit |= (static_cast<unsigned>(_mm_movemask_epi8(DigitBytes(bytes))) & within) != 0;
    piece.capital_e |= (static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('E')))) & within) != 0;
    if (ends != 0) {
      piece.end += static_cast<size_t>(std::countr_zero(ends));
      return piece;
    }
    piece.end += 16;
  }
#endif
  uint8_t kinds = 0;
  while (piece.end < text.size() && (kKinds[static_cast<unsigned char>(text[piece.end])] & kEnds) == 0) {
    kinds |= kKinds[static_cast<unsigned char>(text[piece.end++])];
  }
  piece.digit |= (kinds & kDigit) != 0;
  piece.capital_e |= (kinds & kCapitalE) != 0;
  return piece;
}

}  // namespace foreshock
