#include "learn/record_shape.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/fnv1a.h"
#include "base/same_bytes.h"
#include "learn/shape_piece.h"

namespace foreshock {
namespace {

// In a shape's text, a piece that holds a digit and does not name a class is kMark. A
// kShapeMarkByte of the text itself is written as kLiteralMarkByte: no text reads as
// another's marks. The level, logger and dataset end with kHeadEnd, each part with kPartEnd.
constexpr std::string_view kMark = "\x01\x03";
constexpr std::string_view kLiteralMarkByte = "\x01\x02";
static_assert(kMark[0] == kShapeMarkByte && kLiteralMarkByte[0] == kShapeMarkByte);
constexpr char kHeadEnd = '\x1f';
constexpr char kPartEnd = '\x1e';

// Whether a piece holding a digit may name a class with it ("Http2Exception"): the only
// digits ExceptionClassesIn() reads are in names ending "Exception" or "Error".
bool MayNameClass(std::string_view piece) {
  return piece.find("Exception") != std::string_view::npos || piece.find("Error") != std::string_view::npos;
}

// A shape's hash: sixteen bytes a step, each pair of words folded by a 128-bit product (as
// wyhash does). Shapes are memo keys, never kept: it need not be stable across versions.
__extension__ typedef unsigned __int128 Wide;  // GCC's and Clang's
uint64_t Fold(uint64_t a, uint64_t b) {
  const Wide product = static_cast<Wide>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}
uint64_t Word(const char* at) {
  uint64_t word;
  std::memcpy(&word, at, 8);
  return word;
}
uint32_t HalfWord(const char* at) {
  uint32_t word;
  std::memcpy(&word, at, 4);
  return word;
}
uint64_t ShapeHash(std::string_view bytes) {
  constexpr uint64_t kOdd1 = 0xa0761d6478bd642fULL;
  constexpr uint64_t kOdd2 = 0xe7037ed1a0b428dbULL;
  const char* at = bytes.data();
  const char* const end = at + bytes.size();
  uint64_t hash = kFnv1aBasis ^ Fold(bytes.size() ^ kOdd1, kOdd2);
  if (end - at > 64) {
    // Two chains, thirty-two bytes a step: neither waits for the other's product.
    uint64_t other = hash ^ kOdd2;
    for (; end - at > 32; at += 32) {
      hash = Fold(Word(at) ^ kOdd1 ^ hash, Word(at + 8) ^ kOdd2);
      other = Fold(Word(at + 16) ^ kOdd1 ^ other, Word(at + 24) ^ kOdd2);
    }
    hash = Fold(hash ^ kOdd1, other ^ kOdd2);
  }
  for (; end - at > 16; at += 16) hash = Fold(Word(at) ^ kOdd1 ^ hash, Word(at + 8) ^ kOdd2);
  // The last bytes, read whole words where they may overlap those read (the size is in).
  uint64_t a = 0;
  uint64_t b = 0;
  if (bytes.size() >= 16) {
    a = Word(end - 16);
    b = Word(end - 8);
  } else if (bytes.size() >= 8) {
    a = Word(at);
    b = Word(end - 8);
  } else if (bytes.size() >= 4) {
    a = HalfWord(at);
    b = HalfWord(end - 4);
  } else if (!bytes.empty()) {
    a = uint64_t{static_cast<unsigned char>(at[0])} << 16 |
        uint64_t{static_cast<unsigned char>(at[bytes.size() / 2])} << 8 | static_cast<unsigned char>(end[-1]);
  }
  return Fold(a ^ kOdd1 ^ hash, b ^ kOdd2);
}

// Copies `bytes` to `to`, returning where they end there: a word a step, the last word
// overlapping those before (memcpy() of a size known only at run time is a call, and
// branches on the size).
char* CopyBytes(std::string_view bytes, char* to) {
  const char* const from = bytes.data();
  const size_t size = bytes.size();
  if (size >= 8) {
    for (size_t i = 0; i + 8 < size; i += 8) std::memcpy(to + i, from + i, 8);
    std::memcpy(to + size - 8, from + size - 8, 8);
  } else if (size >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + size - 4, from + size - 4, 4);
  } else {
    for (size_t i = 0; i < size; ++i) to[i] = from[i];
  }
  return to + size;
}

// Whether `a` and `b` have the same size and bytes, but for digits where both have one.
bool SameButDigits(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const auto same_or_digits = [](char x, char y) { return x == y || (IsDigit(x) && IsDigit(y)); };
#if defined(__SSE2__)
  if (a.size() >= 16) {
    // Most blocks are the same byte for byte: digits are looked at only in those that are not.
    const auto block_same = [&](size_t at) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + at));
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + at));
      const __m128i equal = _mm_cmpeq_epi8(x, y);
      if (_mm_movemask_epi8(equal) == 0xffff) return true;
      const __m128i same = _mm_or_si128(equal, _mm_and_si128(DigitBytes(x), DigitBytes(y)));
      return _mm_movemask_epi8(same) == 0xffff;
    };
    size_t at = 0;
    for (; at + 32 <= a.size(); at += 32) {
      // Two blocks a step, told equal by one test.
      const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + at));
      const __m128i y0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + at));
      const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + at + 16));
      const __m128i y1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + at + 16));
      if (_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x0, y0), _mm_cmpeq_epi8(x1, y1))) == 0xffff) continue;
      if (!block_same(at) || !block_same(at + 16)) return false;
    }
    if (at + 16 <= a.size()) {
      if (!block_same(at)) return false;
      at += 16;
    }
    return at == a.size() || block_same(a.size() - 16);  // the last bytes, overlapping
  }
