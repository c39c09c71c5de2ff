#include "correlate/correlator.h"

#include <algorithm>

#include "correlate/alert_text.h"

namespace foreshock {

std::string_view ActionName(Alert::Action action) {
  switch (action) {
    case Alert::Action::kFiring: return "firing";
    case Alert::Action::kEscalated: return "escalated";
    case Alert::Action::kResolved: return "resolved";
  }
  return "unknown";
}

Correlator::Correlator(const Catalog& catalog, const CorrelatorOptions& options)
    : catalog_(catalog),
      options_(options),
      feeds_(catalog.patterns().size()),
      recovers_(catalog.patterns().size()) {
  for (size_t r = 0; r < catalog.rules().size(); ++r) {
    const Rule& rule = catalog.rules()[r];
    for (size_t s = 0; s < rule.steps.size(); ++s) {
      for (const std::string& id : rule.steps[s].patterns) {
        const int pattern = catalog.FindPattern(id);
        if (pattern >= 0) feeds_[static_cast<size_t>(pattern)].emplace_back(r, s);
      }
    }
  }
  for (size_t p = 0; p < catalog.patterns().size(); ++p) {
    for (const std::string& id : catalog.patterns()[p].resolves) {
      const int resolved = catalog.FindPattern(id);
      if (resolved < 0) continue;
      for (const auto& [rule, step] : feeds_[static_cast<size_t>(resolved)]) {
        recovers_[p].push_back(rule);
      }
    }
  }
}

void Correlator::Observe(const LogRecord& record, const std::vector<PatternHit>& hits,
                         std::vector<Alert>* alerts) {
  for (const PatternHit& hit : hits) {
    ++stats_.hits;
    const Pattern& pattern = catalog_.patterns()[static_cast<size_t>(hit.pattern)];
    if (pattern.marker == Marker::kRecovery) Recover(pattern, record, alerts);
    for (const auto& [rule, step] : feeds_[static_cast<size_t>(hit.pattern)]) {
      ApplyHit(rule, step, record, hit, alerts);
    }
  }
}

void Correlator::ApplyHit(int rule_index, int step, const LogRecord& record,
                          const PatternHit& hit, std::vector<Alert>* alerts) {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(rule_index)];
  const std::vector<std::pair<std::string, std::string>> group = GroupOf(rule, record, hit);
  const std::string key = GroupKey(group);
  const std::string index_key = rule.id + '\x1f' + key;
  const TimePoint now = record.time;
  const bool exists = index_.contains(index_key);
  // A sequence starts only at its first step.
  if (rule.kind == Rule::Kind::kSequence && step > 0 && !exists) return;

  auto it = FindOrCreate(rule_index, index_key, now);
  GroupState& state = *it;
  if (!exists) {
    state.group = group;
    state.node = record.node;
    state.cluster = record.cluster;
    state.fingerprint = Fingerprint(rule.id, key);
  }
  if (state.node.empty()) state.node = record.node;
  if (state.cluster.empty()) state.cluster = record.cluster;
  ++state.count;
  state.last_hit = std::max(state.last_hit, now);
  for (const Capture& capture : hit.captures) state.fields[capture.name] = capture;

  const Pattern& pattern = catalog_.patterns()[static_cast<size_t>(hit.pattern)];
  std::optional<Alert::Action> action;
  if (!state.firing) {
    bool fire = rule.kind != Rule::Kind::kThreshold;
    if (rule.kind == Rule::Kind::kThreshold) {
      state.recent.push_back(now);
      std::sort(state.recent.begin(), state.recent.end());
      while (!state.recent.empty() && state.recent.front() < now - rule.window) {
        state.recent.pop_front();
      }
      fire = static_cast<int>(state.recent.size()) >= rule.count;
    }
    if (fire && IsInhibited(rule, state)) {
      ++stats_.inhibited;
      fire = false;
    }
    if (fire) {
      action = Alert::Action::kFiring;
      state.firing = true;
      state.stage = step + 1;
      state.window_start = rule.kind == Rule::Kind::kThreshold ? state.recent.front() : now;
      if (pattern.marker != Marker::kOutage) state.precursor_fired_at = now;
    }
  } else if (rule.kind == Rule::Kind::kSequence && step + 1 > state.stage &&
             now - state.window_start <= rule.window) {
    action = Alert::Action::kEscalated;
    state.stage = step + 1;
  } else if (now - state.last_emitted >= rule.realert) {
    action = Alert::Action::kFiring;  // still firing: a reminder after realert
  }

  AddEvidence(record, hit, pattern.id, action.has_value(), options_.max_evidence,
              &state.evidence);
  if (!action) return;
  state.last_emitted = now;
  Alert alert = MakeAlert(state, *action, now);
  if (pattern.marker == Marker::kOutage) alert.lead_time = LeadTime(state, now);
  alerts->push_back(std::move(alert));
  ++stats_.alerts;
}

