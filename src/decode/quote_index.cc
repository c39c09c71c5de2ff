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

}  // namespace

bool QuoteIndex::ReadEscapes(std::string_view text) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  for (const char* at = begin; at < end;) {
    at = static_cast<const char*>(std::memchr(at, '\\', static_cast<size_t>(end - at)));
    if (at == nullptr) return true;
    if (end - at < 2) return false;
    size_t length = 2;
    switch (at[1]) {
      case 'n':
      case 't':
      case 'r':
        escapes_ |= kEscapedWhitespace;
        break;
      case '"': {
        // The envelope unwrapper looks for its marker keys at every quote, escaped or not: a
        // line holding one behind an escaped quote is left to it.
        if (envelope_markers::MarkersAt(std::string_view(at + 1, static_cast<size_t>(end - at - 1))) != 0) return false;
        escapes_ |= kEscapedQuote;
        const auto quote = static_cast<size_t>(at + 1 - begin);
        words_[quote / 64] &= ~(uint64_t{1} << (quote % 64));  // inside a string: not its end
        break;
      }
      case '\\':
        escapes_ |= kEscapedBackslash;
        break;
      case '/':
        escapes_ |= kEscapedSlash;
        break;
      case 'b':
      case 'f':
        escapes_ |= kEscapedControl;
        break;
      case 'u': {
        // Only a control character's: any other is a character a literal may hold (or a
        // surrogate, which the full decoder may refuse).
        if (end - at < 6) return false;
        int value = 0;
        for (int i = 2; i < 6; ++i) {
          const int digit = HexValue(at[i]);
          if (digit < 0) return false;
          value = value * 16 + digit;
        }
        if (value >= 0x20) return false;
        escapes_ |= kEscapedControl;
        length = 6;
        break;
      }
      default:
        return false;  // not JSON
    }
    at += length;
  }
  return true;
}

size_t QuoteIndex::ClosingQuote(std::string_view text, size_t at) {
#if defined(__SSE2__)
  for (; text.size() - at >= 16; at += 16) {
    unsigned control = 0;
    unsigned backslashes = 0;
    const unsigned quotes = ScanSixteen(text.data() + at, &control, &backslashes);
    const unsigned refused = control | backslashes;
    if ((quotes | refused) == 0) continue;
    const auto first = static_cast<unsigned>(__builtin_ctz(quotes | refused));
    return (refused >> first & 1) != 0 ? kNone : at + first;
  }
#endif
  for (; at < text.size(); ++at) {
    if (text[at] == '"') return at;
    if (Refuses(static_cast<unsigned char>(text[at]))) return kNone;
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