#endif
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same_or_digits(a[i], b[i])) return false;
  }
  return true;
}

// Room a part of `size` bytes may take in a shape's text (each byte a mark, at worst), with
// the whole blocks written past them.
constexpr size_t ShapeTextRoom(size_t size) { return 2 * size + 16; }

// Writes `part` at `to` as a shape's text, returning where it ends. Most words of a message
// hold no digit (nor kShapeMarkByte) and are copied at once; where one does, its piece is
// looked at. Where `spans` is given, the places of the values taken out go there, and whether
// a piece holding a digit was kept (naming a class) to *kept_digits.
char* AppendShapeText(std::string_view part, char* to, size_t part_index = 0,
                      std::vector<ShapeMemo::ValueSpan>* spans = nullptr, bool* kept_digits = nullptr) {
  const char* const begin = part.data();
  const char* const end = begin + part.size();
  const char* at = begin;
  while (at < end) {
#if defined(__SSE2__)
    if (end - at >= 16) {
      // Sixteen bytes a step: digits and kShapeMarkByte.
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      const __m128i marks = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(kShapeMarkByte));
      const unsigned flagged = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(DigitBytes(bytes), marks)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to), bytes);
      if (flagged == 0) {
        to += 16;
        at += 16;
        continue;
      }
      const size_t before = static_cast<size_t>(std::countr_zero(flagged));
      to += before;
      at += before;
    } else
