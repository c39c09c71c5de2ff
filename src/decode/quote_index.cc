#include "decode/quote_index.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace foreshock {

bool QuoteIndex::Build(std::string_view text) {
  words_.assign((text.size() + 63) / 64, 0);
  const char* const bytes = text.data();
  size_t at = 0;
  unsigned refused = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  // Sixteen bytes: their quotes as bits, and whether any is refused (compared as signed
  // bytes, 0x80 and over are below a space too).
  const auto scan = [&](size_t from, unsigned* refused_bits) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + from));
    *refused_bits |= static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(chunk, space), _mm_cmpeq_epi8(chunk, backslash))));
    return static_cast<uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, quote))));
  };
  for (; at + 64 <= text.size(); at += 64) {  // a whole word at once
    words_[at / 64] = scan(at, &refused) | scan(at + 16, &refused) << 16 | scan(at + 32, &refused) << 32 |
                      scan(at + 48, &refused) << 48;
  }
  for (; at + 16 <= text.size(); at += 16) {
    words_[at / 64] |= scan(at, &refused) << (at % 64);  // at % 64 is 0, 16, 32 or 48: it fits the word
  }
#endif
  // The last bytes (or, without SSE2, all of them).
  for (; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(bytes[at]);
    refused |= static_cast<unsigned>(byte < 0x20 || byte >= 0x80 || byte == '\\');
    if (byte == '"') words_[at / 64] |= uint64_t{1} << (at % 64);
  }
  return refused == 0;
}

}  // namespace foreshock
