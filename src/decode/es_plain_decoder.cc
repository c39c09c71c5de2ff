#include "decode/es_plain_decoder.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstdint>
#include <cstring>

#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

std::string_view Trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(' ');
  return text.substr(begin, end - begin + 1);
}

// The first ']' in [at, end), or null. A header's fields (stamp, level, logger, node)
// close within a few dozen bytes: those are compared sixteen at a time, inline, where a
// memchr call would cost more than the search.
[[gnu::always_inline]] inline const char* FindClose(const char* at, const char* end) {
#if defined(__SSE2__)
  const __m128i close = _mm_set1_epi8(']');
  for (size_t searched = 0; searched < 64 && end - at >= 16; searched += 16, at += 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const auto bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, close)));
    if (bits != 0) return at + __builtin_ctz(bits);
  }
#endif
  return static_cast<const char*>(std::memchr(at, ']', static_cast<size_t>(end - at)));
}

// Reads "[content]" at *at (before end), moving *at past it. False if absent.
[[gnu::always_inline]] inline bool TakeBracketed(const char** at, const char* end, std::string_view* content) {
  if (*at == end || **at != '[') return false;
  const char* close = FindClose(*at + 1, end);
  if (close == nullptr) return false;
  *content = std::string_view(*at + 1, static_cast<size_t>(close - *at - 1));
  *at = close + 1;
  return true;
}

// Reads the stamp and level of the layout nearly every record has, log4j's %d{ISO8601}
// and %-5p: "[2026-11-29T02:54:11,123][WARN ][", a ']' at offsets 24 and 31 and none
// before, a '[' at 25 and 32. Sets what TakeBracketed would read of such a line, leaves
// *at on the logger's '[', and is false (changing nothing) for any other layout. The two
// fields' brackets are found in one look at the line's first 32 bytes.
bool TakeUsualStampAndLevel(const char** at, const char* end, std::string_view* stamp, std::string_view* level) {
#if defined(__SSE2__)
  const char* const line = *at;
  if (end - line <= 32 || line[0] != '[' || line[25] != '[' || line[32] != '[') return false;
  const __m128i close = _mm_set1_epi8(']');
  const auto closes = [&](const char* from) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
    return static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, close)));
  };
  if ((closes(line) | closes(line + 16) << 16) != (uint32_t{1} << 24 | uint32_t{1} << 31)) return false;
  *stamp = std::string_view(line + 1, 23);
  *level = std::string_view(line + 26, 5);
  *at = line + 32;
  return true;
#else
  (void)at, (void)end, (void)stamp, (void)level;
  return false;
#endif
}

}  // namespace

// The header fields of a plain record, and where its message starts. kNotMine/kMalformed
// as Decode() reports them (and why, in *why unless it is null). Inlined: DecodeHeader()
// asks it of every ordinary line.
[[gnu::always_inline]] inline Decoder::Outcome EsPlainDecoder::Parse(std::string_view text,
                                                                     const DecodeOptions& options,
                                                                     Header* header, std::string* why) {
  header->newline = options.one_line ? std::string_view::npos : text.find('\n');
  const char* at = text.data();
  const char* const end = at + (header->newline == std::string_view::npos ? text.size() : header->newline);
  std::string_view stamp;
  const bool usual = TakeUsualStampAndLevel(&at, end, &stamp, &header->level);
  if (!usual && !TakeBracketed(&at, end, &stamp)) return Outcome::kNotMine;
  auto parsed = ParseTimestamp(stamp, *options.zone);
  if (!parsed) return Outcome::kNotMine;
  if ((!usual && !TakeBracketed(&at, end, &header->level)) || !TakeBracketed(&at, end, &header->logger)) {
    if (why != nullptr) *why = "plain record without [level][logger] after its timestamp";
    return Outcome::kMalformed;
  }
  header->time = parsed->time;
  // " [node] message": the node field is absent in the deprecation log, so take a bracket
  // only when a space or the end of the line follows it.
  const char* node_begin = nullptr;
  const char* node_end = nullptr;
  if (end - at >= 2 && at[0] == ' ' && at[1] == '[') {
    const char* close = FindClose(at + 2, end);
    if (close != nullptr && (close + 1 == end || close[1] == ' ')) {
      node_begin = at + 2;
      node_end = close;
      at = close + 1;
    }
  }
  header->node_begin = node_begin;
  header->node_size = static_cast<size_t>(node_end - node_begin);
  if (at != end && *at == ' ') ++at;
  header->message = std::string_view(at, static_cast<size_t>(end - at));
  return Outcome::kDecoded;
}

bool EsPlainDecoder::DecodeHeader(std::string_view text, const DecodeOptions& options, RecordHeader* out) const {
  Header header;
  if (Parse(text, options, &header, /*why=*/nullptr) != Outcome::kDecoded) return false;
  out->time = header.time;
  out->has_time = true;
  out->node = std::string_view(header.node_begin, header.node_size);
  if (options.header_level) {
    out->level = ParseLevel(Trim(header.level));
    out->logger = header.logger;  // the dataset follows from it
  }
  out->AddPart(header.message);
  if (header.newline != std::string_view::npos) out->AddPart(text.substr(header.newline + 1));
  return true;
}

namespace {

// The dataset ES's JSON layouts name, from the logger a plain log names: its slow logs and
// deprecation log are separate files with their own loggers; everything else is the server log.
std::string_view DatasetOfLogger(std::string_view logger) {
  if (logger.starts_with("index.search.slowlog")) return "elasticsearch.index_search_slowlog";
  if (logger.starts_with("index.indexing.slowlog")) return "elasticsearch.index_indexing_slowlog";
  // ES 6 abbreviates its deprecation loggers to "o.e.d.…", as it does discovery's: unknown.
  if (logger.find("deprecation") != std::string_view::npos) return "elasticsearch.deprecation";
  return "elasticsearch.server";
}

}  // namespace

Decoder::Outcome EsPlainDecoder::Decode(std::string_view text, const DecodeOptions& options,
                                        LogRecord* record, std::string* why) const {
  Header header;
  const Outcome outcome = Parse(text, options, &header, why);
  if (outcome != Outcome::kDecoded) return outcome;
  record->time = header.time;
  record->has_time = true;
  record->level = ParseLevel(Trim(header.level));
  record->logger.assign(Trim(header.logger));
  record->dataset.assign(DatasetOfLogger(record->logger));
  record->node.assign(header.node_begin, header.node_size);
  record->text.assign(header.message);
  record->message_length = record->text.size();
  if (header.newline != std::string_view::npos) record->text.append(text.substr(header.newline));
  return Outcome::kDecoded;
}

}  // namespace foreshock
