#include "correlate/correlator.h"

#include <algorithm>

#include "base/fnv1a.h"
#include "correlate/alert_text.h"

namespace foreshock {
namespace {

bool ValueHolds(const ValueCondition& condition, const std::map<std::string, Capture>& fields,
                const PatternHit& hit) {
  auto number = [&](const std::string& name) -> std::optional<double> {
    if (const Capture* capture = hit.Find(name); capture != nullptr && capture->number) return capture->number;
    if (auto it = fields.find(name); it != fields.end()) return it->second.number;
    return std::nullopt;
  };
  std::optional<double> value = number(condition.field);
  if (!value) return false;
  if (!condition.of.empty()) {
    const std::optional<double> of = number(condition.of);
    if (!of || *of == 0) return false;
    *value /= *of;
  }
  switch (condition.op) {
    case ValueCondition::Op::kGreaterEqual: return *value >= condition.bound;
    case ValueCondition::Op::kGreater: return *value > condition.bound;
    case ValueCondition::Op::kLessEqual: return *value <= condition.bound;
    case ValueCondition::Op::kLess: return *value < condition.bound;
  }
  return false;
}

uint64_t RecordKey(const LogRecord& record) {
  const int64_t micros = record.time.time_since_epoch().count();
  uint64_t hash = Fnv1a(std::string_view(reinterpret_cast<const char*>(&micros), sizeof micros));
  hash = Fnv1a(record.node, hash);
  return WordHash(record.text, hash);
}

}  // namespace

std::string_view ActionName(Alert::Action action) {
  switch (action) {
    case Alert::Action::kFiring: return "firing";
    case Alert::Action::kEscalated: return "escalated";
    case Alert::Action::kResolved: return "resolved";
  }
  return "unknown";
}

Correlator::Correlator(const Catalog& catalog, const CorrelatorOptions& options, const EventClock* clock)
    : catalog_(catalog),
      options_(options),
      clock_(clock),
      feeds_(catalog.patterns().size()),
      recovers_(catalog.patterns().size()),
      expects_(catalog.patterns().size()),
      expects_any_rule_(catalog.rules().size(), false) {
  for (size_t r = 0; r < catalog.rules().size(); ++r) {
    const Rule& rule = catalog.rules()[r];
    for (size_t s = 0; s < rule.steps.size(); ++s) {
      for (const std::string& id : rule.steps[s].patterns) {
        if (const int pattern = catalog.FindPattern(id); pattern >= 0) {
          feeds_[static_cast<size_t>(pattern)].emplace_back(r, s);
        }
      }
    }
    for (const std::string& id : rule.expect) {
      if (id == "any") {
        expects_any_.push_back(static_cast<int>(r));
        expects_any_rule_[r] = true;
      } else if (const int pattern = catalog.FindPattern(id); pattern >= 0) {
        expects_[static_cast<size_t>(pattern)].push_back(static_cast<int>(r));
      }
    }
  }
  for (size_t p = 0; p < catalog.patterns().size(); ++p) {
    for (const std::string& id : catalog.patterns()[p].resolves) {
      const int resolved = catalog.FindPattern(id);
      if (resolved < 0) continue;
      for (const auto& [rule, step] : feeds_[static_cast<size_t>(resolved)]) recovers_[p].push_back(rule);
    }
  }
  uses_.resize(catalog.patterns().size());
  for (size_t p = 0; p < catalog.patterns().size(); ++p) {
    uses_[p] = !feeds_[p].empty() || !expects_[p].empty() || !recovers_[p].empty();
  }
  // A window asks whether it holds a rule's count of hits: the latest that many are enough,
  // kept with room to spare (the earliest of a run is where its alert's window starts).
  // Repeats are remembered for the longest window (see IsDuplicate()).
  duplicate_horizon_ = options.allowed_lateness;
  for (const Rule& rule : catalog.rules()) {
    int needed = rule.count;
    for (const RuleStep& step : rule.steps) needed = std::max(needed, step.count);
    keep_hits_.push_back(std::max<size_t>(kMinKeptHits, 4 * static_cast<size_t>(needed)));
    duplicate_horizon_ = std::max(duplicate_horizon_, options.allowed_lateness + rule.window);
  }
}

bool Correlator::IsDuplicate(const LogRecord& record) {
  // Remembered by when they arrived (the watermark then), not by their stamps: a node whose
  // clock lags the others still has its repeats caught. A repeat counts twice in a window
  // while the first is in it: they are remembered for the longest window, and the lateness
  // (a shipper sending its last minutes again, a file read again from its start).
  recent_records_.ForgetBefore(watermark_ - duplicate_horizon_);
  return recent_records_.SeenElseAdd(RecordKey(record), watermark_);
}

Duration Correlator::LagOf(std::string_view node) const {
  if (clock_ == nullptr) return Duration(0);
  const Duration lag = clock_->LagOf(node);
  return lag > options_.allowed_lateness ? lag : Duration(0);
}

void Correlator::Observe(const LogRecord& record, const std::vector<PatternHit>& hits,
                         std::vector<Alert>* alerts) {
  if (record.time < watermark_ - options_.allowed_lateness) ++stats_.late;
  watermark_ = std::max(watermark_, record.time);
  if (IsDuplicate(record)) {
    ++stats_.duplicates;
    return;
  }
  for (const PatternHit& hit : hits) {
    ++stats_.hits;
    const Pattern& pattern = catalog_.patterns()[static_cast<size_t>(hit.pattern)];
    HitContext context{record.time, SubjectNode(pattern, hit, record), record.cluster, &pattern, &hit,
                       MakeEvidence(record, hit, pattern.id)};
    // Each group keeps its node's time (see the top of this file): a line about another node
    // is moved from its observer's clock to its subject's.
    if (context.node != record.node) context.time += LagOf(record.node) - LagOf(context.node);
    if (pattern.marker == Marker::kRecovery) Recover(pattern, context, alerts);
    for (int rule : expects_[static_cast<size_t>(hit.pattern)]) Disarm(rule, context, alerts);
    for (const auto& [rule, step] : feeds_[static_cast<size_t>(hit.pattern)]) {
      ApplyHit(rule, step, context, alerts);
    }
  }
}

void Correlator::NoteActivity(const LogRecord& record, std::vector<Alert>* alerts) {
  if (activity_groups_ == 0) return;  // nothing armed: no line can disarm anything
  // Every line lands here: the group keys depend on the node and cluster only, which rarely
  // change from one line to the next, so they are built once per change.
  if (record.node != activity_node_ || record.cluster != activity_cluster_ || activity_keys_.empty()) {
    static const Pattern kAnyLine;
    static const PatternHit kNoHit;
    const HitContext context{record.time, record.node, record.cluster, &kAnyLine, &kNoHit, {}};
    activity_node_ = record.node;
    activity_cluster_ = record.cluster;
    activity_keys_.clear();
    for (int rule : expects_any_) activity_keys_.push_back(IndexKey(rule, context));
    activity_keys_absent_at_ = UINT64_MAX;
  }
  if (activity_keys_absent_at_ == index_inserts_) return;
  bool any = false;
  for (size_t i = 0; i < expects_any_.size(); ++i) any = DisarmKey(activity_keys_[i], record.time, alerts) || any;
  activity_keys_absent_at_ = any ? UINT64_MAX : index_inserts_;
}

void Correlator::ApplyHit(int rule_index, int step, const HitContext& hit,
                          std::vector<Alert>* alerts) {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(rule_index)];
  std::string& index_key = index_key_scratch_;  // reused: most hits land in a group that exists
  index_key.assign(rule.id);
  index_key += '\x1f';
  AppendGroupKey(rule, hit.node, hit.cluster, *hit.hit, &index_key);
  if (rule.kind == Rule::Kind::kValue && !ValueHolds(rule.value, {}, *hit.hit)) {
    // With a count, the condition must hold that many times running: a hit that breaks it
    // starts the count again (old-gen occupancy that one collection brought down is no leak).
    if (rule.count > 1) {
      if (auto it = index_.find(index_key); it != index_.end() && !it->second->firing) it->second->step_hits[0].Clear();
    }
    return;
  }
  bool created = false;
  GroupState& state = *FindOrCreate(rule_index, index_key, hit.time, &created);
  if (created) {
    state.group = GroupOf(rule, hit.node, hit.cluster, *hit.hit);
    state.node = hit.node;
    state.cluster = hit.cluster;
    state.fingerprint = Fingerprint(rule.id, std::string_view(index_key).substr(rule.id.size() + 1));
    state.step_hits.resize(rule.steps.size());
  }
  if (state.cluster.empty() && !hit.cluster.empty()) {
    // Firing groups are found by their place: a firing group's cluster is filed anew.
    if (state.firing) firing_.Remove(&state, ClusterWide(rule_index));
    state.cluster = hit.cluster;
    if (state.firing) firing_.Add(&state, ClusterWide(rule_index));
  }
  ++state.count;
  state.last_hit = std::max(state.last_hit, hit.time);
  for (const Capture& capture : hit.hit->captures) state.fields[capture.name] = capture;
  // A hit after a recovery marker: the condition is back, the pending resolution is off.
  if (state.resolving_at && hit.time > *state.resolving_at) state.resolving_at.reset();

