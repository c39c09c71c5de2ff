#include "base/timestamp_parser.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TimePoint Utc(int y, unsigned mo, unsigned d, int h, int mi, int s, int ms) {
  return std::chrono::sys_days(std::chrono::year(y) / mo / d) + std::chrono::hours(h) +
         std::chrono::minutes(mi) + std::chrono::seconds(s) + std::chrono::milliseconds(ms);
}

TEST(TimestampParserTest, ReadsEverySpellingElasticsearchWrites) {
  struct Case {
    const char* text;
    TimePoint expected;
    size_t length;
  } cases[] = {
      {"2026-11-29T02:54:11,123", Utc(2026, 11, 29, 2, 54, 11, 123), 23},         // plain
      {"2016-09-20 07:01:33,260", Utc(2016, 9, 20, 7, 1, 33, 260), 23},           // 2.x
      {"2019-01-18T08:55:08,159+0100", Utc(2019, 1, 18, 7, 55, 8, 159), 28},      // ES 7 JSON
      {"2020-03-20T18:13:27,638Z", Utc(2020, 3, 20, 18, 13, 27, 638), 24},        // ES 7 JSON
      {"2022-01-25T15:12:08.472Z", Utc(2022, 1, 25, 15, 12, 8, 472), 24},         // ECS
      {"2026-11-29T02:54:11.123456789Z", Utc(2026, 11, 29, 2, 54, 11, 123) + Duration(456), 30},
      {"2026-11-29T02:54:11-05:30", Utc(2026, 11, 29, 8, 24, 11, 0), 25},
      {"2026-11-29T02:54:11", Utc(2026, 11, 29, 2, 54, 11, 0), 19},
      // Fractions of every length around the milliseconds ES writes, and text after a stamp.
      {"2026-11-29T02:54:11,1", Utc(2026, 11, 29, 2, 54, 11, 100), 21},
      {"2026-11-29T02:54:11.12Z", Utc(2026, 11, 29, 2, 54, 11, 120), 23},
      {"2026-11-29T02:54:11,1234", Utc(2026, 11, 29, 2, 54, 11, 123) + Duration(400), 24},
      {"2026-11-29T02:54:11,123] [node-1]", Utc(2026, 11, 29, 2, 54, 11, 123), 23},
      {"2026-11-29T02:54:11.123Zulu", Utc(2026, 11, 29, 2, 54, 11, 123), 24},
  };
  for (const Case& c : cases) {
    auto parsed = ParseTimestamp(c.text, TimeZone::Utc());
    ASSERT_TRUE(parsed.has_value()) << c.text;
    EXPECT_EQ(parsed->time, c.expected) << c.text;
    EXPECT_EQ(parsed->length, c.length) << c.text;
  }
}

TEST(TimestampParserTest, ZoneLessStampsUseTheConfiguredOffset) {
  const TimeZone plus_one = *TimeZone::Parse("+01:00");
  auto parsed = ParseTimestamp("2026-11-29T03:54:11,000", plus_one);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->time, Utc(2026, 11, 29, 2, 54, 11, 0));
  // An explicit zone wins over the configured one.
  parsed = ParseTimestamp("2026-11-29T02:54:11,000Z", plus_one);
  EXPECT_EQ(parsed->time, Utc(2026, 11, 29, 2, 54, 11, 0));
}

TEST(TimestampParserTest, RejectsWhatIsNotAStamp) {
  for (const char* bad : {"", "2026-11-29", "2026-13-01T00:00:00", "2026-02-30T00:00:00",
                          "2026-11-29T25:00:00", "[2026-11-29T02:54:11]", "node-1 started",
                          "2026/11/29 02:54:11", "2026-11-29T02:54:11."}) {
    EXPECT_FALSE(ParseTimestamp(bad, TimeZone::Utc()).has_value()) << bad;
  }
}

TEST(TimestampParserTest, ParsesUtcOffsets) {
  EXPECT_EQ(ParseUtcOffset("UTC"), Duration(0));
  EXPECT_EQ(ParseUtcOffset("+01:00"), std::chrono::hours(1));
  EXPECT_EQ(ParseUtcOffset("-0530"), -(std::chrono::hours(5) + std::chrono::minutes(30)));
  EXPECT_FALSE(ParseUtcOffset("Europe/Paris").has_value());
  EXPECT_FALSE(ParseUtcOffset("+01:00x").has_value());
}

// Records of the same second share their prefix, which the parser remembers: what follows it
// (fraction, zone) and the zone setting still count, and a near-miss prefix is read afresh.
TEST(TimestampParserTest, StampsOfTheSameSecondInARowKeepTheirOwnFractionAndZone) {
  const TimeZone paris = TimeZone::Parse("Europe/Paris").value();
  struct Step {
    const char* text;
    const TimeZone* zone;
    std::optional<TimePoint> expected;
  } steps[] = {
      {"2026-11-29T02:54:11,482", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 11, 482)},
      // The usual shapes, read inline from the remembered second: milliseconds, then the
      // end (in the zone setting, fixed or named) or a "Z".
      {"2026-11-29T02:54:11,483", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 11, 483)},
      {"2026-11-29T02:54:11,484", &paris, Utc(2026, 11, 29, 1, 54, 11, 484)},
      {"2026-11-29T02:54:11.485Z", &paris, Utc(2026, 11, 29, 2, 54, 11, 485)},
      // Near misses of those shapes, read in full.
      {"2026-11-29T02:54:11,48x", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 11, 480)},
      {"2026-11-29T02:54:11,4867", &TimeZone::Utc(),
       Utc(2026, 11, 29, 2, 54, 11, 486) + std::chrono::microseconds(700)},
      {"2026-11-29T02:54:11.487+", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 11, 487)},
      {"2026-11-29T02:54:11.999+0100", &TimeZone::Utc(), Utc(2026, 11, 29, 1, 54, 11, 999)},
      {"2026-11-29T02:54:11", &paris, Utc(2026, 11, 29, 1, 54, 11, 0)},
      {"2026-11-29 02:54:11,001", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 11, 1)},
      {"2026-11-29T02:54:1x", &TimeZone::Utc(), std::nullopt},
      {"2026-11-29T02:54:12Z", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 12, 0)},
      {"2026-11-29T02:54:12Z", &TimeZone::Utc(), Utc(2026, 11, 29, 2, 54, 12, 0)},
      {"2026-11-29T02:54:1", &TimeZone::Utc(), std::nullopt},
  };
  for (const Step& step : steps) {
    const auto parsed = ParseTimestamp(step.text, *step.zone);
    ASSERT_EQ(parsed.has_value(), step.expected.has_value()) << step.text;
    if (parsed) {
      EXPECT_EQ(parsed->time, *step.expected) << step.text;
    }
  }
}

}  // namespace
}  // namespace foreshock
