#include "correlate/recent_records.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <set>

namespace foreshock {
namespace {

TimePoint At(int64_t second) { return TimePoint(std::chrono::seconds(second)); }

// The same operations on RecentRecords and on a plain model (a queue and a set): every answer
// and what is remembered agree, through repeats, key 0, keys crowding the same slots, the
// table and ring growing, forgetting by time and forgetting the oldest at capacity.
TEST(RecentRecordsTest, AgreesWithAPlainModelThroughRandomRepeatsAndForgetting) {
  std::mt19937_64 random(7);
  RecentRecords recent;
  std::deque<RecentRecords::Entry> model_order;
  std::set<uint64_t> model_keys;
  int64_t now = 0;
  for (int step = 0; step < 400000; ++step) {
    now += static_cast<int64_t>(random() % 3);
    // Mostly a small universe, so that repeats and probe chains are common; key 0 among them.
    const uint64_t key = step % 5 == 0 ? random() : random() % 90000;
    if (step > 200000 && step % 1000 == 0) {  // first filled past capacity
      const TimePoint before = At(now - static_cast<int64_t>(random() % 5000));
      recent.ForgetBefore(before);
      while (!model_order.empty() && model_order.front().arrived < before) {
        model_keys.erase(model_order.front().key);
        model_order.pop_front();
      }
    }
    const bool seen = model_keys.count(key) > 0;
    if (!seen) {
      if (model_order.size() == RecentRecords::kCapacity) {
        model_keys.erase(model_order.front().key);
        model_order.pop_front();
      }
      model_order.push_back({At(now), key});
      model_keys.insert(key);
    }
    ASSERT_EQ(recent.SeenElseAdd(key, At(now)), seen) << "step " << step << " key " << key;
    ASSERT_EQ(recent.size(), model_order.size()) << "step " << step;
    if (step == 200000) {
      ASSERT_EQ(recent.size(), RecentRecords::kCapacity) << "filled";
    }
  }
  for (size_t i = 0; i < model_order.size(); ++i) {
    ASSERT_EQ(recent[i].key, model_order[i].key) << i;
    ASSERT_EQ(recent[i].arrived, model_order[i].arrived) << i;
  }
  // Every remembered key is still found after all the shifting back, and nothing else is.
  for (uint64_t key : model_keys) ASSERT_TRUE(recent.SeenElseAdd(key, At(now))) << key;
  EXPECT_EQ(recent.size(), model_order.size());
}

TEST(RecentRecordsTest, ForgetsWhatArrivedBeforeATimeAndAllOnClear) {
  RecentRecords recent;
  EXPECT_FALSE(recent.SeenElseAdd(0, At(1)));
  EXPECT_FALSE(recent.SeenElseAdd(42, At(2)));
  EXPECT_TRUE(recent.SeenElseAdd(0, At(3)));
  EXPECT_TRUE(recent.SeenElseAdd(42, At(3)));
  recent.ForgetBefore(At(2));
  EXPECT_EQ(recent.size(), 1u);
  EXPECT_FALSE(recent.SeenElseAdd(0, At(4))) << "key 0 forgotten with its record";
  EXPECT_TRUE(recent.SeenElseAdd(42, At(4)));
  recent.Clear();
  EXPECT_EQ(recent.size(), 0u);
  EXPECT_FALSE(recent.SeenElseAdd(42, At(5)));
}

}  // namespace
}  // namespace foreshock
