#pragma once

// Correlator turns pattern hits into alerts by applying the catalog's rules over event
// time, per group (node by default; a hit "about" another node, such as node-left, counts for
// that node): `single` fires on a hit; `threshold` on N hits within a window; `distinct` on N
// distinct values of a field (nodes) within a window; `value` when a numeric capture crosses a
// bound; `sequence` walks ordered steps and escalates one alert stage by stage; `absence`
// fires when a trigger is not followed by an expected line in time. Each group's alert fires
// once, escalates, repeats only after `realert`, and resolves after `resolve_after` without
// hits, or when a recovery marker arrives and no hit follows within `hold_down` (so a
// flapping condition does not produce a storm of fire/resolve pairs). An alert triggered by
// an outage-marker pattern carries the lead time since the group's first precursor alert.
//
// It never reads a clock: time comes only from the records and AdvanceTo(), so a replay of
// an archive gives exactly the alerts a live run gave. It expects records in event-time
// order (the ReorderBuffer restores it) and still tolerates some disorder: windows count
// around each hit's own time and a sequence's early later steps are held until it starts.
// Late records are still used, and counted. The same record seen twice (within the longest
// rule window and `allowed_lateness` of its arrival, the last RecentRecords::kCapacity hit records)
// is counted once. State is bounded: at most max_groups groups (the least recently hit is
// evicted, and counted). Not thread-safe.
//
// The time model, stage by stage (the README says it in short):
// - A record's stamp is the time it carries (its line's, else its envelope's: journald,
//   Filebeat, container runtimes). No record is ever stamped with the wall clock: one without a
//   time takes the previous record's of its input (RecordReader), and before the input's first
//   timed record it is held until that one comes and takes its time; at the end of an input
//   that never had one it goes untimed and EventClock gives it its node's time.
// - Its correlation time is decided by EventClock (event_clock.h), which keeps one clock per
//   input and node: normally the stamp; for a stamp more than max_clock_jump from its node's
//   clock (ahead or behind) that the node's next records do not confirm, the node's time then
//   (a clock anomaly: its evidence keeps its stamp). One record can move neither its node's
//   clock nor any other: a jump moves a clock only once 2 more records go on from it, and the
//   stream's first stamps wait until one of them is confirmed so.
// - The Pipeline merges inputs by correlation time (a stray stamp does not hold its input
//   back), holds hits in the ReorderBuffer until the newest time seen is allowed_lateness past
//   them, and calls AdvanceTo() with that settled time; live inputs also move it on with the
//   wall clock while idle (OnIdle), and, when several are merged, let held hits go after
//   150 ms of waiting for the others' earlier lines (one live input waits for nothing), never
//   past an older line EventClock still holds.
// - Here, hits are counted at their correlation time, and a hit about another node (its
//   subject) is moved onto that node's clock by the difference of the two nodes' lags. Time-
//   driven decisions (resolutions, absences, forgetting) judge each group at the settled time
//   less its node's lag: how far that node's stamps run behind its input's newest, as
//   EventClock measures it (zero unless more than allowed_lateness). So in a merged stream a
//   node whose clock is steadily minutes slow is neither taken for silent nor resolved early;
//   separate inputs are never compared (a file read in bursts is no skew).

#include <list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/string_map.h"
#include "catalog/catalog.h"
#include "correlate/alert.h"
#include "correlate/due_groups.h"
#include "correlate/event_clock.h"
#include "correlate/firing_groups.h"
#include "correlate/group_state.h"
#include "correlate/recent_records.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct CorrelatorOptions {
  size_t max_groups = 10000;  // open (rule, group) states kept at once
  size_t max_evidence = 8;    // evidence lines kept per alert
  size_t max_held = 64;       // out-of-order sequence hits held per group (the latest)
  Duration allowed_lateness = std::chrono::seconds(30);
  Duration max_clock_jump = std::chrono::minutes(5);  // see EventClock
};

