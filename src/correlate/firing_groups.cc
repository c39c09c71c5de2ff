#include "correlate/firing_groups.h"

#include <algorithm>

namespace foreshock {

void FiringGroups::Add(const GroupState* group, bool cluster_wide) {
  by_node_[group->node].push_back(group);
  if (cluster_wide) by_cluster_[group->cluster].push_back(group);
}

void FiringGroups::Remove(const GroupState* group, bool cluster_wide) {
  Erase(&by_node_, group->node, group);
  if (cluster_wide) Erase(&by_cluster_, group->cluster, group);
}

void FiringGroups::Clear() {
  by_node_.clear();
  by_cluster_.clear();
}

std::span<const GroupState* const> FiringGroups::Of(const Index& index, std::string_view key) {
  const auto it = index.find(key);
  if (it == index.end()) return {};
  return it->second;
}

void FiringGroups::Erase(Index* index, std::string_view key, const GroupState* group) {
  const auto it = index->find(key);
  if (it == index->end()) return;
  std::vector<const GroupState*>& groups = it->second;
  if (const auto found = std::find(groups.begin(), groups.end(), group); found != groups.end()) {
    *found = groups.back();
    groups.pop_back();
  }
  if (groups.empty()) index->erase(it);  // a node gone quiet costs nothing
}

}  // namespace foreshock
