#include "base/time_zone.h"

#include <gtest/gtest.h>

#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

TimePoint Local(int y, unsigned mo, unsigned d, int h) {
  return std::chrono::sys_days(std::chrono::year(y) / mo / d) + hours(h);
}

TEST(TimeZoneTest, FixedOffsetsAndUtc) {
  EXPECT_EQ(TimeZone::Utc().OffsetAtLocal(Local(2026, 7, 1, 12)), Duration(0));
  auto india = TimeZone::Parse("+05:30");
  ASSERT_TRUE(india.ok());
  EXPECT_EQ(india->OffsetAtLocal(Local(2026, 7, 1, 12)), hours(5) + minutes(30));
}

TEST(TimeZoneTest, IanaZonesFollowDaylightSavingTime) {
  auto paris = TimeZone::Parse("Europe/Paris");
  ASSERT_TRUE(paris.ok()) << paris.status().message();
  EXPECT_EQ(paris->OffsetAtLocal(Local(2026, 1, 15, 12)), hours(1));
  EXPECT_EQ(paris->OffsetAtLocal(Local(2026, 7, 15, 12)), hours(2));
  auto new_york = TimeZone::Parse("America/New_York");
  ASSERT_TRUE(new_york.ok());
  EXPECT_EQ(new_york->OffsetAtLocal(Local(2026, 1, 15, 12)), -hours(5));
  EXPECT_EQ(new_york->OffsetAtLocal(Local(2026, 7, 15, 12)), -hours(4));
  // Alternating between two zones stays correct (each recomputes with its own TZ).
  EXPECT_EQ(paris->OffsetAtLocal(Local(2026, 1, 16, 12)), hours(1));
}

TEST(TimeZoneTest, ZoneLessPlainStampsAreReadInTheZone) {
  auto paris = TimeZone::Parse("Europe/Paris");
  ASSERT_TRUE(paris.ok());
  auto parsed = ParseTimestamp("2026-07-15T12:00:00,000", *paris);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(FormatTimestamp(parsed->time), "2026-07-15T10:00:00.000Z");
}

TEST(TimeZoneTest, RejectsWhatIsNoZone) {
  for (const char* bad : {"Mars/Olympus", "../../etc/passwd", "", "/etc/localtime", "+25:00"}) {
    auto zone = TimeZone::Parse(bad);
    EXPECT_FALSE(zone.ok()) << bad;
  }
  EXPECT_NE(TimeZone::Parse("Mars/Olympus").status().message().find("is tzdata installed?"),
            std::string::npos);
}

}  // namespace
}  // namespace foreshock
