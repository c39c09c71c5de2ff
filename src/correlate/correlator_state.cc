// Correlator::SaveState / RestoreState: the correlator's memory as JSON, keyed by rule id
// so that a restarted or reloaded watch keeps what still applies.

#include "correlate/correlator.h"

namespace foreshock {
namespace {

using Json = nlohmann::json;

int64_t Micros(TimePoint t) { return t.time_since_epoch().count(); }
TimePoint FromMicros(const Json& value) { return TimePoint(Duration(value.get<int64_t>())); }

Json OptionalTime(const std::optional<TimePoint>& t) { return t ? Json(Micros(*t)) : Json(nullptr); }
std::optional<TimePoint> ReadOptionalTime(const Json& value) {
  if (value.is_null()) return std::nullopt;
  return FromMicros(value);
}

Json CaptureJson(const Capture& capture) {
  return {{"name", capture.name}, {"text", capture.text},
          {"number", capture.number ? Json(*capture.number) : Json(nullptr)}};
}
Capture ReadCapture(const Json& value) {
  Capture capture{value.at("name"), value.at("text"), std::nullopt};
  if (!value.at("number").is_null()) capture.number = value.at("number").get<double>();
  return capture;
}

Json EvidenceJson(const Evidence& evidence) {
  return {{"time", Micros(evidence.time)}, {"pattern", evidence.pattern}, {"source", evidence.source},
          {"message", evidence.message}, {"observer", evidence.observer}, {"pinned", evidence.pinned}};
}
Evidence ReadEvidence(const Json& value) {
  // "observer" came with a later version of the state: older evidence has none.
  return Evidence{FromMicros(value.at("time")), value.at("pattern"), value.at("source"),
                  value.at("message"), value.value("observer", ""), value.at("pinned")};
}

}  // namespace

Json Correlator::SaveState() const {
  Json groups = Json::array();
  for (const GroupState& state : states_) {
    Json group;
    group["rule"] = catalog_.rules()[static_cast<size_t>(state.rule)].id;
    group["index_key"] = state.index_key;
    group["group"] = state.group;
    group["node"] = state.node;
    group["cluster"] = state.cluster;
    group["fingerprint"] = state.fingerprint;
    group["firing"] = state.firing;
    group["stage"] = state.stage;
    group["count"] = state.count;
    Json steps = Json::array();
    for (const auto& times : state.step_hits) {
      Json list = Json::array();
      for (TimePoint t : times.InOrder()) list.push_back(Micros(t));
      steps.push_back(list);
    }
    group["step_hits"] = steps;
    Json distinct = Json::object();
    for (const auto& [value, t] : state.distinct) distinct[value] = Micros(t);
    group["distinct"] = distinct;
    Json held = Json::array();
    for (const HeldHit& one : state.held) {
      Json captures = Json::array();
      for (const Capture& capture : one.captures) captures.push_back(CaptureJson(capture));
      held.push_back({{"time", Micros(one.time)}, {"step", one.step}, {"outage", one.outage},
                      {"evidence", EvidenceJson(one.evidence)}, {"captures", captures}});
    }
    group["held"] = held;
    group["first_seen"] = Micros(state.first_seen);
    group["last_hit"] = Micros(state.last_hit);
    group["window_start"] = Micros(state.window_start);
    group["last_emitted"] = Micros(state.last_emitted);
    group["precursor_fired_at"] = OptionalTime(state.precursor_fired_at);
    group["resolving_at"] = OptionalTime(state.resolving_at);
    group["resolving_why"] = state.resolving_why;
    group["absence_deadline"] = OptionalTime(state.absence_deadline);
    Json fields = Json::array();
    for (const auto& [name, capture] : state.fields) fields.push_back(CaptureJson(capture));
    group["fields"] = fields;
    Json evidence = Json::array();
    for (const Evidence& one : state.evidence) evidence.push_back(EvidenceJson(one));
    group["evidence"] = evidence;
    groups.push_back(std::move(group));
  }
  Json recent = Json::array();
  for (size_t i = 0; i < recent_records_.size(); ++i) {
    recent.push_back({Micros(recent_records_[i].arrived), recent_records_[i].key});
  }
  return {{"watermark", Micros(watermark_)}, {"last_sweep", Micros(last_sweep_)},
          {"groups", groups}, {"recent_records", recent}};
}

void Correlator::RestoreState(const Json& saved) {
  states_.clear();
  index_.clear();
  firing_.Clear();
  due_.Clear();
  activity_groups_ = 0;
  recent_records_.Clear();
  watermark_ = FromMicros(saved.at("watermark"));
  last_sweep_ = FromMicros(saved.at("last_sweep"));
  for (const Json& entry : saved.at("recent_records")) {
    recent_records_.SeenElseAdd(entry.at(1).get<uint64_t>(), FromMicros(entry.at(0)));
  }
  // Saved most recently hit first; pushing back keeps that order.
  for (const Json& group : saved.at("groups")) {
    const int rule = catalog_.FindRule(group.at("rule").get<std::string>());
    if (rule < 0) continue;
    GroupState state;
    state.rule = rule;
    state.index_key = group.at("index_key");
    state.group = group.at("group").get<std::vector<std::pair<std::string, std::string>>>();
    state.node = group.at("node");
    state.cluster = group.at("cluster");
    state.fingerprint = group.at("fingerprint");
    state.firing = group.at("firing");
    state.stage = group.at("stage");
    state.count = group.at("count");
    state.step_hits.resize(catalog_.rules()[static_cast<size_t>(rule)].steps.size());
    const Json& steps = group.at("step_hits");
    for (size_t i = 0; i < steps.size() && i < state.step_hits.size(); ++i) {
      for (const Json& t : steps[i]) state.step_hits[i].Add(FromMicros(t), keep_hits_[static_cast<size_t>(rule)]);
    }
    for (const auto& [value, t] : group.at("distinct").items()) state.distinct[value] = FromMicros(t);
    for (const Json& one : group.at("held")) {
      HeldHit hit{FromMicros(one.at("time")), one.at("step"), one.at("outage"), ReadEvidence(one.at("evidence")), {}};
      for (const Json& capture : one.at("captures")) hit.captures.push_back(ReadCapture(capture));
      state.held.push_back(std::move(hit));
    }
    state.first_seen = FromMicros(group.at("first_seen"));
    state.last_hit = FromMicros(group.at("last_hit"));
    state.window_start = FromMicros(group.at("window_start"));
    state.last_emitted = FromMicros(group.at("last_emitted"));
    state.precursor_fired_at = ReadOptionalTime(group.at("precursor_fired_at"));
    state.resolving_at = ReadOptionalTime(group.at("resolving_at"));
    state.resolving_why = group.at("resolving_why");
    state.absence_deadline = ReadOptionalTime(group.at("absence_deadline"));
    for (const Json& capture : group.at("fields")) {
      Capture one = ReadCapture(capture);
      state.fields[one.name] = one;
    }
    for (const Json& one : group.at("evidence")) state.evidence.push_back(ReadEvidence(one));
    states_.push_back(std::move(state));
    index_[states_.back().index_key] = std::prev(states_.end());
    if (states_.back().firing) firing_.Add(&states_.back(), ClusterWide(rule));
    ++index_inserts_;
    if (expects_any_rule_[static_cast<size_t>(rule)]) ++activity_groups_;
  }
  // Added from the back, so that the front is the most recent, as the list holds them.
  for (auto it = states_.rbegin(); it != states_.rend(); ++it) {
    due_.Add(&*it);
    Schedule(&*it);
  }
}

}  // namespace foreshock
