#include "correlate/event_clock.h"

#include <gtest/gtest.h>

#include <thread>

#include "base/time.h"
#include "base/time_zone.h"
#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

TimePoint At(std::string_view text) { return ParseTimestamp(text, TimeZone::Utc())->time; }

// Drives an EventClock as the pipeline does and records, per record handed to it, what it
// let go: "<node>@<correlated at>" with "!" for an anomaly, in order.
class ClockDriver {
 public:
  explicit ClockDriver(EventClockOptions options = {}, EventClock::WallClock wall = nullptr)
      : clock_(options, std::move(wall)) {}

  void Feed(const std::string& node, std::string_view stamp, bool live = false, std::string source = "in") {
    sources_.push_back(std::move(source));
    LogRecord record;
    record.node = node;
    record.source = sources_.back();
    record.has_time = !stamp.empty();
    if (record.has_time) record.time = At(stamp);
    record.text = std::string(stamp);
    if (clock_.Accept(record, /*has_hits=*/false, live)) {
      out_.push_back(node + "@" + FormatTimestamp(record.time));
      return;
    }
    std::vector<TimedRecord> ready;
    clock_.Hold(record, {}, live, &ready);
    Note(ready);
  }
  void End() {
    std::vector<TimedRecord> ready;
    clock_.Flush(/*end=*/true, std::chrono::steady_clock::now(), &ready);
    Note(ready);
  }
  // Live inputs gone quiet, all read to their end at `read_at`.
  void Quiet(std::chrono::steady_clock::time_point read_at) {
    std::vector<TimedRecord> ready;
    clock_.Flush(/*end=*/false, read_at, &ready);
    Note(ready);
  }
  const std::vector<std::string>& out() const { return out_; }
  const EventClock& clock() const { return clock_; }

 private:
  void Note(const std::vector<TimedRecord>& ready) {
    for (const TimedRecord& timed : ready) {
      const LogRecord& record = timed.held.record;
      std::string line = record.node + "@" + (record.has_time ? FormatTimestamp(record.time) : "untimed");
      if (timed.anomaly) line += "! stamped " + FormatTimestamp(record.stamp);
      out_.push_back(line);
    }
  }

  EventClock clock_;
  std::deque<std::string> sources_;  // record.source views into these
  std::vector<std::string> out_;
};

TEST(EventClockTest, AStrayStampAheadIsCorrelatedAtItsNodesTimeAndCounted) {
  ClockDriver driver;
  for (const char* stamp : {"2026-11-29T02:54:00Z", "2026-11-29T02:54:01Z", "2026-11-29T02:54:02Z"}) {
    driver.Feed("n1", stamp);
  }
  driver.Feed("n1", "2031-11-29T02:54:03Z");  // a stray: held
  driver.Feed("n1", "2026-11-29T02:54:04Z");  // the node's clock goes on: it was an anomaly
  driver.Feed("n1", "2026-11-29T02:54:05Z");
  driver.End();
  const std::vector<std::string> want = {
      "n1@2026-11-29T02:54:00.000Z", "n1@2026-11-29T02:54:01.000Z", "n1@2026-11-29T02:54:02.000Z",
      "n1@2026-11-29T02:54:02.000Z! stamped 2031-11-29T02:54:03.000Z", "n1@2026-11-29T02:54:04.000Z",
      "n1@2026-11-29T02:54:05.000Z"};
  EXPECT_EQ(driver.out(), want);
  EXPECT_EQ(driver.clock().anomalies(), 1u);
  EXPECT_FALSE(driver.clock().holding());
}

// What the clock holds is older than what another node's records bring meanwhile: the
// reorder buffer is told its oldest stamp, so as not to let those pass it by wall time.
TEST(EventClockTest, TheOldestHeldStampIsKnownUntilItIsDecided) {
  ClockDriver driver;
  EXPECT_EQ(driver.clock().OldestHeldStamp(), TimePoint::max()) << "nothing held";
  for (const char* stamp : {"2026-11-29T02:00:00Z", "2026-11-29T02:00:01Z", "2026-11-29T02:00:02Z"}) {
    driver.Feed("n1", stamp, /*live=*/false, "n1.log");
  }
  for (const char* stamp : {"2026-11-29T02:10:01Z", "2026-11-29T02:10:02Z", "2026-11-29T02:10:03Z"}) {
    driver.Feed("n2", stamp, /*live=*/false, "n2.log");
  }
  driver.Feed("n1", "2026-11-29T02:10:00Z", /*live=*/false, "n1.log");  // after a quiet while: held
  driver.Feed("n2", "2026-11-29T02:10:05Z", /*live=*/false, "n2.log");  // goes on: correlated at once
  EXPECT_TRUE(driver.clock().holding());
  EXPECT_EQ(driver.out().back(), "n2@2026-11-29T02:10:05.000Z");
  EXPECT_EQ(FormatTimestamp(driver.clock().OldestHeldStamp()), "2026-11-29T02:10:00.000Z");
  driver.End();
  EXPECT_EQ(driver.clock().OldestHeldStamp(), TimePoint::max());
}

