#pragma once

// Correlator turns pattern hits into alerts by applying the catalog's rules over event
// time, per group (node by default): `single` fires on a hit, `threshold` on N hits within a
// window, `sequence` walks ordered steps and escalates one alert stage by stage. Each
// group's alert fires once, escalates, repeats only after `realert`, and resolves after
// `resolve_after` without hits. An alert triggered by an outage-marker pattern carries the
// lead time since the group's first precursor alert fired.
// It never reads a clock: time comes only from the records, so a replay of an archive
// gives exactly the alerts a live run gave. State is bounded (max_groups; the least
// recently hit group is evicted and counted). Not thread-safe.

#include <deque>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/catalog.h"
#include "correlate/alert.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct CorrelatorOptions {
  size_t max_groups = 10000;   // open (rule, group) states kept at once
  size_t max_evidence = 8;     // evidence lines kept per alert
};

struct CorrelatorStats {
  uint64_t hits = 0;
  uint64_t alerts = 0;
  uint64_t inhibited = 0;  // emissions silenced by an open alert of an inhibiting rule
  uint64_t evicted = 0;    // group states dropped to stay within max_groups
};

class Correlator {
 public:
  // `catalog` must outlive *this.
  Correlator(const Catalog& catalog, const CorrelatorOptions& options);

  // Applies the hits of one record. Appends emitted alerts to *alerts.
  void Observe(const LogRecord& record, const std::vector<PatternHit>& hits,
               std::vector<Alert>* alerts);

  // Moves event time forward to `now`: resolves alerts quiet for their resolve_after.
  void AdvanceTo(TimePoint now, std::vector<Alert>* alerts);

  const CorrelatorStats& stats() const { return stats_; }

 private:
  struct GroupState {
    int rule = -1;
    std::string index_key;
    std::vector<std::pair<std::string, std::string>> group;
    std::string node;
    std::string cluster;
    std::string fingerprint;
    bool firing = false;
    int stage = 0;  // 1-based once firing
    int count = 0;
    std::deque<TimePoint> recent;  // threshold rules: hit times inside the window
    TimePoint first_seen;
    TimePoint last_hit;
    TimePoint window_start;
    TimePoint last_emitted;
    std::optional<TimePoint> precursor_fired_at;  // fired by a hit that was not an outage
    std::map<std::string, Capture> fields;
    std::vector<Evidence> evidence;
  };
  using StateList = std::list<GroupState>;

  void ApplyHit(int rule_index, int step, const LogRecord& record, const PatternHit& hit,
                std::vector<Alert>* alerts);
  // A recovery marker for `node`: resolves the open alerts of the rules that use any of the
  // patterns it resolves.
  void Recover(const Pattern& recovery, const LogRecord& record, std::vector<Alert>* alerts);
  StateList::iterator FindOrCreate(int rule_index, const std::string& key, TimePoint now);
  bool IsInhibited(const Rule& rule, const GroupState& state) const;
  std::optional<Duration> LeadTime(const GroupState& state, TimePoint now) const;
  Alert MakeAlert(const GroupState& state, Alert::Action action, TimePoint time) const;

  const Catalog& catalog_;
  CorrelatorOptions options_;
  // For each pattern: the (rule, step) pairs it feeds.
  std::vector<std::vector<std::pair<int, int>>> feeds_;
  // For each recovery pattern: the rules whose alerts it resolves.
  std::vector<std::vector<int>> recovers_;
  StateList states_;  // most recently hit first
  std::unordered_map<std::string, StateList::iterator> index_;  // "rule\x1fkey" -> state
  CorrelatorStats stats_;
};

}  // namespace foreshock
