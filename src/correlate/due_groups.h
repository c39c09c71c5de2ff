#pragma once

// DueGroups: when each of the correlator's groups may next need its sweep (fire an absence,
// resolve, be forgotten: Correlator::NextDue), so that the once-a-second sweep visits only the
// groups due by the watermark, not every group held. A replay of a large cluster holds
// thousands of groups for the length of their windows; walking them all each second of a
// day's replay was the correlator's largest cost there. Times are noted lazily: a note stands
// until it comes due, and a group whose time moved later since is then noted again at its
// new time. Groups are handed out in the order the correlator's list keeps them (most
// recently hit first), as the walk of the whole list met them. It holds pointers to groups
// of the correlator's list, whose elements stay where they are; a group is removed before it
// is forgotten.

#include <cstdint>
#include <queue>
#include <unordered_set>
#include <vector>

#include "base/time.h"
#include "correlate/group_state.h"

namespace foreshock {

class DueGroups {
 public:
  // A new group, at the front of the list.
  void Add(GroupState* group);
  // A group moved to the front of the list.
  void Touch(GroupState* group) { group->recency = ++recency_clock_; }
  // A group about to be forgotten: its notes are dropped as they come due.
  void Remove(const GroupState& group) { live_.erase(group.serial); }
  void Clear();
  bool Holds(uint64_t serial) const { return live_.count(serial) > 0; }

  // Notes that `group` may be due at `at`; a later time than the one noted is found when the
  // noted one comes due.
  void Schedule(GroupState* group, TimePoint at);
  // Takes the notes due by `watermark` into *due: the live groups, each once, most recently
  // hit first. Their notes are gone: the caller schedules each again.
  void TakeDue(TimePoint watermark, std::vector<GroupState*>* due);

 private:
  struct Note {
    TimePoint at;
    uint64_t serial;
    GroupState* group;
    bool operator>(const Note& other) const { return at > other.at; }
  };
  std::priority_queue<Note, std::vector<Note>, std::greater<Note>> notes_;
  std::unordered_set<uint64_t> live_;  // serials of the groups held
  uint64_t next_serial_ = 1;
  uint64_t recency_clock_ = 0;
};

}  // namespace foreshock