TEST(EventClockTest, AJumpConfirmedByTheNodesNextRecordsMovesItsClock) {
  ClockDriver driver;
  for (const char* stamp : {"2026-11-29T02:00:00Z", "2026-11-29T02:00:01Z", "2026-11-29T02:00:02Z",
                            // a quiet hour, then the node logs again: a sparse log, not a stray
                            "2026-11-29T03:10:00Z", "2026-11-29T03:40:00Z", "2026-11-29T03:40:01Z",
                            "2026-11-29T03:40:02Z"}) {
    driver.Feed("n1", stamp);
  }
  driver.End();
  ASSERT_EQ(driver.out().size(), 7u);
  EXPECT_EQ(driver.out()[3], "n1@2026-11-29T03:10:00.000Z");
  EXPECT_EQ(driver.out()[4], "n1@2026-11-29T03:40:00.000Z");
  EXPECT_EQ(driver.clock().anomalies(), 0u);
  EXPECT_EQ(driver.clock().jumps(), 1u);
}

TEST(EventClockTest, AStampFarBehindIsAnAnomalyUnlessTheNextRecordsFollowIt) {
  ClockDriver driver;
  for (const char* stamp : {"2026-11-29T02:00:00Z", "2026-11-29T02:00:01Z", "2026-11-29T02:00:02Z",
                            "2025-11-29T02:00:03Z", "2026-11-29T02:00:04Z"}) {
    driver.Feed("n1", stamp);
  }
  EXPECT_EQ(driver.out()[3], "n1@2026-11-29T02:00:02.000Z! stamped 2025-11-29T02:00:03.000Z");
  // The node's clock is set back an hour and stays there: after two more, its clock follows.
  for (const char* stamp : {"2026-11-29T01:00:05Z", "2026-11-29T01:00:06Z", "2026-11-29T01:00:07Z"}) {
    driver.Feed("n1", stamp);
  }
  driver.End();
  ASSERT_EQ(driver.out().size(), 8u);
  EXPECT_EQ(driver.out()[5], "n1@2026-11-29T01:00:05.000Z");
  EXPECT_EQ(driver.out()[7], "n1@2026-11-29T01:00:07.000Z");
  EXPECT_EQ(driver.clock().anomalies(), 1u);
}

TEST(EventClockTest, AStrayAmongTheStreamsFirstLinesCannotSetItsClock) {
  for (const char* stray : {"2031-11-29T02:00:00Z", "2025-11-29T02:00:00Z"}) {
    ClockDriver driver;
    driver.Feed("n1", stray);
    for (const char* stamp : {"2026-11-29T02:00:01Z", "2026-11-29T02:00:02Z", "2026-11-29T02:00:03Z"}) {
      driver.Feed("n1", stamp);
    }
    driver.End();
    ASSERT_EQ(driver.out().size(), 4u) << stray;
    EXPECT_EQ(driver.out()[0], "n1@2026-11-29T02:00:01.000Z") << stray;
    EXPECT_EQ(driver.out()[3].substr(0, 29), "n1@2026-11-29T02:00:03.000Z! ") << stray;
    EXPECT_EQ(driver.clock().anomalies(), 1u);
  }
}

TEST(EventClockTest, RecordsWithoutATimeTakeTheirNodesTime) {
  ClockDriver driver;
  driver.Feed("n1", "");  // before any clock: held
  for (const char* stamp : {"2026-11-29T02:00:00Z", "2026-11-29T02:00:01Z", "2026-11-29T02:00:02Z"}) {
    driver.Feed("n1", stamp);
  }
  driver.Feed("n1", "");
  driver.End();
  ASSERT_EQ(driver.out().size(), 5u);
  EXPECT_EQ(driver.out()[3], "n1@2026-11-29T02:00:02.000Z");  // held until a clock existed
  EXPECT_EQ(driver.out()[4], "n1@2026-11-29T02:00:02.000Z");
  EXPECT_EQ(driver.clock().anomalies(), 0u);
}

