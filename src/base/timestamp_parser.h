#pragma once

// Parses the timestamp spellings Elasticsearch and its shippers write, without locale or
// allocation (it runs once per record on the hot path):
//   2026-11-29T02:54:11,123       plain log4j, no zone
//   2026-11-29 02:54:11,123       ES 1.x/2.x
//   2019-01-18T08:55:08,159+0100  ES 7 JSON
//   2022-01-25T15:12:08.472Z      ES 8 ECS, Filebeat, CRI (nanoseconds allowed)
// A stamp without a zone is read in `zone` (the --timezone setting).

#include <cstring>
#include <optional>
#include <string_view>

#include "base/time.h"
#include "base/time_zone.h"

namespace foreshock {

struct ParsedTimestamp {
  TimePoint time;
  size_t length = 0;  // characters of the input the stamp used
};

namespace timestamp_internal {

// Consecutive records mostly share their date and time to the second: the last such prefix
// read on this thread, with the local time it stands for.
constexpr size_t kSecondLength = 19;  // YYYY-MM-DDTHH:MM:SS
struct LastSecond {
  char prefix[kSecondLength] = {};
  TimePoint local;
  bool valid = false;
};
inline thread_local LastSecond last_second;

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads every stamp ParseTimestamp() does.
std::optional<ParsedTimestamp> ParseAnyTimestamp(std::string_view text, const TimeZone& zone);

}  // namespace timestamp_internal

// Parses a stamp at the start of `text`; trailing characters after it are allowed and
// reported through `length`. Returns nullopt when `text` does not start with a stamp.
// Inline for the stamp of most records: the second read last, milliseconds, then the end
// of `text` or a "Z" ("2026-11-29T02:54:11,123", "2022-01-25T15:12:08.472Z"), which the
// decoders read from every ordinary line. The result is ParseAnyTimestamp()'s.
inline std::optional<ParsedTimestamp> ParseTimestamp(std::string_view text, const TimeZone& zone) {
  using namespace timestamp_internal;
  constexpr size_t kMillis = kSecondLength + 1;  // after the ',' or '.'
  const LastSecond& last = last_second;
  const bool utc = text.size() == kMillis + 4 && text[kMillis + 3] == 'Z';
  if ((text.size() == kMillis + 3 || utc) && last.valid && (text[kSecondLength] == ',' || text[kSecondLength] == '.') &&
      IsDigit(text[kMillis]) && IsDigit(text[kMillis + 1]) && IsDigit(text[kMillis + 2]) &&
      std::memcmp(text.data(), last.prefix, kSecondLength) == 0) {
    const auto millis = (text[kMillis] - '0') * 100 + (text[kMillis + 1] - '0') * 10 + (text[kMillis + 2] - '0');
    const TimePoint local = last.local + std::chrono::milliseconds(millis);
    return ParsedTimestamp{utc ? local : local - zone.OffsetAtLocal(local), text.size()};
  }
  return ParseAnyTimestamp(text, zone);
}

// Parses a UTC offset written "+01:00", "-0530", "Z" or "UTC". Returns nullopt otherwise.
std::optional<Duration> ParseUtcOffset(std::string_view text);

}  // namespace foreshock