  const bool outage = hit.pattern->marker == Marker::kOutage;
  // Windows end at the hit's own node's time: a hit of a node whose clock lags the others'
  // still counts with that node's earlier hits.
  const TimePoint forget_before =
      std::min(watermark_, hit.time + options_.allowed_lateness) - options_.allowed_lateness - rule.window;
  const auto add_to_window = [&](HitTimes* times) {
    times->Add(hit.time, keep_hits_[static_cast<size_t>(rule_index)]);
    times->DropBefore(forget_before);
  };
  const size_t emitted_before = alerts->size();
  if (rule.kind == Rule::Kind::kSequence && !state.firing && step > 0 && !rule.start_any) {
    // A later step before the first: hold it in case the first arrives late. A first step not
    // yet late starts after forget_before, and a late one is late by little: the window keeps
    // what is after it and the held hits are the latest (in a storm of breaker trips without a
    // scroll line, the window grew without end and the first hits held stayed for good).
    add_to_window(&state.step_hits[static_cast<size_t>(step)]);
    if (state.held.size() >= options_.max_held) {
      const auto oldest = std::min_element(state.held.begin(), state.held.end(),
                                           [](const HeldHit& a, const HeldHit& b) { return a.time < b.time; });
      if (oldest == state.held.begin()) {
        state.held.pop_front();
      } else {
        state.held.erase(oldest);
      }
    }
    state.held.push_back({hit.time, step, outage, hit.evidence, hit.hit->captures});
    Schedule(&state);
    return;
  }
  AddEvidence(hit.evidence, options_.max_evidence, &state.evidence);
  switch (rule.kind) {
    case Rule::Kind::kSingle:
      if (!state.firing) Fire(&state, rule, 0, hit.time, outage, alerts);
      break;
    case Rule::Kind::kValue: {
      auto& times = state.step_hits[0];
      add_to_window(&times);
      if (!state.firing && times.CountWithin(hit.time, rule.window) >= rule.count) {
        std::optional<TimePoint> first;  // of the run that reached the count
        if (rule.count > 1) first = times.FirstFrom(hit.time - rule.window);
        Fire(&state, rule, 0, hit.time, outage, alerts, first);
      }
      break;
    }
    case Rule::Kind::kThreshold: {
      auto& times = state.step_hits[0];
      add_to_window(&times);
      if (!state.firing && times.CountWithin(hit.time, rule.window) >= rule.count) {
        Fire(&state, rule, 0, hit.time, outage, alerts, times.FirstFrom(hit.time - rule.window));
      }
      break;
    }
    case Rule::Kind::kDistinct: {
      std::string value = rule.distinct_field == "node" ? hit.node : "";
      if (const Capture* capture = hit.hit->Find(rule.distinct_field)) value = capture->text;
      TimePoint& seen = state.distinct[value];
      seen = std::max(seen, hit.time);
      std::erase_if(state.distinct, [&](const auto& entry) { return entry.second < forget_before; });
      const auto within = std::count_if(state.distinct.begin(), state.distinct.end(), [&](const auto& entry) {
        return entry.second <= hit.time && entry.second >= hit.time - rule.window;
      });
      if (!state.firing && within >= rule.count) Fire(&state, rule, 0, hit.time, outage, alerts);
      break;
    }
    case Rule::Kind::kSequence:
      add_to_window(&state.step_hits[static_cast<size_t>(step)]);
      AdvanceSequence(&state, rule, step, hit.time, outage, alerts);
      if (state.firing) ReplayHeld(&state, rule, alerts);
      break;
    case Rule::Kind::kAbsence:
      if (!state.firing && !state.absence_deadline) state.absence_deadline = hit.time + rule.window;
      break;
  }
  const bool advanced = alerts->size() > emitted_before;
  if (!advanced && state.firing && hit.time - state.last_emitted >= rule.realert) {
    Emit(&state, Alert::Action::kFiring, hit.time, outage, alerts);  // still firing: a reminder
  }
  // The line that fired or escalated the alert stays when evidence is capped.
  if (alerts->size() > emitted_before) PinLatest(hit.evidence, &state.evidence);
  Schedule(&state);
}