#endif
    if (end - at >= 8) {
      // Bytes that are digits, or kShapeMarkByte; the lowest flagged is one (a borrow only
      // flags bytes above a true one).
      const uint64_t word = Word(at);
      const uint64_t digits = word ^ 0x3030303030303030ULL;  // a digit's byte becomes 0..9
      const uint64_t marks = word ^ 0x0101010101010101ULL;   // kShapeMarkByte's becomes 0
      const uint64_t flagged =
          (((digits - 0x0A0A0A0A0A0A0A0AULL) & ~digits) | ((marks - 0x0101010101010101ULL) & ~marks)) &
          0x8080808080808080ULL;
      std::memcpy(to, at, 8);
      if (flagged == 0) {
        to += 8;
        at += 8;
        continue;
      }
      const size_t before = static_cast<size_t>(std::countr_zero(flagged)) / 8;
      to += before;
      at += before;
    } else if (!IsDigit(*at) && *at != kShapeMarkByte) {
      *to++ = *at++;
      continue;
    }
    if (*at == kShapeMarkByte) {
      std::memcpy(to, kLiteralMarkByte.data(), kLiteralMarkByte.size());
      to += kLiteralMarkByte.size();
      ++at;
      continue;
    }
    // A digit: its piece began after the last byte ending one before it (copied as it is,
    // holding no digit, since the last piece looked at ended before it).
    const Piece piece = PieceAround(part, static_cast<size_t>(at - begin));
    const std::string_view text = part.substr(piece.begin, piece.end - piece.begin);
    to -= static_cast<size_t>(at - begin) - piece.begin;
    if (piece.capital_e && MayNameClass(text)) {
      to = CopyBytes(text, to);
      if (spans != nullptr) *kept_digits = true;
    } else {
      std::memcpy(to, kMark.data(), kMark.size());
      to += kMark.size();
      if (spans != nullptr) spans->push_back({part_index, piece.begin, piece.end});
    }
    at = begin + piece.end;
  }
  return to;
}

// A shape's text, written into a buffer of the thread's that only grows (no byte of it is
// cleared for a line). The values' places go to `spans`, if given (see AppendShapeText()).
std::string_view WriteShapeText(Level level, std::string_view logger, std::string_view dataset,
                                std::span<const std::string_view> parts,
                                std::vector<ShapeMemo::ValueSpan>* spans = nullptr, bool* kept_digits = nullptr) {
  thread_local std::string buffer;
  size_t room = 3 + logger.size() + dataset.size();
  for (std::string_view part : parts) room += ShapeTextRoom(part.size()) + 1;
  if (buffer.size() < room) buffer.resize(room);
  char* const first = buffer.data();
  char* to = first;
  *to++ = static_cast<char>(level);
  to = CopyBytes(logger, to);
  *to++ = kHeadEnd;
  to = CopyBytes(dataset, to);
  *to++ = kHeadEnd;
  for (size_t i = 0; i < parts.size(); ++i) {
    to = AppendShapeText(parts[i], to, i, spans, kept_digits);
    *to++ = kPartEnd;
  }
  return std::string_view(first, static_cast<size_t>(to - first));
}

}  // namespace

uint64_t ShapeValues(std::span<const std::string_view> parts) {
  // Within one shape only the values taken out differ: the parts as they stand tell records
  // apart as their values would.
  uint64_t hash = kFnv1aBasis;
  for (std::string_view part : parts) hash = Fold(hash ^ ShapeHash(part), 0x9E3779B97F4A7C15ULL);
  return hash;
}

RecordShape ShapeOf(Level level, std::string_view logger, std::string_view dataset,
                    std::span<const std::string_view> parts) {
  return {ShapeHash(WriteShapeText(level, logger, dataset, parts)), ShapeValues(parts)};
}

RecordShape ShapeOf(const LogRecord& record) {
  const std::string_view text = record.text;
  const std::string_view parts[] = {text.substr(0, record.message_length), text.substr(record.message_length)};
  return ShapeOf(record.level, record.logger, record.dataset, parts);
}

