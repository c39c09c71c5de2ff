#pragma once

// Pipeline drives records through matching and correlation to the sinks. Several inputs
// (one file per node, as ES writes them) are merged by event time, record by record, so
// cluster-wide and per-node windows see one timeline exactly as they would have live and
// no node's lines are judged late because another file was read first.
// Single-threaded: the thread calling Run() does all the work.

#include <chrono>
#include <nlohmann/json.hpp>
#include <memory>
#include <vector>

#include "app/record_reader.h"
#include "catalog/catalog.h"
#include "correlate/correlator.h"
#include "correlate/reorder_buffer.h"
#include "match/matcher.h"
#include "sink/sink.h"

namespace foreshock {

struct PipelineSummary {
  uint64_t records = 0;
  uint64_t hits = 0;
  uint64_t alerts = 0;
  uint64_t late = 0;  // hit records older than what was already correlated
  Severity highest = Severity::kInfo;  // of the firing/escalated alerts
  bool any_alert = false;
  bool output_closed = false;          // stdout went away; the run stopped early
};

class Pipeline {
 public:
  // `catalog` and `matcher` must outlive *this.
  Pipeline(const Catalog& catalog, const Matcher& matcher, const CorrelatorOptions& options,
           std::vector<std::unique_ptr<Sink>> sinks);

  // Reads every input to its end (the readers stay the caller's, for their counters).
  // Returns the first input or sink error.
  Status Run(const std::vector<std::unique_ptr<RecordReader>>& readers);

  // The push interface `watch` drives. How many live inputs interleave decides whether hits
  // wait (briefly) for earlier lines of other inputs.
  void SetLiveInputs(int count);
  Status Process(const LogRecord& record, bool live);
  // A live input went quiet: held hits go, and event time moves on with the wall clock so
  // alerts resolve and absences fire although no line arrives.
  Status OnIdle();
  // End of input: every held hit goes, and time-driven decisions catch up.
  Status Finish() { return Release(/*live=*/true, /*end=*/true); }
  // True when no hit waits in the reorder buffer: a checkpoint taken now loses nothing.
  bool quiescent() const { return reorder_.empty(); }

  nlohmann::json SaveCorrelation() const { return correlator_->SaveState(); }
  void RestoreCorrelation(const nlohmann::json& state) { correlator_->RestoreState(state); }
  // Switches to a reloaded catalog, keeping the correlation state of the rules that remain.
  // `catalog` and `matcher` must outlive *this.
  Status ReplaceCatalog(const Catalog& catalog, const Matcher& matcher);

  const PipelineSummary& summary() const { return summary_; }
  const CorrelatorStats& correlator_stats() const { return correlator_->stats(); }

 private:
  // Applies the hits the reorder buffer lets go, in event-time order.
  Status Release(bool live, bool end);
  Status Emit(std::vector<Alert>* alerts);

  const Matcher* matcher_;
  std::unique_ptr<Correlator> correlator_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<PatternHit> hits_;
  std::vector<Alert> alerts_;
  ReorderBuffer reorder_;
  std::vector<HeldRecord> released_;
  CorrelatorOptions options_;
  TimePoint watermark_{};
  std::chrono::steady_clock::time_point watermark_seen_at_{};
  PipelineSummary summary_;
};

}  // namespace foreshock