void Correlator::AdvanceSequence(GroupState* state, const Rule& rule, int step, TimePoint time,
                                 bool outage, std::vector<Alert>* alerts) {
  const RuleStep& spec = rule.steps[static_cast<size_t>(step)];
  if (state->step_hits[static_cast<size_t>(step)].CountWithin(time, rule.window) < spec.count) return;
  if (!state->firing) {
    Fire(state, rule, step, time, outage, alerts);
  } else if (step + 1 > state->stage && time - state->window_start <= rule.window &&
             time >= state->window_start) {
    state->stage = step + 1;
    Emit(state, Alert::Action::kEscalated, time, outage, alerts);
  }
}

void Correlator::ReplayHeld(GroupState* state, const Rule& rule, std::vector<Alert>* alerts) {
  if (state->held.empty()) return;
  std::deque<HeldHit> held = std::move(state->held);
  state->held.clear();
  std::sort(held.begin(), held.end(), [](const HeldHit& a, const HeldHit& b) { return a.time < b.time; });
  for (HeldHit& one : held) {
    if (one.time < state->window_start) continue;
    const size_t before = alerts->size();
    for (const Capture& capture : one.captures) state->fields[capture.name] = capture;
    AddEvidence(one.evidence, options_.max_evidence, &state->evidence);
    AdvanceSequence(state, rule, one.step, one.time, one.outage, alerts);
    if (alerts->size() > before) PinLatest(one.evidence, &state->evidence);
  }
}

