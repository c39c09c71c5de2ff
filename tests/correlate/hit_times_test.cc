#include "correlate/hit_times.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace foreshock {
namespace {

using std::chrono::seconds;

const TimePoint kStart = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29);

// HitTimes answers as a sorted list of every time kept would, whatever the order the times
// come in: mostly in order, with stretches a few seconds late, and runs replayed from far
// behind (a node's log sent again), long enough to fill and merge the late list many times.
TEST(HitTimesTest, AnswersAsASortedListWhateverTheOrder) {
  std::mt19937_64 random(7);
  HitTimes times;
  std::vector<TimePoint> expected;
  TimePoint now = kStart;
  TimePoint replay;
  int replaying = 0;
  for (int step = 0; step < 20000; ++step) {
    TimePoint time;
    if (replaying > 0) {
      --replaying;
      replay += seconds(random() % 3);
      time = replay;
    } else if (random() % 500 == 0) {
      replaying = static_cast<int>(random() % 1500);
      replay = now - seconds(random() % 3000);
      time = replay;
    } else {
      now += seconds(random() % 3);
      time = random() % 10 == 0 ? now - seconds(random() % 20) : now;
    }
    times.Add(time, 1 << 20);
    expected.insert(std::upper_bound(expected.begin(), expected.end(), time), time);
    if (step % 97 == 0) {
      const TimePoint limit = now - seconds(3600);
      times.DropBefore(limit);
      std::erase_if(expected, [&](TimePoint t) { return t < limit; });
    }
    const TimePoint to = random() % 2 == 0 ? time : now - seconds(random() % 4000);
    const auto span = seconds(random() % 1800);
    const auto from = std::lower_bound(expected.begin(), expected.end(), to - span);
    ASSERT_EQ(times.CountWithin(to, span), std::upper_bound(from, expected.end(), to) - from) << "step " << step;
    const std::optional<TimePoint> first = times.FirstFrom(to - span);
    ASSERT_EQ(first.has_value(), from != expected.end()) << "step " << step;
    if (first) {
      ASSERT_EQ(*first, *from) << "step " << step;
    }
  }
  EXPECT_EQ(times.InOrder(), expected);
  EXPECT_FALSE(times.InOrder().empty());
  times.Clear();
  EXPECT_TRUE(times.InOrder().empty());
  EXPECT_EQ(times.CountWithin(kStart, seconds(1000000)), 0);
}

// A storm keeps the latest `keep`: a window asking for a few hits of the last minutes gets
// them, and the earliest kept is where the latest `keep` begin.
TEST(HitTimesTest, KeepsTheLatestOfAStorm) {
  HitTimes times;
  for (int second = 0; second < 100000; ++second) times.Add(kStart + seconds(second), 1024);
  EXPECT_EQ(times.CountWithin(kStart + seconds(99999), seconds(60)), 61);
  EXPECT_EQ(times.CountWithin(kStart + seconds(99999), seconds(100000)), 1024);
  EXPECT_EQ(times.FirstFrom(kStart), kStart + seconds(100000 - 1024));
  EXPECT_EQ(times.InOrder().size(), 1024u);
}

}  // namespace
}  // namespace foreshock
