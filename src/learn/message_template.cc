#include "learn/message_template.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/fnv1a.h"

namespace foreshock {
namespace {

constexpr std::string_view kMask = "<*>";
// Messages longer than this are templated on their head: the rest is values (a query, a
// mapping) more often than words.
constexpr size_t kMaxMessageBytes = 1024;

constexpr bool IsSeparator(char c) {
  switch (c) {
    case ' ': case '\t': case '[': case ']': case '(': case ')': case '{': case '}': case ',': case ';':
    case '"': case '\'': case '=': case '<': case '>': case '|':
      return true;
    default:
      return false;
  }
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }

// An id ES or a client generated: long, made of id characters, mixed case past its first.
bool LooksLikeId(std::string_view token) {
  if (token.size() < 16) return false;
  bool upper = false;
  bool lower = false;
  for (size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    if (!(IsUpper(c) || IsLower(c) || IsDigit(c) || c == '_' || c == '-')) return false;
    if (i > 0) {
      upper = upper || IsUpper(c);
      lower = lower || IsLower(c);
    }
  }
  return upper && lower;
}

bool IsValue(std::string_view token, char before, std::string_view node, std::string_view cluster) {
  if (before == '=') return true;
  if (std::any_of(token.begin(), token.end(), IsDigit)) return true;
  if (token.front() == '/' || token.starts_with("~/")) return true;  // a path
  if (!node.empty() && token == node) return true;
  if (!cluster.empty() && token == cluster) return true;
  return LooksLikeId(token);
}

// The end of the group opening at text[at] (`open`), or npos when it does not close on this
// line without nesting.
size_t GroupEnd(std::string_view text, size_t at, char open, char close) {
  for (size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == close) return i;
    if (text[i] == open) return std::string_view::npos;
  }
  return std::string_view::npos;
}

// Where a run of three or more `{…}` groups starting at `at` ends (a node descriptor), or
// `at` when there is none.
size_t NodeDescriptorEnd(std::string_view text, size_t at) {
  size_t end = at;
  int groups = 0;
  while (end < text.size() && text[end] == '{') {
    const size_t close = GroupEnd(text, end, '{', '}');
    if (close == std::string_view::npos) break;
    end = close + 1;
    ++groups;
  }
  return groups >= 3 ? end : at;
}

// A setting's name ("search.max_open_scroll_context"): lowercase dotted words, the one
// kind of bracketed text that is not a value.
bool IsSettingName(std::string_view text) {
  bool dot = false;
  for (char c : text) {
    if (c == '.') {
      dot = true;
    } else if (!(IsLower(c) || c == '_')) {
      return false;
    }
  }
  return dot && text.front() != '.' && text.back() != '.';
}

void AppendMask(std::string* out) {
  // Adjacent values ("10.0.0.3:9300/abc" cut at no separator) read as one.
  if (!out->ends_with(kMask)) out->append(kMask);
}

// "circuit_breaking_exception" -> "CircuitBreakingException".
std::string CamelCase(std::string_view snake) {
  std::string camel;
  bool up = true;
  for (char c : snake) {
    if (c == '_') {
      up = true;
      continue;
    }
    camel.push_back(up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    up = false;
  }
  return camel;
}

bool IsNameChar(char c) { return IsUpper(c) || IsLower(c) || IsDigit(c) || c == '_' || c == '$' || c == '.'; }

// The class a dotted name ends in, when it is one: "org.x.FooException" -> "FooException".
std::string ClassOf(std::string_view name) {
  while (!name.empty() && name.back() == '.') name.remove_suffix(1);
  const size_t dot = name.rfind('.');
  const std::string_view simple = dot == std::string_view::npos ? name : name.substr(dot + 1);
  for (std::string_view suffix : {std::string_view("Exception"), std::string_view("Error")}) {
    // A bare "Error" or "Exception" is a word, unless a package names it a class.
    const bool bare = simple.size() == suffix.size() && dot == std::string_view::npos;
    if (simple.size() >= suffix.size() && simple.ends_with(suffix) && IsUpper(simple.front()) && !bare) {
      return std::string(simple);
    }
  }
  for (std::string_view suffix : {std::string_view("_exception"), std::string_view("_error")}) {
    if (simple.size() > suffix.size() && simple.ends_with(suffix) && IsLower(simple.front()) &&
        std::all_of(simple.begin(), simple.end(), [](char c) { return IsLower(c) || c == '_'; })) {
      return CamelCase(simple);
    }
  }
  return {};
}

// A stack frame ("\tat org.x.Y.z(Y.java:12)") or its elision ("... 12 more"): no class it
// names is news.
bool IsFrame(std::string_view line) {
  size_t at = 0;
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  line.remove_prefix(at);
  return line.starts_with("at ") || line.starts_with("...");
}

}  // namespace

std::string TemplateOf(std::string_view message, std::string_view node, std::string_view cluster) {
  message = message.substr(0, std::min(message.find('\n'), kMaxMessageBytes));
  std::string out;
  out.reserve(std::min(message.size(), kMaxTemplateBytes) + 8);
  char before = ' ';
  size_t i = 0;
  while (i < message.size() && out.size() < kMaxTemplateBytes) {
    const char c = message[i];
    if (c == '{') {
      if (const size_t end = NodeDescriptorEnd(message, i); end != i) {
        out.append("{").append(kMask).append("}");
        i = end;
        before = '}';
        continue;
      }
    }
    if (c == '[') {
      // ES brackets what it fills in: an index, a shard, a size, a node, a module.
      const size_t close = GroupEnd(message, i, '[', ']');
      if (close != std::string_view::npos && close > i + 1) {
        const std::string_view inside = message.substr(i + 1, close - i - 1);
        out.push_back('[');
        if (IsSettingName(inside)) {
          out.append(inside);
        } else {
          out.append(kMask);
        }
        out.push_back(']');
        i = close + 1;
        before = ']';
        continue;
      }
    }
    if (IsSeparator(c)) {
      out.push_back(c);
      before = c;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() && !IsSeparator(message[end])) ++end;
    const std::string_view token = message.substr(i, end - i);
    if (IsValue(token, before, node, cluster)) {
      AppendMask(&out);
    } else {
      out.append(token);
    }
    before = 'a';
    i = end;
  }
  if (out.size() > kMaxTemplateBytes) out.resize(kMaxTemplateBytes);
  return out;
}

namespace {

// A shape's text is the record's with each value taken out: a piece (bytes between
// separators, as TemplateOf() tells them, or a backslash: no escape spans two pieces) that
// holds a digit and does not name a class becomes kMark. A \x01 of the text itself is a
// separator written as kLiteralMarkByte: no text reads as another's marks.
constexpr char kMarkByte = '\x01';
constexpr std::string_view kMark = "\x01\x03";
constexpr std::string_view kLiteralMarkByte = "\x01\x02";

constexpr std::array<bool, 256> kEndsPiece = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[static_cast<size_t>(c)] =
        IsSeparator(static_cast<char>(c)) || c == '\\' || c == '\n' || c == '\r' || c == kMarkByte;
  }
  return table;
}();
bool EndsPiece(char c) { return kEndsPiece[static_cast<unsigned char>(c)]; }

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
uint64_t ShapeHash(std::string_view bytes, uint64_t seed) {
  constexpr uint64_t kOdd1 = 0xa0761d6478bd642fULL;
  constexpr uint64_t kOdd2 = 0xe7037ed1a0b428dbULL;
  const char* at = bytes.data();
  size_t left = bytes.size();
  uint64_t hash = seed ^ Fold(left ^ kOdd1, kOdd2);
  for (; left >= 16; at += 16, left -= 16) {
    uint64_t a;
    uint64_t b;
    std::memcpy(&a, at, 8);
    std::memcpy(&b, at + 8, 8);
    hash = Fold(a ^ kOdd1 ^ hash, b ^ kOdd2);
  }
  uint64_t a = 0;
  uint64_t b = 0;
  if (left > 0) std::memcpy(&a, at, std::min<size_t>(left, 8));
  if (left > 8) std::memcpy(&b, at + 8, left - 8);
  return Fold(a ^ kOdd1 ^ hash, b ^ kOdd2 ^ left);
}

