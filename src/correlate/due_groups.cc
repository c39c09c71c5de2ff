#include "correlate/due_groups.h"

#include <algorithm>

namespace foreshock {

void DueGroups::Add(GroupState* group) {
  group->serial = next_serial_++;
  group->scheduled = TimePoint::max();
  live_.insert(group->serial);
  Touch(group);
}

void DueGroups::Clear() {
  notes_ = {};
  live_.clear();
}

void DueGroups::Schedule(GroupState* group, TimePoint at) {
  if (at >= group->scheduled) return;
  group->scheduled = at;
  notes_.push({at, group->serial, group});
}

void DueGroups::TakeDue(TimePoint watermark, std::vector<GroupState*>* due) {
  due->clear();
  while (!notes_.empty() && notes_.top().at <= watermark) {
    const Note note = notes_.top();
    notes_.pop();
    // A forgotten group's note, or one an earlier note of the group took the place of.
    if (!Holds(note.serial) || note.at != note.group->scheduled) continue;
    note.group->scheduled = TimePoint::max();
    due->push_back(note.group);
  }
  std::sort(due->begin(), due->end(), [](const GroupState* a, const GroupState* b) { return a->recency > b->recency; });
}

}  // namespace foreshock