void Correlator::Fire(GroupState* state, const Rule& rule, int step, TimePoint time, bool outage,
                      std::vector<Alert>* alerts, std::optional<TimePoint> window_start) {
  if (IsInhibited(rule, *state)) {
    ++stats_.inhibited;
    return;
  }
  state->firing = true;
  firing_.Add(state, ClusterWide(state->rule));
  state->stage = step + 1;
  state->window_start = window_start.value_or(time);
  if (!outage) state->precursor_fired_at = time;
  Emit(state, Alert::Action::kFiring, time, outage, alerts);
}

void Correlator::Emit(GroupState* state, Alert::Action action, TimePoint time, bool outage,
                      std::vector<Alert>* alerts) {
  state->last_emitted = time;
  Alert alert = MakeAlert(catalog_.rules()[static_cast<size_t>(state->rule)], *state, action, time);
  if (outage) alert.lead_time = LeadTime(*state, time);
  alerts->push_back(std::move(alert));
  ++stats_.alerts;
}

void Correlator::Recover(const Pattern& recovery, const HitContext& hit, std::vector<Alert>* alerts) {
  const std::vector<int>& rules = recovers_[static_cast<size_t>(hit.hit->pattern)];
  for (auto it = states_.begin(); it != states_.end();) {
    auto current = it++;
    if (current->node != hit.node ||
        std::find(rules.begin(), rules.end(), current->rule) == rules.end()) {
      continue;
    }
    const Rule& rule = catalog_.rules()[static_cast<size_t>(current->rule)];
    if (!current->firing) {
      Forget(current);
    } else if (rule.hold_down.count() == 0) {
      Resolve(current, hit.time, recovery.title, alerts, hit.evidence.observer);
    } else if (!current->resolving_at) {
      current->resolving_at = hit.time;
      current->resolving_why = recovery.title;
      Schedule(&*current);
    }
  }
}