// Room AppendShapeText() may write in for a part of `size` bytes: marks, and whole blocks.
constexpr size_t ShapeTextRoom(size_t size) { return 2 * size + 16; }

// Writes `part` at `to` as a shape's text (see above), returning where it ends; the pieces
// taken out go into *values. Most words of a message hold no digit (nor kMarkByte) and are
// copied at once; where one does, its piece is looked at.
char* AppendShapeText(std::string_view part, char* to, uint64_t* values) {
  const char* const begin = part.data();
  const char* const end = begin + part.size();
  const char* at = begin;
  while (at < end) {
#if defined(__SSE2__)
    if (end - at >= 16) {
      // Sixteen bytes a step: digits (signed compares: bytes past 0x7f are negative) and
      // kMarkByte.
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      const __m128i digits = _mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8('0' - 1)),
                                           _mm_cmplt_epi8(bytes, _mm_set1_epi8('9' + 1)));
      const __m128i marks = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(kMarkByte));
      const unsigned flagged = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(digits, marks)));
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
      uint64_t word;
      std::memcpy(&word, at, 8);
      // Bytes that are digits, or kMarkByte; the lowest flagged is one (a borrow only flags
      // bytes above a true one).
      const uint64_t digits = word ^ 0x3030303030303030ULL;  // a digit's byte becomes 0..9
      const uint64_t marks = word ^ 0x0101010101010101ULL;   // kMarkByte's becomes 0
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
    } else if (!IsDigit(*at) && *at != kMarkByte) {
      *to++ = *at++;
      continue;
    }
    if (*at == kMarkByte) {
      std::memcpy(to, kLiteralMarkByte.data(), kLiteralMarkByte.size());
      to += kLiteralMarkByte.size();
      ++at;
      continue;
    }
    // A digit: its piece began where the last separator before it ends (copied as it is,
    // holding no digit, since the last piece looked at ended before it).
    // Most pieces hold no 'E' (an address, a size, an id): none of those may name a class.
    bool capital_e = false;
    const char* piece = at;
    while (piece > begin && !EndsPiece(piece[-1])) capital_e |= *--piece == 'E';
    const char* piece_end = at + 1;
    while (piece_end < end && !EndsPiece(*piece_end)) capital_e |= *piece_end++ == 'E';
    const std::string_view text(piece, static_cast<size_t>(piece_end - piece));
    to -= at - piece;
    if (capital_e && MayNameClass(text)) {
      std::memcpy(to, piece, text.size());
      to += text.size();
    } else {
      std::memcpy(to, kMark.data(), kMark.size());
      to += kMark.size();
      *values = ShapeHash(text, *values);
    }
    at = piece_end;
  }
  return to;
}

}  // namespace

