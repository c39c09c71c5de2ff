#pragma once

// Pipeline drives records through matching and correlation to the sinks. Several inputs
// (one file per node, as ES writes them) are merged by event time, record by record, so
// cluster-wide and per-node windows see one timeline exactly as they would have live and
// no node's lines are judged late because another file was read first.
// Single-threaded: the thread calling Run() does all the work.

#include <memory>
#include <vector>

#include "app/record_reader.h"
#include "catalog/catalog.h"
#include "correlate/correlator.h"
#include "match/matcher.h"
#include "sink/sink.h"

namespace foreshock {

struct PipelineSummary {
  uint64_t records = 0;
  uint64_t hits = 0;
  uint64_t alerts = 0;
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

  const PipelineSummary& summary() const { return summary_; }
  const CorrelatorStats& correlator_stats() const { return correlator_.stats(); }

 private:
  Status Process(const LogRecord& record);
  Status Emit(std::vector<Alert>* alerts);

  const Matcher& matcher_;
  Correlator correlator_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<PatternHit> hits_;
  std::vector<Alert> alerts_;
  TimePoint watermark_{};
  PipelineSummary summary_;
};

}  // namespace foreshock