std::string Correlator::IndexKey(int rule_index, const HitContext& hit) const {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(rule_index)];
  std::string key = rule.id + '\x1f';
  AppendGroupKey(rule, hit.node, hit.cluster, *hit.hit, &key);
  return key;
}

void Correlator::Disarm(int rule_index, const HitContext& hit, std::vector<Alert>* alerts) {
  DisarmKey(IndexKey(rule_index, hit), hit.time, alerts);
}

bool Correlator::DisarmKey(const std::string& index_key, TimePoint time, std::vector<Alert>* alerts) {
  auto it = Find(index_key);
  if (it == states_.end()) return false;
  if (it->firing) {
    Resolve(it, time, "the expected line arrived", alerts);
  } else if (it->absence_deadline && time >= it->last_hit) {
    Forget(it);
  }
  return true;
}

void Correlator::Resolve(StateList::iterator state, TimePoint time, const std::string& why,
                         std::vector<Alert>* alerts, const std::string& observer) {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(state->rule)];
  Alert alert = MakeAlert(rule, *state, Alert::Action::kResolved, time);
  alert.observer = observer;
  alert.severity = Severity::kInfo;
  alert.message = "Resolved: " + rule.name + (alert.node.empty() ? "" : " on " + alert.node) + ": " + why + ".";
  alerts->push_back(std::move(alert));
  ++stats_.alerts;
  Forget(state);
}

void Correlator::Forget(StateList::iterator state) {
  if (state->firing) firing_.Remove(&*state, ClusterWide(state->rule));
  due_.Remove(*state);
  if (expects_any_rule_[static_cast<size_t>(state->rule)]) --activity_groups_;
  index_.erase(state->index_key);
  states_.erase(state);
}

Correlator::StateList::iterator Correlator::Find(const std::string& index_key) {
  auto found = index_.find(index_key);
  return found == index_.end() ? states_.end() : found->second;
}

Correlator::StateList::iterator Correlator::FindOrCreate(int rule_index, const std::string& key,
                                                         TimePoint now, bool* created) {
  *created = false;
  if (auto found = index_.find(key); found != index_.end()) {
    states_.splice(states_.begin(), states_, found->second);
    due_.Touch(&states_.front());
    return states_.begin();
  }
  if (states_.size() >= options_.max_groups) {
    Forget(std::prev(states_.end()));
    ++stats_.evicted;
  }
  GroupState state;
  state.rule = rule_index;
  state.index_key = key;
  state.first_seen = now;
  state.last_hit = now;
  states_.push_front(std::move(state));
  due_.Add(&states_.front());
  index_[key] = states_.begin();
  *created = true;
  ++index_inserts_;
  if (expects_any_rule_[static_cast<size_t>(rule_index)]) ++activity_groups_;
  return states_.begin();
}

bool Correlator::ClusterWide(int rule_index) const {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(rule_index)];
  return rule.group_by.size() == 1 && rule.group_by[0] == "cluster";
}

bool Correlator::IsInhibited(const Rule& rule, const GroupState& state) const {
  if (rule.inhibited_by.empty() && !rule.implicit) return false;  // nothing can: no need to look
  // Firing groups of the same place: of its node, or of a cluster-wide rule of its cluster.
  const auto inhibits = [&](const GroupState& other) {
    if (&other == &state) return false;
    const Rule& other_rule = catalog_.rules()[static_cast<size_t>(other.rule)];
    if (std::find(rule.inhibited_by.begin(), rule.inhibited_by.end(), other_rule.id) != rule.inhibited_by.end()) {
      return true;
    }
    // A pattern's own alert is absorbed by a firing sequence that tells its story.
    if (rule.implicit && other_rule.kind == Rule::Kind::kSequence) {
      for (const RuleStep& step : other_rule.steps) {
        if (std::find(step.patterns.begin(), step.patterns.end(), rule.id) != step.patterns.end()) return true;
      }
    }
    return false;
  };
  const auto any = [&](std::span<const GroupState* const> groups) {
    return std::any_of(groups.begin(), groups.end(), [&](const GroupState* other) { return inhibits(*other); });
  };
  return any(firing_.OnNode(state.node)) || any(firing_.ClusterWide(state.cluster));
}

