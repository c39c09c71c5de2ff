#include "base/timestamp_parser.h"

#include <cstring>

namespace foreshock {
namespace {

using timestamp_internal::IsDigit;

// Reads exactly `count` digits at `pos`; returns -1 if any is not a digit.
int ReadDigits(std::string_view text, size_t pos, size_t count) {
  if (pos + count > text.size()) return -1;
  int value = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    if (!IsDigit(text[i])) return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// Parses "Z", "+HH", "+HHMM" or "+HH:MM" at `pos`. Sets *length to the characters used.
std::optional<Duration> ParseOffsetAt(std::string_view text, size_t pos, size_t* length) {
  if (pos < text.size() && text[pos] == 'Z') {
    *length = 1;
    return Duration(0);
  }
  if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return std::nullopt;
  const int sign = text[pos] == '-' ? -1 : 1;
  const int hours = ReadDigits(text, pos + 1, 2);
  if (hours < 0 || hours > 18) return std::nullopt;
  size_t used = 3;
  int minutes = 0;
  size_t minute_pos = pos + 3;
  if (minute_pos < text.size() && text[minute_pos] == ':') ++minute_pos;
  const int parsed_minutes = ReadDigits(text, minute_pos, 2);
  if (parsed_minutes >= 0 && parsed_minutes < 60) {
    minutes = parsed_minutes;
    used = minute_pos + 2 - pos;
  }
  *length = used;
  return std::chrono::duration_cast<Duration>(sign * (std::chrono::hours(hours) +
                                                      std::chrono::minutes(minutes)));
}

// Reads "YYYY-MM-DD[T ]HH:MM:SS" at the start of `text` as a local time, or nullopt.
std::optional<TimePoint> ParseLocalSecond(std::string_view text) {
  using namespace std::chrono;
  const int y = ReadDigits(text, 0, 4);
  const int mo = ReadDigits(text, 5, 2);
  const int d = ReadDigits(text, 8, 2);
  const int h = ReadDigits(text, 11, 2);
  const int mi = ReadDigits(text, 14, 2);
  const int s = ReadDigits(text, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0) return std::nullopt;
  if (text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != ' ') ||
      text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  const year_month_day ymd{year(y), month(static_cast<unsigned>(mo)), day(static_cast<unsigned>(d))};
  if (!ymd.ok() || h > 23 || mi > 59 || s > 60) return std::nullopt;
  return TimePoint(sys_days(ymd) + hours(h) + minutes(mi) + seconds(s));
}

}  // namespace

std::optional<ParsedTimestamp> timestamp_internal::ParseAnyTimestamp(std::string_view text, const TimeZone& zone) {
  using namespace std::chrono;
  LastSecond& last = last_second;
  TimePoint local_second;
  if (last.valid && text.size() >= kSecondLength && std::memcmp(text.data(), last.prefix, kSecondLength) == 0) {
    local_second = last.local;
  } else {
    const auto parsed = ParseLocalSecond(text);
    if (!parsed) return std::nullopt;
    local_second = *parsed;
    std::memcpy(last.prefix, text.data(), kSecondLength);  // a parsed stamp has all 19 bytes
    last.local = local_second;
    last.valid = true;
  }
  size_t pos = 19;
  int64_t fraction_micros = 0;
  if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
    ++pos;
    if (pos + 3 <= text.size() && IsDigit(text[pos]) && IsDigit(text[pos + 1]) && IsDigit(text[pos + 2]) &&
        (pos + 3 == text.size() || !IsDigit(text[pos + 3]))) {
      // Milliseconds, as Elasticsearch writes them, in one step.
      fraction_micros = ((text[pos] - '0') * 100 + (text[pos + 1] - '0') * 10 + (text[pos + 2] - '0')) * 1000;
      pos += 3;
    } else {
      int64_t scale = 100000;
      const size_t digits_start = pos;
      while (pos < text.size() && IsDigit(text[pos])) {
        fraction_micros += (text[pos] - '0') * scale;
        scale /= 10;
        ++pos;
      }
      if (pos == digits_start) return std::nullopt;
    }
  }

  const TimePoint local = local_second + microseconds(fraction_micros);
  // The stamp's end, or its "Z": no offset to read.
  if (pos == text.size()) return ParsedTimestamp{local - zone.OffsetAtLocal(local), pos};
  if (text[pos] == 'Z') return ParsedTimestamp{local, pos + 1};
  size_t offset_length = 0;
  if (auto offset = ParseOffsetAt(text, pos, &offset_length)) {
    return ParsedTimestamp{local - *offset, pos + offset_length};
  }
  return ParsedTimestamp{local - zone.OffsetAtLocal(local), pos};
}

std::optional<Duration> ParseUtcOffset(std::string_view text) {
  if (text == "UTC" || text == "utc" || text == "Z") return Duration(0);
  size_t length = 0;
  auto offset = ParseOffsetAt(text, 0, &length);
  if (!offset || length != text.size()) return std::nullopt;
  return offset;
}

}  // namespace foreshock
