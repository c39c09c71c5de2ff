#include "correlate/reorder_buffer.h"

#include <gtest/gtest.h>

#include <thread>

namespace foreshock {
namespace {

// An empty list of hits for Hold() to take.
std::vector<PatternHit>* NoHits() {
  static std::vector<PatternHit> none;
  none.clear();
  return &none;
}

const TimePoint kStart = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29);

LogRecord At(int seconds) {
  LogRecord record;
  record.time = kStart + std::chrono::seconds(seconds);
  record.text = std::to_string(seconds);
  return record;
}

std::vector<std::string> Texts(const std::vector<HeldRecord>& held) {
  std::vector<std::string> out;
  for (const HeldRecord& one : held) out.push_back(one.record.text);
  return out;
}

TEST(ReorderBufferTest, ReleasesInEventTimeOrderOnceTheLatenessHasPassed) {
  ReorderBuffer buffer(std::chrono::seconds(30), std::chrono::milliseconds(0));
  std::vector<HeldRecord> out;
  ASSERT_TRUE(buffer.Hold(At(10), NoHits()));
  ASSERT_TRUE(buffer.Hold(At(5), NoHits()));
  buffer.Release(false, false, &out);
  EXPECT_TRUE(out.empty()) << "nothing is 30 s old yet";
  buffer.Observe(kStart + std::chrono::seconds(36));
  buffer.Release(false, false, &out);
  EXPECT_EQ(Texts(out), std::vector<std::string>{"5"});
  EXPECT_FALSE(buffer.Hold(At(4), NoHits())) << "older than what was released: late";
  out.clear();
  buffer.Release(false, /*end=*/true, &out);
  EXPECT_EQ(Texts(out), std::vector<std::string>{"10"});
}

TEST(ReorderBufferTest, LiveRecordsGoAfterTheirWallClockHold) {
  ReorderBuffer buffer(std::chrono::seconds(30), std::chrono::milliseconds(5));
  std::vector<HeldRecord> out;
  buffer.Hold(At(10), NoHits());
  buffer.Release(true, false, &out);
  EXPECT_TRUE(out.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  buffer.Release(true, false, &out);
  EXPECT_EQ(Texts(out), std::vector<std::string>{"10"});
}

}  // namespace
}  // namespace foreshock