std::optional<Duration> Correlator::LeadTime(const GroupState& state, TimePoint now) const {
  std::optional<TimePoint> earliest = state.precursor_fired_at;
  for (const GroupState* other : firing_.OnNode(state.node)) {
    if (other->precursor_fired_at && (!earliest || *other->precursor_fired_at < *earliest)) {
      earliest = other->precursor_fired_at;
    }
  }
  return earliest ? now - *earliest : Duration(0);
}

TimePoint Correlator::NextDue(const GroupState& state, const Rule& rule) {
  TimePoint due = TimePoint::max();
  if (state.absence_deadline && !state.firing) due = std::min(due, *state.absence_deadline);
  if (state.resolving_at) due = std::min(due, *state.resolving_at + rule.hold_down);
  if (state.firing) due = std::min(due, state.last_hit + rule.resolve_after);
  if (!state.firing && !state.absence_deadline) {
    due = std::min(due, state.last_hit + std::max(rule.window, rule.resolve_after));
  }
  return due;
}

void Correlator::Schedule(GroupState* state) {
  due_.Schedule(state, NextDue(*state, catalog_.rules()[static_cast<size_t>(state->rule)]));
}

void Correlator::AdvanceTo(TimePoint now, std::vector<Alert>* alerts, bool force) {
  watermark_ = std::max(watermark_, now);
  // Time-driven decisions need second precision at most: sweep the groups once per second of
  // event time, not once per record.
  if (!force && watermark_ < next_sweep()) return;
  last_sweep_ = watermark_;
  std::vector<Alert> emitted;
  // Only the groups due by the watermark: the node's lag, which only moves its time back, is
  // asked of those alone (a replay of many nodes holds thousands of groups).
  due_.TakeDue(watermark_, &due_scratch_);
  for (GroupState* group : due_scratch_) {
    if (Sweep(Find(group->index_key), &emitted)) Schedule(group);
  }
  std::stable_sort(emitted.begin(), emitted.end(), [](const Alert& a, const Alert& b) {
    return a.time != b.time ? a.time < b.time : a.fingerprint < b.fingerprint;
  });
  for (Alert& alert : emitted) alerts->push_back(std::move(alert));
}

bool Correlator::Sweep(StateList::iterator current, std::vector<Alert>* emitted) {
  const Rule& rule = catalog_.rules()[static_cast<size_t>(current->rule)];
  // Each group at its own node's time (see the top of correlator.h).
  const TimePoint settled = watermark_ - LagOf(current->node);
  if (current->absence_deadline && *current->absence_deadline <= settled && !current->firing) {
    const TimePoint deadline = *current->absence_deadline;
    if (auto cut = cut_after_.find(current->node); cut != cut_after_.end() && deadline > cut->second) {
      ++stats_.absences_unjudged;
      Forget(current);
      return false;
    }
    current->absence_deadline.reset();
    current->last_hit = deadline;
    Fire(&*current, rule, 0, deadline, false, emitted);
    if (!current->firing) {  // inhibited
      Forget(current);
      return false;
    }
    return true;
  }
  if (current->resolving_at && *current->resolving_at + rule.hold_down <= settled) {
    Resolve(current, *current->resolving_at, current->resolving_why, emitted);
    return false;
  }
  if (current->firing && current->last_hit + rule.resolve_after <= settled) {
    // Quiet after the node's input was cut is unknown too: the alert stays open.
    if (auto cut = cut_after_.find(current->node);
        cut != cut_after_.end() && current->last_hit + rule.resolve_after > cut->second) {
      return true;
    }
    Resolve(current, current->last_hit + rule.resolve_after,
            "no precursor for " + FormatDuration(rule.resolve_after) + " since " + FormatTimestamp(current->last_hit),
            emitted);
    return false;
  }
  if (!current->firing && !current->absence_deadline &&
      current->last_hit + std::max(rule.window, rule.resolve_after) <= settled) {
    Forget(current);
    return false;
  }
  return true;
}

}  // namespace foreshock
