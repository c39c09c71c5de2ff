#include "correlate/firing_groups.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace foreshock {
namespace {

GroupState Group(const std::string& node, const std::string& cluster) {
  GroupState group;
  group.node = node;
  group.cluster = cluster;
  group.firing = true;
  return group;
}

bool Holds(std::span<const GroupState* const> groups, const GroupState& group) {
  return std::find(groups.begin(), groups.end(), &group) != groups.end();
}

TEST(FiringGroupsTest, FindsGroupsByNodeAndClusterWideOnesByClusterUntilRemoved) {
  const GroupState on_one = Group("node-1", "prod");
  const GroupState also_on_one = Group("node-1", "prod");
  const GroupState cluster_wide = Group("node-2", "prod");
  FiringGroups firing;
  firing.Add(&on_one, false);
  firing.Add(&also_on_one, false);
  firing.Add(&cluster_wide, true);
  EXPECT_EQ(firing.OnNode("node-1").size(), 2u);
  EXPECT_TRUE(Holds(firing.OnNode("node-2"), cluster_wide)) << "a cluster-wide group is of its node too";
  ASSERT_EQ(firing.ClusterWide("prod").size(), 1u) << "only cluster-wide groups by cluster";
  EXPECT_TRUE(firing.ClusterWide("staging").empty());
  EXPECT_TRUE(firing.OnNode("node-3").empty());

  firing.Remove(&on_one, false);
  ASSERT_EQ(firing.OnNode("node-1").size(), 1u);
  EXPECT_TRUE(Holds(firing.OnNode("node-1"), also_on_one));
  firing.Remove(&cluster_wide, true);
  EXPECT_TRUE(firing.OnNode("node-2").empty());
  EXPECT_TRUE(firing.ClusterWide("prod").empty());
  firing.Remove(&cluster_wide, true);  // twice: nothing to take out
  firing.Clear();
  EXPECT_TRUE(firing.OnNode("node-1").empty());
}

}  // namespace
}  // namespace foreshock