uint64_t ShapeMemo::IdOf(const RecordHeader& header) {
  size_t bytes = header.logger.size() + header.dataset.size();
  for (std::string_view part : header.searchable()) bytes += part.size();
  if (bytes > kMaxRememberedBytes) return foreshock::ShapeOf(header).id;
  Slot& slot = slots_[(static_cast<size_t>(header.level) * 31 + header.logger.size() * 7 + header.dataset.size() +
                       header.part_count) %
                      kSlots];
  if (slot.misses >= kMissesBeforeRest && ++slot.since_tried < kRest) return foreshock::ShapeOf(header).id;
  slot.since_tried = 0;
  for (const size_t at : {slot.last, 1 - slot.last}) {
    if (slot.shapes[at].used && ShapedAs(slot.shapes[at], header)) {
      slot.misses = 0;
      slot.last = at;
      return slot.shapes[at].id;
    }
  }
  ++slot.misses;
  slot.last = 1 - slot.last;  // the one read against longest ago
  Remembered& shape = slot.shapes[slot.last];
  shape.values.clear();
  shape.kept_digits = false;
  const std::string_view text = WriteShapeText(header.level, header.logger, header.dataset, header.searchable(),
                                                &shape.values, &shape.kept_digits);
  shape.level = header.level;
  shape.logger.assign(header.logger);
  shape.dataset.assign(header.dataset);
  for (size_t i = 0; i < header.part_count; ++i) shape.parts[i].assign(header.parts[i]);
  shape.part_count = header.part_count;
  shape.id = ShapeHash(text);
  shape.used = true;
  return shape.id;
}

bool ShapeMemo::ShapedAs(const Remembered& remembered, const RecordHeader& header) {
  // The record is read against the remembered one. Where their bytes are the same, so are
  // their pieces, and so what their shapes make of them. Where they differ, the difference
  // must lie in (or just after) a value the remembered record took out, and the record's
  // piece there must hold a digit and name no class: its shape takes it out too. Reading
  // then goes on after both pieces.
  if (header.level != remembered.level || header.part_count != remembered.part_count ||
      header.logger.size() != remembered.logger.size() || header.dataset.size() != remembered.dataset.size() ||
      !SameBytes(header.logger.data(), remembered.logger.data(), header.logger.size()) ||
      !SameBytes(header.dataset.data(), remembered.dataset.data(), header.dataset.size())) {
    return false;
  }
  // Where the record differs only in digits, and only values hold them, it is of the shape.
  bool same_but_digits = !remembered.kept_digits;
  for (size_t i = 0; i < header.part_count && same_but_digits; ++i) {
    same_but_digits = SameButDigits(header.parts[i], remembered.parts[i]);
  }
  if (same_but_digits) return true;
  const ValueSpan* span = remembered.values.data();
  const ValueSpan* const spans_end = span + remembered.values.size();
  for (size_t i = 0; i < header.part_count; ++i) {
    const std::string_view part = header.parts[i];
    const std::string_view old = remembered.parts[i];
    size_t old_at = 0;
    size_t at = 0;
    while (true) {
      const size_t common = std::min(old.size() - old_at, part.size() - at);
      const size_t same = FirstDifference(old.data() + old_at, part.data() + at, common);
      const bool ended = same == common && old.size() - old_at == part.size() - at;
      const size_t old_differs = old_at + same;
      // Values wholly before the difference are the record's too.
      while (span != spans_end && span->part == i && (ended || span->end < old_differs)) ++span;
      if (ended) break;
      if (span == spans_end || span->part != i || span->begin > old_differs) return false;
      const size_t begin = span->begin - old_at + at;
      if (begin == part.size() || EndsPiece(part[begin])) return false;
      // Most often both pieces hold only digits from the difference on (a line number, a
      // port): then they hold the same letters, and the record's, as the remembered one,
      // names no class and holds a digit. Otherwise its piece is read whole.
      size_t end = at + same;
      size_t old_end = old_differs;
      while (old_end < span->end && IsDigit(old[old_end])) ++old_end;
      while (end < part.size() && IsDigit(part[end])) ++end;
      if (old_end != span->end || end == at + same || (end < part.size() && !EndsPiece(part[end]))) {
        const Piece piece = PieceFrom(part, begin);
        if (!piece.digit || (piece.capital_e && MayNameClass(part.substr(begin, piece.end - begin)))) return false;
        end = piece.end;
      }
      old_at = span->end;
      at = end;
      ++span;
    }
  }
  return true;
}

}  // namespace foreshock
