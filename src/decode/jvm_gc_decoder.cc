#include "decode/jvm_gc_decoder.h"

#include <algorithm>
#include <optional>

#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

bool AllDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "12", "12.345": digits, with a fraction or without.
bool IsDecimal(std::string_view text) {
  const size_t dot = text.find('.');
  return AllDigits(text.substr(0, dot)) && (dot == std::string_view::npos || AllDigits(text.substr(dot + 1)));
}

// "12.345s", "12345ms", "123456789ns": how long the JVM has run.
bool IsUptime(std::string_view text) {
  for (std::string_view unit : {"ns", "ms", "s"}) {
    if (text.ends_with(unit)) return IsDecimal(text.substr(0, text.size() - unit.size()));
  }
  return false;
}

// "gc", "gc,heap     ", "safepoint   ": lower-case tags joined by commas, padded with spaces.
bool IsTags(std::string_view text, std::string_view* tags) {
  const size_t end = text.find_last_not_of(' ');
  if (end == std::string_view::npos) return false;
  *tags = text.substr(0, end + 1);
  return std::all_of(tags->begin(), tags->end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == ',';
  }) && tags->front() != ',' && tags->back() != ',';
}

std::optional<Level> LevelOf(std::string_view text) {
  if (text == "trace") return Level::kTrace;
  if (text == "debug") return Level::kDebug;
  if (text == "info") return Level::kInfo;
  if (text == "warning") return Level::kWarn;
  if (text == "error") return Level::kError;
  return std::nullopt;
}

// JDK 8's "-XX:+PrintGCDateStamps -XX:+PrintGCTimeStamps" line: "<time>: <uptime>: message".
Decoder::Outcome DecodeJdk8(std::string_view text, const DecodeOptions& options, LogRecord* record) {
  const auto stamp = ParseTimestamp(text, *options.zone);
  if (!stamp || text.substr(stamp->length, 2) != ": ") return Decoder::Outcome::kNotMine;
  const size_t uptime_end = text.find(": ", stamp->length + 2);
  if (uptime_end == std::string_view::npos) return Decoder::Outcome::kNotMine;
  const std::string_view uptime = text.substr(stamp->length + 2, uptime_end - stamp->length - 2);
  if (uptime.find('.') == std::string_view::npos || !IsDecimal(uptime)) return Decoder::Outcome::kNotMine;
  const std::string_view message = text.substr(uptime_end + 2);
  record->time = stamp->time;
  record->has_time = true;
  record->level = Level::kInfo;
  record->logger = "gc";
  record->dataset = "jvm.gc";
  record->text.assign(message);
  record->message_length = message.size();
  return Decoder::Outcome::kDecoded;
}

}  // namespace

Decoder::Outcome JvmGcDecoder::Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                                      std::string* /*why*/) const {
  if (text.find('\n') != std::string_view::npos) return Outcome::kNotMine;
  if (!text.empty() && text[0] >= '0' && text[0] <= '9') return DecodeJdk8(text, options, record);
  if (text.empty() || text[0] != '[') return Outcome::kNotMine;
  size_t at = 0;
  bool first = true;
  bool timed = false;  // a time or an uptime comes first
  std::string_view tags;
  std::optional<Level> level;
  while (at < text.size() && text[at] == '[' && tags.empty()) {
    const size_t close = text.find(']', at);
    if (close == std::string_view::npos) return Outcome::kNotMine;
    const std::string_view decoration = text.substr(at + 1, close - at - 1);
    at = close + 1;
    if (auto stamp = ParseTimestamp(decoration, *options.zone); stamp && stamp->length == decoration.size()) {
      record->time = stamp->time;
      record->has_time = true;
      timed = timed || first;
    } else if (IsUptime(decoration)) {
      timed = timed || first;
    } else if (AllDigits(decoration)) {
      // pid or tid
    } else if (auto parsed = LevelOf(decoration); parsed && !level) {
      level = parsed;
    } else if (!IsTags(decoration, &tags)) {
      return Outcome::kNotMine;
    }
    first = false;
  }
  if (!timed || tags.empty() || (at < text.size() && text[at] != ' ')) return Outcome::kNotMine;
  const std::string_view message = text.substr(std::min(text.size(), at + 1));
  record->level = level.value_or(Level::kInfo);
  record->logger.assign(tags);
  record->dataset = "jvm.gc";
  record->text.assign(message);
  record->message_length = message.size();
  return Outcome::kDecoded;
}

}  // namespace foreshock
