#include "base/time.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(TimeTest, FormatsUtcWithMilliseconds) {
  const TimePoint t = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29) +
                      std::chrono::hours(2) + std::chrono::minutes(54) + seconds(11) +
                      milliseconds(482);
  EXPECT_EQ(FormatTimestamp(t), "2026-11-29T02:54:11.482Z");
}

TEST(TimeTest, ParsesCatalogDurations) {
  struct Case {
    const char* text;
    Duration expected;
  } cases[] = {{"650ms", milliseconds(650)},       {"3.2s", milliseconds(3200)},
               {"30s", seconds(30)},               {"5m", std::chrono::minutes(5)},
               {"2h", std::chrono::hours(2)},      {"1d", std::chrono::hours(24)},
               {"1.4m", milliseconds(84000)},      {"500us", Duration(500)}};
  for (const Case& c : cases) {
    auto parsed = ParseDuration(c.text);
    ASSERT_TRUE(parsed.has_value()) << c.text;
    EXPECT_EQ(*parsed, c.expected) << c.text;
  }
}

TEST(TimeTest, RejectsDurationsWithoutUnitsOrWithJunk) {
  // (and durations no 64-bit count of microseconds holds, which a catalog typo can write)
  for (const char* bad : {"", "30", "s", "5 m", "-3s", "3sec", "abc", "2e45d", "1e300s", "infs", "nanm"}) {
    EXPECT_FALSE(ParseDuration(bad).has_value()) << bad;
  }
}

TEST(TimeTest, FormatsDurationsInTheLargestExactUnit) {
  EXPECT_EQ(FormatDuration(std::chrono::minutes(15)), "15m");
  EXPECT_EQ(FormatDuration(seconds(90)), "90s");
  EXPECT_EQ(FormatDuration(milliseconds(650)), "650ms");
  EXPECT_EQ(FormatDuration(std::chrono::hours(24)), "1d");
}

}  // namespace
}  // namespace foreshock
