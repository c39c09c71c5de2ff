#pragma once

// Pipeline drives records through matching and correlation to the sinks. Several inputs
// (one file per node, as ES writes them) are merged by event time, record by record, so
// cluster-wide and per-node windows see one timeline exactly as they would have live and
// no node's lines are judged late because another file was read first.
// Between records, Run() (and watch's follower, through PassQuietRun()) lets an input pass
// over a run of quiet records (ruled out by the prefilter on their raw bytes, see
// RecordReader::SkipQuietRun) whose only effect would be on counts and watermarks: while no
// activity is armed, and their times fall before the correlator's next sweep, before the
// reorder buffer would let a held hit go, and before every other input's next record. The
// alerts are exactly those of record-by-record processing. Single-threaded: the thread
// calling Run() does all the work.

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <memory>
#include <vector>

#include "app/record_reader.h"
#include "base/report_limiter.h"
#include "catalog/catalog.h"
#include "correlate/correlator.h"
#include "correlate/event_clock.h"
#include "correlate/reorder_buffer.h"
#include "learn/novelty_detector.h"
#include "match/matcher.h"
#include "sink/sink.h"

namespace foreshock {

struct PipelineSummary {
  uint64_t records = 0;
  uint64_t hits = 0;
  uint64_t alerts = 0;
  uint64_t late = 0;  // hit records older than what was already correlated
  uint64_t clock_anomalies = 0;  // stamps their node's clock refuted (see EventClock)
  Severity highest = Severity::kInfo;  // of the firing/escalated alerts
  bool any_alert = false;
  bool output_closed = false;          // stdout went away; the run stopped early
  uint64_t failed_inputs = 0;  // inputs that failed part way: reported, the rest of each passed over
};

// One input's next record in Run()'s merge by event time, with the records read past it to
// judge its stamp: `key` is when it goes in the merge, normally its time; a stray stamp far
// from the input's others goes where they go.
struct MergeHead {
  LogRecord record;
  bool full = false;
  bool done = false;
  TimePoint key{};
  std::deque<LogRecord> ahead;
  bool ahead_done = false;
  Status ahead_failure;  // why the input ended while reading ahead; handed out after `ahead`
  TimePoint last{};  // the input's last stamped record that went
  bool has_last = false;
  std::set<std::string> nodes;  // of the records that went
  std::string last_node;        // of the last record that went

  // Fills `record` (from `ahead` first) unless the input is idle or ended.
  Result<RecordStream::Next> Fill(RecordStream* input, Duration wait, Duration max_jump);
  // `record` went into the pipeline.
  void Went();
};

class Pipeline {
 public:
  // `catalog` and `matcher` must outlive *this.
  Pipeline(const Catalog& catalog, const Matcher& matcher, const CorrelatorOptions& options,
           std::vector<std::unique_ptr<Sink>> sinks);

  // Reads every input to its end (the streams stay the caller's, for their counters). An
  // input that fails part way is reported on stderr and counted (summary().failed_inputs),
  // and the others go on. Returns the first sink error.
  Status Run(const std::vector<RecordStream*>& streams);
  Status Run(const std::vector<std::unique_ptr<RecordReader>>& readers);

  // The push interface `watch` drives. How many live inputs interleave (the follower says so
  // at each step) decides whether hits wait (briefly) for earlier lines of other inputs.
  void SetLiveInputs(int count);
  // For inputs read in rounds (watch's follower): a round that began at `began` read every
  // input to its end, and `record_being_written` says one of them ends with a record not yet
  // ended (a line part way written, a plain record that may get more lines). A held hit then
  // goes by wall time only after a round that began max_hold after its hold (a reader slow to
  // come back to an input must not let a hit pass that input's earlier line, already
  // written), and not while a record is being written (it may be older); so is a stamp the
  // event clock holds decided. Without rounds (Run(), or after
  // EndReadRounds()), wall time alone decides.
  void NoteReadRound(std::chrono::steady_clock::time_point began, bool record_being_written);
  void EndReadRounds() { read_in_rounds_ = false; }
  Status Process(const LogRecord& record, bool live);
  // Lets `input` pass over a run of quiet records (see the top of this file) when one may go
  // now, given the earliest next record of the other inputs (TimePoint::max() when `input`
  // is not merged with others); *passed (when given) is set to the records passed over.
  Status PassQuietRun(RecordStream* input, TimePoint others_earliest, bool live, uint64_t* passed = nullptr);
  // A live input went quiet: held hits go, and event time moves on with the wall clock so
  // alerts resolve and absences fire although no line arrives.
  Status OnIdle();
  // End of input: every held hit goes, and time-driven decisions catch up.
  Status Finish();
  // True when no hit waits in the reorder buffer or the clock: a checkpoint taken now loses
  // nothing.
  bool quiescent() const { return reorder_.empty() && !clock_.holding(); }

  nlohmann::json SaveCorrelation() const { return correlator_->SaveState(); }
  void RestoreCorrelation(const nlohmann::json& state) { correlator_->RestoreState(state); }
  // Switches to a reloaded catalog, keeping the correlation state of the rules that remain.
  // `catalog` and `matcher` must outlive *this.
  Status ReplaceCatalog(const Catalog& catalog, const Matcher& matcher);

