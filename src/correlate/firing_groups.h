#pragma once

// FiringGroups: the correlator's groups whose alert is firing, by node, and those of
// cluster-wide rules by cluster too. Inhibition and lead time ask only for the firing groups
// of one place: reading them here, not every group, keeps an alert's cost flat however many
// groups a replay of many nodes holds (up to CorrelatorOptions::max_groups). It holds
// pointers into the correlator's group list, whose elements stay where they are; a group is
// taken out before it is forgotten.

#include <span>
#include <string_view>
#include <vector>

#include "base/string_map.h"
#include "correlate/group_state.h"

namespace foreshock {

class FiringGroups {
 public:
  // `cluster_wide`: the group's rule groups by cluster alone.
  void Add(const GroupState* group, bool cluster_wide);
  void Remove(const GroupState* group, bool cluster_wide);
  void Clear();

  // The firing groups whose node is `node` (cluster-wide ones included).
  std::span<const GroupState* const> OnNode(std::string_view node) const { return Of(by_node_, node); }
  // The firing groups of cluster-wide rules whose cluster is `cluster`.
  std::span<const GroupState* const> ClusterWide(std::string_view cluster) const { return Of(by_cluster_, cluster); }

 private:
  using Index = StringMap<std::vector<const GroupState*>>;
  static std::span<const GroupState* const> Of(const Index& index, std::string_view key);
  static void Erase(Index* index, std::string_view key, const GroupState* group);

  Index by_node_;
  Index by_cluster_;
};

}  // namespace foreshock
