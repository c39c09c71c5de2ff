#pragma once

// Helpers the correlator uses to describe an alert: its group, a stable fingerprint, the
// evidence kept for it and the message rendered from the rule's template.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "correlate/alert.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

// The rule's group_by fields with their values for this hit: "node" and "cluster" come from
// the record, any other name from the hit's captures (empty when absent).
std::vector<std::pair<std::string, std::string>> GroupOf(const Rule& rule, const LogRecord& record,
                                                         const PatternHit& hit);

// "node=es-data-3,index=logs" in group_by order.
std::string GroupKey(const std::vector<std::pair<std::string, std::string>>& group);

// 16 hex digits of FNV-1a over the rule id and group key: stable across runs and versions.
std::string Fingerprint(const std::string& rule_id, const std::string& group_key);

// Adds the hit's evidence, keeping at most `max_evidence` entries: pinned entries (those
// that fired or escalated the alert) stay, the oldest unpinned one goes first.
void AddEvidence(const LogRecord& record, const PatternHit& hit, const std::string& pattern_id,
                 bool pinned, size_t max_evidence, std::vector<Evidence>* evidence);

// Fills "{node}", "{cluster}" and "{capture}" placeholders; unknown ones stay as written.
std::string RenderMessage(const std::string& pattern, const std::string& node,
                          const std::string& cluster, const std::map<std::string, Capture>& fields);

}  // namespace foreshock