struct CorrelatorStats {
  uint64_t hits = 0;
  uint64_t alerts = 0;
  uint64_t inhibited = 0;   // emissions silenced by an open alert of an inhibiting rule
  uint64_t evicted = 0;     // group states dropped to stay within max_groups
  uint64_t late = 0;        // records older than the watermark minus the allowed lateness
  uint64_t duplicates = 0;  // records seen before (same time, node and text), not counted again
  uint64_t absences_unjudged = 0;  // absences of a node whose input was cut: not raised
};

class Correlator {
 public:
  // `catalog` must outlive *this, and so must `clock` (the nodes' clocks; null: every node's
  // clock is the stream's).
  Correlator(const Catalog& catalog, const CorrelatorOptions& options, const EventClock* clock = nullptr);

  // Whether hits of `pattern` can change anything here: some rule counts it, waits for it,
  // or is resolved by it. The others (building blocks no rule uses yet) need not be held,
  // copied or given evidence: the pipeline counts them and gives Observe() only the rest.
  bool Uses(int pattern) const { return uses_[static_cast<size_t>(pattern)]; }
  const std::vector<bool>& uses() const { return uses_; }  // by pattern

  // Applies the hits of one record. Appends emitted alerts to *alerts.
  void Observe(const LogRecord& record, const std::vector<PatternHit>& hits,
               std::vector<Alert>* alerts);

  // True when some rule waits for any line of a node (absence rules with `expect: any`):
  // then every record, hit or not, must go through NoteActivity().
  bool wants_activity() const { return !expects_any_.empty(); }
  void NoteActivity(const LogRecord& record, std::vector<Alert>* alerts);
  // The input carrying `node`'s lines was cut by damage after `last`: the end of a damaged
  // input is not silence, so the node's absences due after `last` are dropped, not raised,
  // and its alerts are not resolved for a quiet that ends after `last`: they stay open.
  void NoteInputCut(const std::string& node, TimePoint last) { cut_after_[node] = last; }
  // True while some group of such a rule is armed: only then can NoteActivity() change
  // anything.
  bool activity_armed() const { return activity_groups_ > 0; }

  // Moves event time forward to `now`: resolves alerts, fires overdue absences. Groups are
  // swept at most once per second of event time unless `force` (end of input).
  void AdvanceTo(TimePoint now, std::vector<Alert>* alerts, bool force = false);
  // The event time from which AdvanceTo() sweeps again; before it, AdvanceTo() only moves
  // the watermark.
  TimePoint next_sweep() const { return last_sweep_ + std::chrono::seconds(1); }

  TimePoint watermark() const { return watermark_; }
  const CorrelatorStats& stats() const { return stats_; }

  // Everything the correlator remembers (open windows, firing alerts and what they sent), as
  // JSON, so a restarted `watch` neither forgets a chain half-way nor repeats an alert.
  nlohmann::json SaveState() const;
  // Restores SaveState() output. Groups of rules the catalog no longer has are dropped.
  void RestoreState(const nlohmann::json& state);

 private:
  using StateList = std::list<GroupState>;

  // What one hit means for the rules: when, about which node, with what evidence.
  struct HitContext {
    TimePoint time;
    std::string node;
    std::string cluster;
    const Pattern* pattern = nullptr;
    const PatternHit* hit = nullptr;
    Evidence evidence;
  };

