#pragma once

// Parses the timestamp spellings Elasticsearch and its shippers write, without locale or
// allocation (it runs once per record on the hot path):
//   2026-11-29T02:54:11,123       plain log4j, no zone
//   2026-11-29 02:54:11,123       ES 1.x/2.x
//   2019-01-18T08:55:08,159+0100  ES 7 JSON
//   2022-01-25T15:12:08.472Z      ES 8 ECS, Filebeat, CRI (nanoseconds allowed)
// A stamp without a zone is read in `zone` (the --timezone setting).

#include <optional>
#include <string_view>

#include "base/time.h"
#include "base/time_zone.h"

namespace foreshock {

struct ParsedTimestamp {
  TimePoint time;
  size_t length = 0;  // characters of the input the stamp used
};

// Parses a stamp at the start of `text`; trailing characters after it are allowed and
// reported through `length`. Returns nullopt when `text` does not start with a stamp.
std::optional<ParsedTimestamp> ParseTimestamp(std::string_view text, const TimeZone& zone);

// Parses a UTC offset written "+01:00", "-0530", "Z" or "UTC". Returns nullopt otherwise.
std::optional<Duration> ParseUtcOffset(std::string_view text);

}  // namespace foreshock
