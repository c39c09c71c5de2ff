#include "base/report_limiter.h"

#include <gtest/gtest.h>

#include <thread>

namespace foreshock {
namespace {

TEST(ReportLimiterTest, LetsTheFirstFewThroughThenOnePerIntervalSayingHowManyWereHeldBack) {
  ReportLimiter limiter(3, std::chrono::milliseconds(200));
  std::string more = "stale";
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.Allow(&more)) << i;
    EXPECT_EQ(more, "");
  }
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(limiter.Allow(&more)) << i;
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_TRUE(limiter.Allow(&more));
  EXPECT_EQ(more, " (4 more not shown)");
  EXPECT_FALSE(limiter.Allow(&more));
}

}  // namespace
}  // namespace foreshock