  bool IsDuplicate(const LogRecord& record);
  void ApplyHit(int rule_index, int step, const HitContext& hit, std::vector<Alert>* alerts);
  void AdvanceSequence(GroupState* state, const Rule& rule, int step, TimePoint time, bool outage,
                       std::vector<Alert>* alerts);
  void ReplayHeld(GroupState* state, const Rule& rule, std::vector<Alert>* alerts);
  void Fire(GroupState* state, const Rule& rule, int step, TimePoint time, bool outage,
            std::vector<Alert>* alerts, std::optional<TimePoint> window_start = std::nullopt);
  void Emit(GroupState* state, Alert::Action action, TimePoint time, bool outage,
            std::vector<Alert>* alerts);
  void Recover(const Pattern& recovery, const HitContext& hit, std::vector<Alert>* alerts);
  void Disarm(int rule_index, const HitContext& hit, std::vector<Alert>* alerts);
  // False when no group has that key (nothing to disarm).
  bool DisarmKey(const std::string& index_key, TimePoint time, std::vector<Alert>* alerts);
  // The state index key of `rule_index` for this hit's group.
  std::string IndexKey(int rule_index, const HitContext& hit) const;
  // Drops a group state, from the list and the index.
  void Forget(StateList::iterator state);
  // `observer`: the node whose recovery line resolved it, if one did.
  void Resolve(StateList::iterator state, TimePoint time, const std::string& why,
               std::vector<Alert>* alerts, const std::string& observer = "");
  StateList::iterator Find(const std::string& index_key);
  // The group state of `index_key`, made (and *created set) when there was none.
  StateList::iterator FindOrCreate(int rule_index, const std::string& index_key, TimePoint now, bool* created);
  // Whether rule `rule_index` groups by cluster alone.
  bool ClusterWide(int rule_index) const;
  bool IsInhibited(const Rule& rule, const GroupState& state) const;
  std::optional<Duration> LeadTime(const GroupState& state, TimePoint now) const;

  // The earliest event time at which AdvanceTo()'s sweep may act on `state` (fire its
  // absence, resolve or forget it), at its node's time.
  static TimePoint NextDue(const GroupState& state, const Rule& rule);
  // Notes the group's NextDue() for the sweep; called whenever it may have come earlier.
  void Schedule(GroupState* state);
  // The sweep of one group due by the watermark, at its node's time; false when it was
  // forgotten (resolved, or its window passed).
  bool Sweep(StateList::iterator state, std::vector<Alert>* emitted);
  // How far `node`'s clock is behind the stream, when more than allowed_lateness (else zero).
  Duration LagOf(std::string_view node) const;

  const Catalog& catalog_;
  CorrelatorOptions options_;
  const EventClock* clock_;
  std::vector<std::vector<std::pair<int, int>>> feeds_;  // pattern -> (rule, step)
  std::vector<std::vector<int>> recovers_;               // recovery pattern -> rules it resolves
  std::vector<std::vector<int>> expects_;                // pattern -> absence rules it satisfies
  std::vector<bool> uses_;                               // pattern -> Uses()
  std::vector<int> expects_any_;                         // absence rules satisfied by any line
  std::vector<bool> expects_any_rule_;                   // per rule: is it one of those
  size_t activity_groups_ = 0;                           // groups of those rules, armed
  std::string activity_node_;                            // NoteActivity's keys are for this node
  std::string activity_cluster_;                         // and cluster
  std::vector<std::string> activity_keys_;
  // index_inserts_ when none of activity_keys_ was in the index (groups are only ever added
  // there, so until the next insert none can be): lines then skip the lookups.
  uint64_t activity_keys_absent_at_ = UINT64_MAX;
  StateList states_;  // most recently hit first
  FiringGroups firing_;  // those of states_ firing
  DueGroups due_;        // when each of states_ is next due
  std::vector<GroupState*> due_scratch_;
  StringMap<StateList::iterator> index_;
  uint64_t index_inserts_ = 0;
  TimePoint watermark_{};
  TimePoint last_sweep_{};
  std::string index_key_scratch_;  // ApplyHit()'s group key, its buffer kept from hit to hit
  RecentRecords recent_records_;  // for duplicate detection
  Duration duplicate_horizon_{};  // how long they are remembered: see IsDuplicate()
  std::vector<size_t> keep_hits_;  // rule -> the most hit times a window of it keeps
  static constexpr size_t kMinKeptHits = 1024;
  CorrelatorStats stats_;
  std::map<std::string, TimePoint> cut_after_;  // node -> its last line before its input was cut
};

}  // namespace foreshock
