#pragma once

// An Alert is one emission of a rule for one group (a node, a cluster, an index...): it
// fired, escalated to a later stage, or resolved. Its fingerprint is stable across the
// emissions of one group's alert, so receivers can deduplicate and update it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "catalog/catalog.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct Evidence {
  TimePoint time;
  std::string pattern;  // pattern id
  std::string source;   // "file:line"
  std::string message;  // the record's message, plus the matched line when it was deeper
  std::string observer;  // the node that logged the line (the alert's node is what it is about)
  bool pinned = false;  // advanced the alert; kept when evidence is capped
};

struct Alert {
  enum class Action { kFiring, kEscalated, kResolved };

  Action action = Action::kFiring;
  TimePoint time;  // event time of the line that fired, escalated or resolved it
  const Rule* rule = nullptr;
  Severity severity = Severity::kWarning;
  int stage = 1;  // 1-based step of a sequence rule; 1 otherwise
  std::string message;
  std::string node;     // when known
  std::string observer;  // the node that logged the line that made this emission, when one did
  std::string cluster;  // when known
  std::string fingerprint;
  int count = 0;  // hits counted for this alert so far
  TimePoint first_seen;
  TimePoint window_start;
  TimePoint window_end;
  std::vector<std::pair<std::string, std::string>> group;  // group_by field -> value
  std::map<std::string, Capture> fields;                    // latest capture of each name
  std::vector<Evidence> evidence;
  std::optional<Duration> lead_time;  // set when an outage marker triggered this emission
  std::string runbook;
};

std::string_view ActionName(Alert::Action action);  // "firing", "escalated", "resolved"

}  // namespace foreshock