  // Alerts foreshock raises about itself (a failing destination, lost data): they go to the
  // same outputs as the catalog's.
  Status EmitOwn(std::vector<Alert>* alerts) { return Emit(alerts); }
  // Called with every record that matched, before correlation; it may remove hits (replay's
  // --pattern) and note them (replay's timeline).
  using HitHook = std::function<void(const LogRecord&, std::vector<PatternHit>*)>;
  void SetHitHook(HitHook hook) { hit_hook_ = std::move(hook); }
  // --exhaustive: every hit is captured and goes to the correlator, even those of patterns
  // no rule uses (which otherwise go bare and are only counted). The alerts are the same.
  void SetExhaustive(bool exhaustive) { exhaustive_ = exhaustive; }
  // Looks for unknown precursors too (null: off): records no curated pattern hit are shown
  // to `novelty`, whose hits correlate like any other, and alerts of learned rules are info
  // while it is not Mature(). `novelty` must outlive *this.
  void SetNovelty(NoveltyDetector* novelty) { novelty_ = novelty; }
  // Calls `tick` about every `period` of wall-clock time, from Process() and OnIdle(), for
  // work that must go on while Run() has the thread (metrics, self-monitoring).
  void SetTick(std::chrono::steady_clock::duration period, std::function<Status()> tick);

  const PipelineSummary& summary() const { return summary_; }
  // Hits per pattern id, and alerts per (rule id, severity, action), for metrics.
  std::map<std::string, uint64_t> pattern_hits() const;
  const std::map<std::tuple<std::string, std::string, std::string>, uint64_t>& alert_counts() const {
    return alert_counts_;
  }
  // The newest event time seen; zero before any record.
  TimePoint newest_event() const { return watermark_; }
  const CorrelatorStats& correlator_stats() const { return correlator_->stats(); }

 private:
  // The event time before which a record that hits nothing changes only counts and
  // watermarks (see the top of this file), given the earliest next record of the other
  // inputs; TimePoint::min() when there is no such time.
  TimePoint QuietBefore(TimePoint others_earliest, bool live) const;
  // Moves the newest event time seen to `time` if later (and notes when, for live inputs).
  void NoteTime(TimePoint time, bool live);
  // *deferred_: `record` (handed out by its shape, header-only) with its line decoded in full.
  void DecodeDeferred(const LogRecord& record);
  // The part of Process() after matching, for a record at the time the clock gave it.
  Status Correlate(const LogRecord& record, std::vector<PatternHit>* hits, bool live);
  // Correlates the records the clock let go (timed_).
  Status CorrelateTimed(bool live);
  // Lets go of what the clock holds: everything at `end`, else what waited long enough.
  Status FlushClock(bool live, bool end);
  void ReportAnomaly(const LogRecord& record);
  // A hit too late to reorder (before what was released): applied out of order, so alerts may
  // differ from the logs' story. Said on stderr with the line's place.
  void ReportLate(const LogRecord& record);
  // `input` ended early, damaged or failing: its nodes' silence after it is not judged.
  void NoteInputCut(const RecordStream& input, const MergeHead& head);
  // Accounts for `count` such records, the newest at `newest`, as Process() would have.
  Status PassQuiet(std::string_view input, uint64_t count, TimePoint newest, bool live);
  // Applies the hits the reorder buffer lets go, in event-time order.
  Status Release(bool live, bool end);
  // A time after which every live input was read to its end (see NoteReadRound()): the
  // wall clock, or the last round's start; time_point::min() while a record is being written.
  std::chrono::steady_clock::time_point InputsReadAt() const;
  Status Emit(std::vector<Alert>* alerts);
  Status MaybeTick();

  const Catalog* catalog_;
  const Matcher* matcher_;
  EventClock clock_;  // before correlator_, which reads it
  std::unique_ptr<Correlator> correlator_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<PatternHit> hits_;
  std::vector<Alert> alerts_;
  ReorderBuffer reorder_;
  std::vector<TimedRecord> timed_;
  // Clock anomalies: reported freely 5 times, then once per 10 s.
  ReportLimiter anomaly_reports_{5, std::chrono::seconds(10)};
  // Late hits: the first with what to do about it, then once a minute (a file read after
  // another comes late line after line).
  ReportLimiter late_reports_{1, std::chrono::minutes(1)};
  std::vector<std::unique_ptr<HeldRecord>> released_;
  CorrelatorOptions options_;
  TimePoint watermark_{};
  std::chrono::steady_clock::time_point watermark_seen_at_{};
  int live_inputs_ = 0;
  bool read_in_rounds_ = false;  // see NoteReadRound()
  std::chrono::steady_clock::time_point round_began_{};
  bool record_being_written_ = false;
  PipelineSummary summary_;
  std::vector<uint64_t> pattern_hits_;  // by pattern index: counted without a lookup per hit
  std::map<std::string, uint64_t> replaced_pattern_hits_;  // by id, counted under catalogs since replaced
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t> alert_counts_;
  std::chrono::steady_clock::duration tick_period_{};
  std::function<Status()> tick_;
  HitHook hit_hook_;
  bool exhaustive_ = false;
  NoveltyDetector* novelty_ = nullptr;
  // A record the detector could not settle by its shape, decoded in full (DecodeDeferred).
  LogRecord deferred_;
  std::map<std::string_view, std::unique_ptr<DecoderSet>> deferred_decoders_;  // by format
  std::chrono::steady_clock::time_point next_tick_{};
  uint32_t records_since_tick_check_ = 0;
};

}  // namespace foreshock