RecordShape ShapeOf(Level level, std::string_view logger, std::string_view dataset,
                    std::span<const std::string_view> parts) {
  // Level, logger and dataset as they stand (a digit there is not a value), then each part
  // as a shape's text, hashed a word a step. The buffer only grows: no byte of it is
  // cleared for a line.
  thread_local std::string buffer;
  size_t room = 3 + logger.size() + dataset.size();
  for (std::string_view part : parts) room += ShapeTextRoom(part.size()) + 1;
  if (buffer.size() < room) buffer.resize(room);
  char* const first = buffer.data();
  char* to = first;
  const auto put = [&](std::string_view bytes) {
    if (bytes.empty()) return;  // its data() may be null
    std::memcpy(to, bytes.data(), bytes.size());
    to += bytes.size();
  };
  *to++ = static_cast<char>(level);
  put(logger);
  *to++ = '\x1f';
  put(dataset);
  *to++ = '\x1f';
  RecordShape shape;
  shape.values = kFnv1aBasis;
  for (std::string_view part : parts) {
    to = AppendShapeText(part, to, &shape.values);
    *to++ = '\x1e';
  }
  shape.id = ShapeHash(std::string_view(first, static_cast<size_t>(to - first)), kFnv1aBasis);
  return shape;
}

RecordShape ShapeOf(const LogRecord& record) {
  const std::string_view text = record.text;
  const std::string_view parts[] = {text.substr(0, record.message_length), text.substr(record.message_length)};
  return ShapeOf(record.level, record.logger, record.dataset, parts);
}

std::vector<std::string> ExceptionClassesIn(std::string_view text) {
  std::vector<std::string> classes;
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (IsFrame(line)) continue;
    size_t i = 0;
    while (i < line.size()) {
      if (!IsNameChar(line[i]) || IsDigit(line[i]) || line[i] == '.') {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < line.size() && IsNameChar(line[end])) ++end;
      size_t last = end;
      while (last > i && line[last - 1] == '.') --last;
      const char tail = line[last - 1];
      // Only "...Exception", "...Error" and their snake forms end so: most words go here.
      std::string name = tail == 'n' || tail == 'r' ? ClassOf(line.substr(i, end - i)) : std::string();
      i = end;
      if (!name.empty() && std::find(classes.begin(), classes.end(), name) == classes.end()) {
        classes.push_back(std::move(name));
      }
    }
  }
  return classes;
}

}  // namespace foreshock
