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

// Release()'s "no input read": records go by event time only.
constexpr std::chrono::steady_clock::time_point kByEventTimeOnly = std::chrono::steady_clock::time_point::min();

const TimePoint kStart = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29);

LogRecord At(int seconds) {
  LogRecord record;
  record.time = kStart + std::chrono::seconds(seconds);
  record.text = std::to_string(seconds);
  return record;
}

std::vector<std::string> Texts(const std::vector<std::unique_ptr<HeldRecord>>& held) {
  std::vector<std::string> out;
  for (const std::unique_ptr<HeldRecord>& one : held) out.push_back(one->record.text);
  return out;
}

TEST(ReorderBufferTest, ReleasesInEventTimeOrderOnceTheLatenessHasPassed) {
  ReorderBuffer buffer(std::chrono::seconds(30), std::chrono::milliseconds(0));
  std::vector<std::unique_ptr<HeldRecord>> out;
  ASSERT_TRUE(buffer.Hold(At(10), NoHits()));
  ASSERT_TRUE(buffer.Hold(At(5), NoHits()));
  buffer.Release(kByEventTimeOnly, false, &out);
  EXPECT_TRUE(out.empty()) << "nothing is 30 s old yet";
  buffer.Observe(kStart + std::chrono::seconds(36));
  buffer.Release(kByEventTimeOnly, false, &out);
  EXPECT_EQ(Texts(out), std::vector<std::string>{"5"});
  EXPECT_FALSE(buffer.Hold(At(4), NoHits())) << "older than what was released: late";
  out.clear();
  buffer.Release(kByEventTimeOnly, /*end=*/true, &out);
  EXPECT_EQ(Texts(out), std::vector<std::string>{"10"});
}

TEST(ReorderBufferTest, LiveRecordsGoOnceTheInputsWereReadAfterTheirWallClockHold) {
  ReorderBuffer buffer(std::chrono::seconds(30), std::chrono::milliseconds(5));
  std::vector<std::unique_ptr<HeldRecord>> out;
  const auto before = std::chrono::steady_clock::now();
  buffer.Hold(At(10), NoHits());
  buffer.Hold(At(8), NoHits());
  buffer.Release(std::chrono::steady_clock::now(), false, &out);
  EXPECT_TRUE(out.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // Inputs last read before the hold: another input's earlier line may be there, unread.
  buffer.Release(before, false, &out);
  EXPECT_TRUE(out.empty()) << "held 10 ms, but the inputs were not read since";
  buffer.Release(kByEventTimeOnly, false, &out);
  EXPECT_TRUE(out.empty()) << "by event time alone, nothing is 30 s old";
  buffer.Release(std::chrono::steady_clock::now(), false, &out);
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"8", "10"}));
}

// A record an earlier stage still holds (the event clock's held stamp at 9) keeps later ones
// from going by wall time; those before it go.
TEST(ReorderBufferTest, WallTimeReleasesNothingStampedAfterARecordHeldUpstream) {
  ReorderBuffer buffer(std::chrono::seconds(30), std::chrono::milliseconds(0));
  std::vector<std::unique_ptr<HeldRecord>> out;
  buffer.Hold(At(10), NoHits());
  buffer.Hold(At(8), NoHits());
  const auto read_at = std::chrono::steady_clock::now();
  buffer.Release(read_at, false, &out, kStart + std::chrono::seconds(9));
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"8"}));
  out.clear();
  buffer.Release(read_at, false, &out, kStart + std::chrono::seconds(9));
  EXPECT_TRUE(out.empty()) << "10 waits for the record held at 9";
  buffer.Release(read_at, false, &out);
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"10"}));
}

// Records released and handed back are reused for the next ones held: each record comes
// out as it went in, with its own hits, nothing left over from the one before it.
TEST(ReorderBufferTest, RecycledRecordsHoldOnlyWhatTheNextRecordSays) {
  ReorderBuffer buffer(std::chrono::seconds(0), std::chrono::milliseconds(0));
  std::vector<std::unique_ptr<HeldRecord>> out;
  LogRecord first = At(1);
  first.text = std::string(500, 'x');
  first.logger = "o.e.m.j.JvmGcMonitorService";
  first.file = "/var/log/elasticsearch/prod.log";
  std::vector<PatternHit> hits(2);
  hits[0].pattern = 7;
  hits[0].captures.push_back({"gc_overhead_pct", "97", 97.0});
  ASSERT_TRUE(buffer.Hold(first, &hits));
  EXPECT_TRUE(hits.empty()) << "the hits are taken";
  buffer.Release(kByEventTimeOnly, /*end=*/true, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]->record.file, first.file);
  EXPECT_EQ(out[0]->hits.size(), 2u);
  buffer.Recycle(&out);
  EXPECT_TRUE(out.empty());
  for (int n = 2; n < 5; ++n) {
    std::vector<PatternHit> one(1);
    one[0].pattern = n;
    ASSERT_TRUE(buffer.Hold(At(n), &one));
    buffer.Release(kByEventTimeOnly, /*end=*/true, &out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0]->record.text, std::to_string(n));
    EXPECT_TRUE(out[0]->record.logger.empty());
    EXPECT_TRUE(out[0]->record.file.empty());
    ASSERT_EQ(out[0]->hits.size(), 1u);
    EXPECT_EQ(out[0]->hits[0].pattern, n);
    EXPECT_TRUE(out[0]->hits[0].captures.empty());
    buffer.Recycle(&out);
  }
}

}  // namespace
}  // namespace foreshock
