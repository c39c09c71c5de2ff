#include "correlate/due_groups.h"

#include <gtest/gtest.h>

#include <list>

namespace foreshock {
namespace {

TimePoint At(int64_t second) { return TimePoint(std::chrono::seconds(second)); }

class DueGroupsTest : public ::testing::Test {
 protected:
  // A group at the front of the list, as the correlator makes one.
  GroupState* Make() {
    groups_.emplace_front();
    due_.Add(&groups_.front());
    return &groups_.front();
  }
  std::vector<GroupState*> TakeDue(int64_t watermark) {
    std::vector<GroupState*> due;
    due_.TakeDue(At(watermark), &due);
    return due;
  }

  std::list<GroupState> groups_;
  DueGroups due_;
};

TEST_F(DueGroupsTest, HandsOutTheGroupsDueByTheWatermarkMostRecentlyHitFirst) {
  GroupState* older = Make();
  GroupState* newer = Make();
  GroupState* later = Make();
  due_.Schedule(older, At(10));
  due_.Schedule(newer, At(20));
  due_.Schedule(later, At(100));
  EXPECT_TRUE(TakeDue(5).empty());
  EXPECT_EQ(TakeDue(30), (std::vector<GroupState*>{newer, older})) << "the list's order, not the times'";
  EXPECT_TRUE(TakeDue(30).empty()) << "taken notes are gone until scheduled again";
  due_.Touch(older);  // hit again: now at the front
  due_.Schedule(older, At(40));
  due_.Schedule(newer, At(40));
  EXPECT_EQ(TakeDue(200), (std::vector<GroupState*>{older, later, newer}));
}

TEST_F(DueGroupsTest, AnEarlierTimeTakesThePlaceOfALaterOneAndALaterOneWaitsForTheNoted) {
  GroupState* group = Make();
  due_.Schedule(group, At(100));
  due_.Schedule(group, At(10));   // came earlier: noted
  due_.Schedule(group, At(500));  // later than noted: the note at 10 stands
  EXPECT_EQ(TakeDue(10), (std::vector<GroupState*>{group}));
  due_.Schedule(group, At(500));
  EXPECT_TRUE(TakeDue(400).empty()) << "the stale note at 100 is dropped, not handed out";
  EXPECT_EQ(TakeDue(500), (std::vector<GroupState*>{group}));
}

TEST_F(DueGroupsTest, ARemovedGroupIsNeverHandedOutEvenWhenItsPlaceIsReused) {
  GroupState* gone = Make();
  due_.Schedule(gone, At(10));
  due_.Remove(*gone);
  EXPECT_FALSE(due_.Holds(gone->serial));
  groups_.pop_front();
  GroupState* next = Make();  // may take the freed memory
  due_.Schedule(next, At(50));
  EXPECT_TRUE(TakeDue(20).empty());
  EXPECT_EQ(TakeDue(60), (std::vector<GroupState*>{next}));
  due_.Clear();
  due_.Schedule(next, At(70));
  EXPECT_TRUE(TakeDue(100).empty()) << "cleared: no group is held";
}

}  // namespace
}  // namespace foreshock
