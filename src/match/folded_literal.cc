#include "match/folded_literal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "match/anchor_index.h"

namespace foreshock {

FoldedLiteral::FoldedLiteral(std::string_view literal) : lowered_(AsciiLowered(literal)) {
  int best = 1 << 20;
  for (size_t i = 0; i < lowered_.size(); ++i) {
    const int commonness = Commonness(static_cast<unsigned char>(lowered_[i]));
    if (commonness < best) {
      best = commonness;
      anchor_ = i;
    }
  }
  lower_ = static_cast<unsigned char>(lowered_[anchor_]);
  upper_ = lower_ >= 'a' && lower_ <= 'z' ? static_cast<unsigned char>(lower_ - 'a' + 'A') : lower_;
}

bool FoldedLiteral::SameAt(const unsigned char* start) const {
  for (size_t k = 0; k < lowered_.size(); ++k) {
    if (kAsciiLower[start[k]] != static_cast<unsigned char>(lowered_[k])) return false;
  }
  return true;
}

bool FoldedLiteral::Contains(std::string_view text) const {
  if (text.size() < lowered_.size()) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  // Where the anchor byte may sit: a literal starting at 0 to size - length.
  size_t at = anchor_;
  const size_t end = text.size() - lowered_.size() + anchor_ + 1;
#if defined(__SSE2__)
  const __m128i lower = _mm_set1_epi8(static_cast<char>(lower_));
  const __m128i upper = _mm_set1_epi8(static_cast<char>(upper_));
  for (; end - at >= 16; at += 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at));
    auto found = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(chunk, lower), _mm_cmpeq_epi8(chunk, upper))));
    while (found != 0) {
      const size_t position = at + static_cast<size_t>(__builtin_ctz(found));
      if (SameAt(bytes + position - anchor_)) return true;
      found &= found - 1;
    }
  }
#endif
  for (; at < end; ++at) {
    if ((bytes[at] == lower_ || bytes[at] == upper_) && SameAt(bytes + at - anchor_)) return true;
  }
  return false;
}

}  // namespace foreshock
