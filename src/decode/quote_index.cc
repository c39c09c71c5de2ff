#include "decode/quote_index.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstring>

#include "framing/envelope.h"

namespace foreshock {
namespace {

#if defined(__x86_64__)
// The whole 64-byte words of `text`, 32 bytes at a time, on machines with AVX2:
// returns the bytes indexed, and ORs into *refused whether any of them is a control byte
// or of 0x80 and over, into *backslashes whether any is a backslash.
__attribute__((target("avx2"))) size_t IndexWordsAvx2(std::string_view text, uint64_t* words, unsigned* refused,
                                                      unsigned* backslashes) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i space = _mm256_set1_epi8(0x20);
  __m256i refused_bytes = _mm256_setzero_si256();
  __m256i backslash_bytes = _mm256_setzero_si256();
  size_t at = 0;
  for (; at + 64 <= text.size(); at += 64) {
    // Each half: its quotes as bits; its refused bytes (compared as signed bytes, 0x80 and
    // over are below a space too) marked in refused_bytes. (A lambda would not be compiled
    // for AVX2: GCC does not pass the target attribute on to it.)
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text.data() + at));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text.data() + at + 32));
    refused_bytes = _mm256_or_si256(refused_bytes, _mm256_cmpgt_epi8(space, low));
    backslash_bytes = _mm256_or_si256(backslash_bytes, _mm256_cmpeq_epi8(low, backslash));
    refused_bytes = _mm256_or_si256(refused_bytes, _mm256_cmpgt_epi8(space, high));
    backslash_bytes = _mm256_or_si256(backslash_bytes, _mm256_cmpeq_epi8(high, backslash));
    const auto low_quotes = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, quote)));
    const auto high_quotes = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, quote)));
    words[at / 64] = uint64_t{high_quotes} << 32 | low_quotes;
  }
  *refused |= static_cast<unsigned>(_mm256_movemask_epi8(refused_bytes));
  *backslashes |= static_cast<unsigned>(_mm256_movemask_epi8(backslash_bytes));
  return at;
}

#endif

#if defined(__SSE2__)
// Sixteen bytes at `from`: their quotes as bits; in *refused_bits those of them that are
// control bytes or of 0x80 and over (compared as signed bytes, those are below a space
// too), in *backslash_bits the backslashes.
unsigned ScanSixteen(const char* from, unsigned* refused_bits, unsigned* backslash_bits) {
  const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
  *refused_bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20))));
  *backslash_bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8('\\'))));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8('"'))));
}
#endif

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads the escape that begins at `at` (a backslash; `end`: the text's) into *escapes: its
// length, or 0 when the walk refuses it (see QuoteIndex).
size_t ReadEscape(const char* at, const char* end, uint8_t* escapes) {
  if (end - at < 2) return 0;
  switch (at[1]) {
    case 'n':
    case 't':
    case 'r':
      *escapes |= kEscapedWhitespace;
      return 2;
    case '"':
      // The envelope unwrapper looks for its marker keys at every quote, escaped or not: a
      // line holding one behind an escaped quote is left to it.
      if (envelope_markers::MarkersAt(std::string_view(at + 1, static_cast<size_t>(end - at - 1))) != 0) return 0;
      *escapes |= kEscapedQuote;
      return 2;
    case '\\':
      *escapes |= kEscapedBackslash;
      return 2;
    case '/':
      *escapes |= kEscapedSlash;
      return 2;
    case 'b':
    case 'f':
      *escapes |= kEscapedControl;
      return 2;
    case 'u': {
      // Only a control character's: any other is a character a literal may hold (or a
      // surrogate, which the full decoder may refuse).
      if (end - at < 6) return 0;
      int value = 0;
      for (int i = 2; i < 6; ++i) {
        const int digit = HexValue(at[i]);
        if (digit < 0) return 0;
        value = value * 16 + digit;
      }
      if (value >= 0x20) return 0;
      *escapes |= kEscapedControl;
      return 6;
    }
    default:
      return 0;  // not JSON
  }
}

}  // namespace

