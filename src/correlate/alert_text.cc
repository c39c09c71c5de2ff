#include "correlate/alert_text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "base/fnv1a.h"

namespace foreshock {
namespace {

constexpr size_t kMaxEvidenceMessage = 2000;

// The line of `text` that contains offset `at`.
std::string_view LineAt(std::string_view text, size_t at) {
  const size_t begin = text.rfind('\n', at);
  const size_t start = begin == std::string_view::npos ? 0 : begin + 1;
  const size_t end = text.find('\n', at);
  std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  return line;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> GroupOf(const Rule& rule, const std::string& node,
                                                         const std::string& cluster,
                                                         const PatternHit& hit) {
  std::vector<std::pair<std::string, std::string>> group;
  for (const std::string& field : rule.group_by) {
    std::string value;
    if (field == "node") {
      value = node;
    } else if (field == "cluster") {
      value = cluster;
    } else if (const Capture* capture = hit.Find(field)) {
      value = capture->text;
    }
    group.emplace_back(field, std::move(value));
  }
  return group;
}

void AppendGroupKey(const Rule& rule, const std::string& node, const std::string& cluster, const PatternHit& hit,
                    std::string* key) {
  bool first = true;
  for (const std::string& field : rule.group_by) {
    if (!first) *key += ',';
    first = false;
    *key += field;
    *key += '=';
    if (field == "node") {
      *key += node;
    } else if (field == "cluster") {
      *key += cluster;
    } else if (const Capture* capture = hit.Find(field)) {
      *key += capture->text;
    }
  }
}

std::string Fingerprint(std::string_view rule_id, std::string_view group_key) {
  const uint64_t hash = Fnv1a(group_key, Fnv1a("\x1f", Fnv1a(rule_id)));
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, hash);
  return buf;
}

std::string SubjectNode(const Pattern& pattern, const PatternHit& hit, const LogRecord& record) {
  const Capture* capture = nullptr;
  for (const std::string& name : pattern.subject) {
    capture = hit.Find(name);
    if (capture != nullptr && !capture->text.empty()) break;
  }
  if (capture == nullptr || capture->text.empty()) return record.node;
  std::string_view name = capture->text;
  if (name.front() == '{') {
    name = name.substr(1, name.find('}') - 1);
  } else if (name.front() == '[') {
    name = name.substr(1, name.find(']') - 1);
  }
  return std::string(name);
}

Evidence MakeEvidence(const LogRecord& record, const PatternHit& hit, const std::string& pattern_id) {
  Evidence entry;
  entry.time = record.clock_anomaly ? record.stamp : record.time;
  entry.pattern = pattern_id;
  entry.observer = record.node;
  entry.source = std::string(record.source) + ":" + std::to_string(record.line_number);
  if (!record.file.empty()) entry.source += " (" + record.file + ")";
  entry.message = std::string(record.message());
  if (hit.match_begin >= record.message_length) {
    const std::string_view line = LineAt(record.text, hit.match_begin);
    entry.message += entry.message.empty() ? "" : " | ";
    entry.message += line;
  }
  if (entry.message.size() > kMaxEvidenceMessage) {
    entry.message.resize(kMaxEvidenceMessage);
    entry.message += "…";
  }
  if (record.truncated) entry.message += " [record truncated]";
  return entry;
}

void AddEvidence(const Evidence& entry, size_t max_evidence, std::vector<Evidence>* evidence) {
  if (evidence->size() < max_evidence) {
    evidence->push_back(entry);
    return;
  }
  auto unpinned = std::find_if(evidence->begin(), evidence->end(), [](const Evidence& e) { return !e.pinned; });
  if (unpinned == evidence->end()) {
    if (!entry.pinned || evidence->size() < 2) return;
    unpinned = evidence->begin() + 1;  // keep the first line that fired the alert
  }
  // The dropped entry's place moves to the end and takes the new one in its buffers: a full
  // list (most groups' after a while) gets a line without allocating.
  Evidence dropped = std::move(*unpinned);
  std::move(unpinned + 1, evidence->end(), unpinned);
  evidence->back() = std::move(dropped);
  evidence->back() = entry;
}

void PinLatest(const Evidence& entry, std::vector<Evidence>* evidence) {
  for (auto it = evidence->rbegin(); it != evidence->rend(); ++it) {
    if (it->time == entry.time && it->source == entry.source && it->pattern == entry.pattern) {
      it->pinned = true;
      return;
    }
  }
}

Alert MakeAlert(const Rule& rule, const GroupState& state, Alert::Action action, TimePoint time) {
  const RuleStep& step = rule.steps[static_cast<size_t>(std::max(state.stage, 1) - 1)];
  Alert alert;
  alert.action = action;
  alert.time = time;
  alert.rule = &rule;
  alert.severity = step.severity;
  alert.stage = std::max(state.stage, 1);
  // A rule counting distinct nodes is about all of them, not the first one it met.
  if (rule.kind != Rule::Kind::kDistinct || rule.distinct_field != "node") alert.node = state.node;
  alert.cluster = state.cluster;
  alert.fingerprint = state.fingerprint;
  alert.count = state.count;
  alert.first_seen = state.first_seen;
  alert.window_start = state.window_start;
  alert.window_end = state.last_hit;
  alert.group = state.group;
  alert.fields = state.fields;
  alert.evidence = state.evidence;
  // A firing or an escalation is made by the line just added; a resolution by none (a
  // recovery line's node is set by its caller).
  if (action != Alert::Action::kResolved && !state.evidence.empty()) alert.observer = state.evidence.back().observer;
  alert.message = RenderMessage(step.message, state.node, state.cluster, state.fields, state.count);
  alert.runbook = RenderMessage(rule.runbook, state.node, state.cluster, state.fields, state.count);
  return alert;
}

std::string RenderMessage(const std::string& pattern, const std::string& node, const std::string& cluster,
                          const std::map<std::string, Capture>& fields, int count) {
  std::string out;
  size_t pos = 0;
  while (pos < pattern.size()) {
    const size_t open = pattern.find('{', pos);
    const size_t close = open == std::string::npos ? open : pattern.find('}', open);
    if (close == std::string::npos) {
      out.append(pattern, pos);
      break;
    }
    out.append(pattern, pos, open - pos);
    const std::string name = pattern.substr(open + 1, close - open - 1);
    if (!IsPlaceholderName(name)) {
      out.append(pattern, open, close - open + 1);  // JSON in a runbook, a regex quantifier
    } else if (name == "node") {
      out += node.empty() ? kUnnamedNode : node;
    } else if (name == "cluster") {
      out += cluster.empty() ? kUnnamedCluster : cluster;
    } else if (name == "count") {
      out += std::to_string(count);
    } else if (auto it = fields.find(name); it != fields.end()) {
      out += it->second.text;
    } else {
      out += "(" + name + " not logged)";
    }
    pos = close + 1;
  }
  return out;
}

}  // namespace foreshock
