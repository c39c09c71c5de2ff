#pragma once

// Helpers the correlator uses to describe an alert: its group, a stable fingerprint, the
// evidence kept for it and the message rendered from the rule's template.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "correlate/alert.h"
#include "correlate/group_state.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

// The rule's group_by fields with their values for this hit: "node" and "cluster" as given,
// any other name from the hit's captures (empty when absent).
std::vector<std::pair<std::string, std::string>> GroupOf(const Rule& rule, const std::string& node,
                                                         const std::string& cluster,
                                                         const PatternHit& hit);

// The node a line is about: the pattern's `subject` capture when it has one ("{es-data-3}{aB}
// {10.0.0.3}" or "[es-data-3]" -> "es-data-3"), else the node that wrote it.
std::string SubjectNode(const Pattern& pattern, const PatternHit& hit, const LogRecord& record);

// Appends the group's key, "node=es-data-3,index=logs" in group_by order, to *key, without
// building the group: asked of every hit, where most groups exist already.
void AppendGroupKey(const Rule& rule, const std::string& node, const std::string& cluster, const PatternHit& hit,
                    std::string* key);

// 16 hex digits of FNV-1a over the rule id and group key: stable across runs and versions.
std::string Fingerprint(std::string_view rule_id, std::string_view group_key);

// The evidence a hit gives: its time, pattern, "file:line" and message (plus the matched line
// when the match was deeper in the record, and a mark when the record was cut).
Evidence MakeEvidence(const LogRecord& record, const PatternHit& hit, const std::string& pattern_id);

// Adds `entry`, keeping at most `max_evidence` entries: pinned entries (those that fired or
// escalated the alert) stay, the oldest unpinned one goes first.
void AddEvidence(const Evidence& entry, size_t max_evidence, std::vector<Evidence>* evidence);

// Marks the evidence entry for `entry` (the latest one with its source and time) as pinned.
void PinLatest(const Evidence& entry, std::vector<Evidence>* evidence);

// The alert `state` emits for `rule` now: its stage's message and severity, its group, its
// captured fields and evidence.
Alert MakeAlert(const Rule& rule, const GroupState& state, Alert::Action action, TimePoint time);

// What an alert's text says for a node or cluster the logs did not name.
inline constexpr const char* kUnnamedNode = "(node not named in the log)";
inline constexpr const char* kUnnamedCluster = "(cluster not named in the log; see --cluster)";

// Fills the placeholders of a rule's message or runbook: {node}, {cluster}, {count} (the
// hits counted) and {capture} (a named capture of its patterns). No placeholder reaches an
// alert unfilled: an unnamed node or cluster says so (kUnnamedNode, kUnnamedCluster), a
// capture its lines did not have says "(name not logged)". Braces around anything but a
// lowercase name (JSON in a runbook) stay as written.
std::string RenderMessage(const std::string& pattern, const std::string& node, const std::string& cluster,
                          const std::map<std::string, Capture>& fields, int count);

}  // namespace foreshock