bool QuoteIndex::ReadEscapes(std::string_view text) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  for (const char* at = begin; at < end;) {
    at = static_cast<const char*>(std::memchr(at, '\\', static_cast<size_t>(end - at)));
    if (at == nullptr) return true;
    const size_t length = ReadEscape(at, end, &escapes_);
    if (length == 0) return false;
    if (at[1] == '"') {
      const auto quote = static_cast<size_t>(at + 1 - begin);
      words_[quote / 64] &= ~(uint64_t{1} << (quote % 64));  // inside a string: not its end
    }
    at += length;
  }
  return true;
}

size_t QuoteIndex::ClosingQuote(std::string_view text, size_t at, uint8_t* escapes) {
  const char* const end = text.data() + text.size();
  // Past an escape when it is read: how far, or 0 when it is refused.
  const auto escape_at = [&](size_t backslash) -> size_t {
    return escapes == nullptr ? 0 : ReadEscape(text.data() + backslash, end, escapes);
  };
#if defined(__SSE2__)
  while (text.size() - at >= 16) {
    unsigned control = 0;
    unsigned backslashes = 0;
    const unsigned quotes = ScanSixteen(text.data() + at, &control, &backslashes);
    const unsigned stops = quotes | control | backslashes;
    if (stops == 0) {
      at += 16;
      continue;
    }
    const auto first = static_cast<unsigned>(__builtin_ctz(stops));
    if ((quotes >> first & 1) != 0) return at + first;
    if ((control >> first & 1) != 0) return kNone;
    const size_t length = escape_at(at + first);
    if (length == 0) return kNone;
    at += first + length;
  }
#endif
  while (at < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte == '"') return at;
    if (byte != '\\' && Refuses(byte)) return kNone;
    if (byte == '\\') {
      const size_t length = escape_at(at);
      if (length == 0) return kNone;
      at += length;
      continue;
    }
    ++at;
  }
  return kNone;
}

#if defined(__x86_64__)
QuoteIndex::QuoteIndex(Vectors vectors) : avx2_(vectors == Vectors::kWidest && __builtin_cpu_supports("avx2")) {}
#else
QuoteIndex::QuoteIndex(Vectors /*vectors*/) : avx2_(false) {}
#endif

bool QuoteIndex::Build(std::string_view text) {
  words_.assign((text.size() + 63) / 64, 0);
  const char* const bytes = text.data();
  size_t at = 0;
  unsigned refused = 0;
  unsigned backslashes = 0;
#if defined(__x86_64__)
  if (avx2_) at = IndexWordsAvx2(text, words_.data(), &refused, &backslashes);
#endif
#if defined(__SSE2__)
  const auto scan = [&](size_t from) {
    unsigned refused_here = 0;
    unsigned backslashes_here = 0;
    const uint64_t quotes = ScanSixteen(bytes + from, &refused_here, &backslashes_here);
    refused |= refused_here;
    backslashes |= backslashes_here;
    return quotes;
  };
  for (; at + 64 <= text.size(); at += 64) {  // a whole word at once
    words_[at / 64] = scan(at) | scan(at + 16) << 16 | scan(at + 32) << 32 | scan(at + 48) << 48;
  }
  for (; at + 16 <= text.size(); at += 16) {
    words_[at / 64] |= scan(at) << (at % 64);  // at % 64 is 0, 16, 32 or 48: it fits the word
  }
#endif
  // The last bytes (or, without SSE2, all of them).
  for (; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(bytes[at]);
    refused |= static_cast<unsigned>(byte < 0x20 || byte >= 0x80);
    backslashes |= static_cast<unsigned>(byte == '\\');
    if (byte == '"') words_[at / 64] |= uint64_t{1} << (at % 64);
  }
  escapes_ = 0;
  return refused == 0 && (backslashes == 0 || ReadEscapes(text));
}

}  // namespace foreshock
