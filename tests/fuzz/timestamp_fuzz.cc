// Fuzzes the timestamp and UTC-offset parsers in three zones (UTC, a fixed offset and a
// named zone with DST). Properties: the zone never changes whether or how much of the text
// is a stamp, a stamp never claims more characters than it was given, and the fixed-offset
// reading is either the same instant (the stamp carried its zone) or exactly 5h30 earlier.

#include <cstdint>
#include <string_view>

#include "base/timestamp_parser.h"
#include "fuzz_check.h"

using namespace foreshock;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const TimeZone offset = TimeZone::Parse("+05:30").value();
  static const TimeZone paris = TimeZone::Parse("Europe/Paris").value();
  const auto utc = ParseTimestamp(text, TimeZone::Utc());
  const auto shifted = ParseTimestamp(text, offset);
  const auto named = ParseTimestamp(text, paris);
  FUZZ_CHECK(utc.has_value() == shifted.has_value() && utc.has_value() == named.has_value());
  if (utc) {
    FUZZ_CHECK(utc->length > 0 && utc->length <= size);
    FUZZ_CHECK(utc->length == shifted->length && utc->length == named->length);
    const Duration difference = utc->time - shifted->time;
    FUZZ_CHECK(difference == Duration::zero() || difference == std::chrono::minutes(330));
  }
  ParseUtcOffset(text);
  return 0;
}