void Correlator::Recover(const Pattern& recovery, const LogRecord& record,
                         std::vector<Alert>* alerts) {
  const int index = catalog_.FindPattern(recovery.id);
  const std::vector<int>& rules = recovers_[static_cast<size_t>(index)];
  for (auto it = states_.begin(); it != states_.end();) {
    const bool resolves = it->node == record.node &&
                          std::find(rules.begin(), rules.end(), it->rule) != rules.end();
    if (!resolves) {
      ++it;
      continue;
    }
    if (it->firing) {
      Alert alert = MakeAlert(*it, Alert::Action::kResolved, record.time);
      alert.severity = Severity::kInfo;
      alert.message = "Resolved: " + alert.rule->name + " on " + it->node + ": " + recovery.title + ".";
      alerts->push_back(std::move(alert));
      ++stats_.alerts;
    }
    index_.erase(it->index_key);
    it = states_.erase(it);
  }
}

Correlator::StateList::iterator Correlator::FindOrCreate(int rule_index, const std::string& key,
                                                         TimePoint now) {
  if (auto found = index_.find(key); found != index_.end()) {
    states_.splice(states_.begin(), states_, found->second);
    return states_.begin();
  }
  if (states_.size() >= options_.max_groups) {
    index_.erase(states_.back().index_key);
    states_.pop_back();
    ++stats_.evicted;
  }
  GroupState state;
  state.rule = rule_index;
  state.index_key = key;
  state.first_seen = now;
  state.last_hit = now;
  states_.push_front(std::move(state));
  index_[key] = states_.begin();
  return states_.begin();
}

bool Correlator::IsInhibited(const Rule& rule, const GroupState& state) const {
  for (const std::string& id : rule.inhibited_by) {
    for (const GroupState& other : states_) {
      if (other.firing && catalog_.rules()[static_cast<size_t>(other.rule)].id == id &&
          other.node == state.node) {
        return true;
      }
    }
  }
  return false;
}

std::optional<Duration> Correlator::LeadTime(const GroupState& state, TimePoint now) const {
  std::optional<TimePoint> earliest = state.precursor_fired_at;
  for (const GroupState& other : states_) {
    if (other.firing && other.node == state.node && other.precursor_fired_at &&
        (!earliest || *other.precursor_fired_at < *earliest)) {
      earliest = other.precursor_fired_at;
    }
  }
  return earliest ? now - *earliest : Duration(0);
}

Alert Correlator::MakeAlert(const GroupState& state, Alert::Action action, TimePoint time) const {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(state.rule)];
  const RuleStep& step = rule.steps[static_cast<size_t>(std::max(state.stage, 1) - 1)];
  Alert alert;
  alert.action = action;
  alert.time = time;
  alert.rule = &rule;
  alert.severity = step.severity;
  alert.stage = std::max(state.stage, 1);
  alert.node = state.node;
  alert.cluster = state.cluster;
  alert.fingerprint = state.fingerprint;
  alert.count = state.count;
  alert.first_seen = state.first_seen;
  alert.window_start = state.window_start;
  alert.window_end = state.last_hit;
  alert.group = state.group;
  alert.fields = state.fields;
  alert.evidence = state.evidence;
  alert.message = RenderMessage(step.message, state.node, state.cluster, state.fields);
  if (action == Alert::Action::kResolved) {
    alert.message = "Resolved: " + rule.name + (state.node.empty() ? "" : " on " + state.node) +
                    ": no precursor for " + FormatDuration(rule.resolve_after) + " since " +
                    FormatTimestamp(state.last_hit) + ".";
  }
  alert.runbook = RenderMessage(rule.runbook, state.node, state.cluster, state.fields);
  return alert;
}

void Correlator::AdvanceTo(TimePoint now, std::vector<Alert>* alerts) {
  std::vector<Alert> resolved;
  for (auto it = states_.begin(); it != states_.end();) {
    const Rule& rule = catalog_.rules()[static_cast<size_t>(it->rule)];
    const Duration quiet = it->firing ? rule.resolve_after : std::max(rule.window, rule.resolve_after);
    if (now - it->last_hit < quiet) {
      ++it;
      continue;
    }
    if (it->firing) {
      Alert alert = MakeAlert(*it, Alert::Action::kResolved, it->last_hit + rule.resolve_after);
      alert.severity = Severity::kInfo;
      resolved.push_back(std::move(alert));
    }
    index_.erase(it->index_key);
    it = states_.erase(it);
  }
  std::sort(resolved.begin(), resolved.end(), [](const Alert& a, const Alert& b) {
    return a.time != b.time ? a.time < b.time : a.fingerprint < b.fingerprint;
  });
  stats_.alerts += resolved.size();
  for (Alert& alert : resolved) alerts->push_back(std::move(alert));
}

}  // namespace foreshock