// A node whose clock is steadily minutes slow in a merged stream keeps its own time, and the
// stream says how far behind it is; one late line does not make a node lag.
TEST(EventClockTest, ANodeSteadilyBehindInAMergedStreamShowsItsLag) {
  auto hit = [&](const std::string& node, TimePoint time) {
    LogRecord record;
    record.node = node;
    record.source = "stdin";
    record.has_time = true;
    record.time = time;
    return record;
  };
  EventClock clock{EventClockOptions{}};
  std::vector<TimedRecord> ready;
  TimePoint t = At("2026-11-29T02:00:00Z");
  for (int i = 0; i < 40; ++i, t += seconds(3)) {
    for (const LogRecord& record : {hit("fast", t + minutes(4)), hit("on-time", t)}) {
      if (!clock.Accept(record, /*has_hits=*/true, false)) clock.Hold(record, {}, false, &ready);
    }
    if (i == 20) {  // one line 45 s late
      const LogRecord late = hit("on-time", t - seconds(45));
      if (!clock.Accept(late, true, false)) clock.Hold(late, {}, false, &ready);
    }
  }
  EXPECT_GE(clock.LagOf("on-time"), minutes(4) - seconds(3));
  EXPECT_LE(clock.LagOf("on-time"), minutes(4));
  EXPECT_EQ(clock.LagOf("fast"), Duration(0));
  EXPECT_EQ(clock.LagOf("never-seen"), Duration(0));
  EXPECT_EQ(clock.anomalies(), 0u);
}

// Files are their own inputs: one read in a burst minutes ahead of another is no skew.
TEST(EventClockTest, InputsAreNotComparedWithEachOther) {
  ClockDriver driver;
  TimePoint t = At("2026-11-29T02:00:00Z");
  for (int i = 0; i < 30; ++i) driver.Feed("n1", FormatTimestamp(t + seconds(20 * i)), false, "a.log");
  for (int i = 0; i < 30; ++i) driver.Feed("n2", FormatTimestamp(t + seconds(20 * i)), false, "b.log");
  driver.End();
  EXPECT_EQ(driver.out().size(), 60u);
  EXPECT_EQ(driver.clock().anomalies(), 0u);
  EXPECT_EQ(driver.clock().LagOf("n2"), Duration(0));
}

// Live, a stamp near the wall clock is taken at once, whatever the node logged before (it was
// quiet); one far from both is decided after a second of quiet.
TEST(EventClockTest, LiveAStampNearTheWallClockIsTakenAtOnce) {
  const TimePoint wall = At("2026-12-05T10:00:00Z");
  ClockDriver driver(EventClockOptions{}, [wall] { return wall; });
  driver.Feed("n1", "2026-12-05T09:00:00Z", /*live=*/true);
  driver.Feed("n1", "2026-12-05T09:59:59Z", /*live=*/true);
  ASSERT_EQ(driver.out().size(), 1u);
  EXPECT_EQ(driver.out()[0], "n1@2026-12-05T09:59:59.000Z");
}

// Live, a stamp far from the wall clock waits a second for records that confirm or refute
// it, counted to when the inputs were all read again: a reader that was itself slow to read
// them does not decide it without the records already written.
TEST(EventClockTest, LiveAHeldStampIsDecidedOnceTheInputsWereReadASecondLater) {
  const TimePoint wall = At("2026-12-05T10:00:00Z");
  ClockDriver driver(EventClockOptions{}, [wall] { return wall; });
  const auto held_at = std::chrono::steady_clock::now();
  driver.Feed("n1", "2026-12-05T09:00:00Z", /*live=*/true);
  driver.Quiet(held_at);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // the reader was slow
  driver.Quiet(held_at + std::chrono::milliseconds(900));
  EXPECT_TRUE(driver.out().empty()) << "the inputs were not read a second after the hold";
  driver.Quiet(std::chrono::steady_clock::now() + std::chrono::seconds(1));
  ASSERT_EQ(driver.out().size(), 1u);
  EXPECT_EQ(driver.out()[0], "n1@2026-12-05T09:00:00.000Z");
}

}  // namespace
}  // namespace foreshock
