// Spool: the per-destination queue that keeps undelivered alerts in order, on disk, within
// a size bound.

#include "deliver/spool.h"

#include <gtest/gtest.h>

#include <fstream>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

std::vector<std::string> Drain(Spool* spool) {
  std::vector<std::string> out;
  Spool::Entry entry;
  while (spool->Front(&entry)) {
    out.push_back(entry.payload);
    EXPECT_TRUE(spool->PopFront(entry.id).ok());
  }
  return out;
}

TEST(SpoolTest, PendingAlertsSurviveAReopenInOrder) {
  testing::TempDir dir;
  const std::string folder = dir.path() + "/spool";
  {
    auto spool = Spool::Open(folder, 1 << 20).value();
    for (const char* payload : {"{\"a\":1}", "{\"a\":2}", "{\"a\":3}"}) ASSERT_TRUE(spool->Push(payload, false).ok());
    Spool::Entry first;
    ASSERT_TRUE(spool->Front(&first));
    ASSERT_TRUE(spool->PopFront(first.id).ok());  // delivered before the "crash"
  }
  auto reopened = Spool::Open(folder, 1 << 20).value();
  EXPECT_EQ(reopened->depth(), 2u);
  EXPECT_EQ(Drain(reopened.get()), (std::vector<std::string>{"{\"a\":2}", "{\"a\":3}"}));
  auto again = Spool::Open(folder, 1 << 20).value();
  EXPECT_EQ(again->depth(), 0u) << "delivered alerts are not delivered again";
}

TEST(SpoolTest, ALineCutByACrashIsDiscardedAndTheRestKept) {
  testing::TempDir dir;
  const std::string folder = dir.path() + "/spool";
  {
    auto spool = Spool::Open(folder, 1 << 20).value();
    ASSERT_TRUE(spool->Push("{\"a\":1}", true).ok());
  }
  { std::ofstream(folder + "/queue.jsonl", std::ios::app) << ". {\"a\":"; }
  auto spool = Spool::Open(folder, 1 << 20).value();
  Spool::Entry entry;
  ASSERT_TRUE(spool->Front(&entry));
  EXPECT_TRUE(entry.critical);
  EXPECT_EQ(Drain(spool.get()), std::vector<std::string>{"{\"a\":1}"});
}

TEST(SpoolTest, WhenFullTheOldestNonCriticalGoFirstThenTheOldestCritical) {
  auto spool = Spool::Open("", 30).value();  // in memory, room for three 10-byte entries
  ASSERT_TRUE(spool->Push("critical-1", true).ok());
  ASSERT_TRUE(spool->Push("warning--1", false).ok());
  ASSERT_TRUE(spool->Push("critical-2", true).ok());
  ASSERT_TRUE(spool->Push("critical-3", true).ok());  // the warning goes
  EXPECT_EQ(spool->dropped(), 1u);
  ASSERT_TRUE(spool->Push("warning--2", false).ok());  // only criticals left: the new warning goes
  ASSERT_TRUE(spool->Push("critical-4", true).ok());   // the oldest critical goes
  EXPECT_EQ(spool->dropped(), 3u);
  EXPECT_EQ(Drain(spool.get()), (std::vector<std::string>{"critical-2", "critical-3", "critical-4"}));
}

TEST(SpoolTest, AnEntryDroppedWhileBeingDeliveredIsNotConfusedWithTheNext) {
  auto spool = Spool::Open("", 20).value();
  ASSERT_TRUE(spool->Push("warning--1", false).ok());
  Spool::Entry in_flight;
  ASSERT_TRUE(spool->Front(&in_flight));
  ASSERT_TRUE(spool->Push("critical-1", true).ok());
  ASSERT_TRUE(spool->Push("critical-2", true).ok());  // drops the one in flight
  ASSERT_TRUE(spool->PopFront(in_flight.id).ok());     // its delivery must not pop critical-1
  EXPECT_EQ(Drain(spool.get()), (std::vector<std::string>{"critical-1", "critical-2"}));
}

}  // namespace
}  // namespace foreshock
