#pragma once

// Timeline is what a replay saw, kept for its summary and its HTML report: pattern hits per
// node, minute and pattern, the numbers the patterns captured (largest per minute), each
// outage episode (hits of an outage-marker pattern, 10 minutes apart at most) — all bounded
// by nodes x patterns x minutes with hits, not by lines —, each node's first precursor (the
// first hit of a pattern at warning or above), the clusters named, the alerts in the alert
// schema's JSON with lines of context for their evidence, and each input's counters and
// damage. RenderSummary(), SummaryJson() and RenderHtml() (html_report.h) turn it into text.

#include <cstdint>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/time.h"
#include "catalog/catalog.h"
#include "correlate/alert.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct InputReport {
  std::string name;
  std::string compression;  // "gzip", "zstd" or ""
  uint64_t records = 0;
  uint64_t malformed = 0;
  uint64_t unreadable = 0;
  std::string damage;   // empty when read to its end
  std::string failure;  // why it could not be opened or listed at all (nothing of it was read)
};

// The user-visible failure on one node: hits of one outage-marker pattern, each within
// kOutageGap of the one before.
struct OutageEpisode {
  std::string pattern;
  std::string title;
  TimePoint first{};
  TimePoint last{};
  uint64_t count = 0;
};

// One captured number over time: the largest value per minute.
struct ValueSeries {
  FieldType type = FieldType::kNumber;
  std::map<int64_t, double> per_minute;
};

// Who made the report and from what: printed at its top and in --summary-json.
struct Provenance {
  std::string version;
  std::string command_line;  // as typed, quoted where needed
  std::string catalog;       // "built-in" or the files
  std::string generated_at;  // UTC
};

struct FirstPrecursor {
  TimePoint time{};
  std::string pattern;
  std::string message;
  std::string source;
};

class Timeline {
 public:
  static constexpr size_t kMaxAlerts = 10000;

  static constexpr Duration kOutageGap = std::chrono::minutes(10);

  void NoteHits(const LogRecord& record, const std::vector<PatternHit>& hits, const Catalog& catalog);
  void NoteAlert(const Alert& alert);
  void NoteInput(InputReport input) { inputs_.push_back(std::move(input)); }

  // Lines around an evidence line, by its source ("file:line"), for the report (--context).
  void NoteContext(const std::string& source, std::vector<std::string> lines, uint64_t first_line);

  // Plain text for stderr or --summary: per node its first precursor, each alert, outage
  // markers with their lead time, outages; the busiest patterns (warning and above first);
  // what could not be read.
  std::string RenderSummary() const;
  // The same as JSON, with the provenance, for tickets and postmortem documents.
  nlohmann::json SummaryJson(const Provenance& provenance) const;

  struct Context {
    uint64_t first_line = 0;
    std::vector<std::string> lines;
  };

  struct NodeHits {
    // Minutes since the epoch -> hits of patterns at warning or above, and of info ones
    // (background noise such as moderate GC overhead).
    std::map<int64_t, uint64_t> per_minute;
    std::map<int64_t, uint64_t> info_per_minute;
    std::map<std::string, uint64_t> per_pattern;
    // Minutes since the epoch -> pattern id -> hits (for the report's hover text).
    std::map<int64_t, std::map<std::string, uint64_t>> patterns_per_minute;
    std::vector<OutageEpisode> outages;
    // (pattern id, capture name) -> its numbers.
    std::map<std::pair<std::string, std::string>, ValueSeries> values;
    FirstPrecursor first;
  };
  const std::map<std::string, NodeHits>& nodes() const { return nodes_; }
  const std::vector<nlohmann::json>& alerts() const { return alerts_; }
  const std::vector<InputReport>& inputs() const { return inputs_; }
  const std::map<std::string, uint64_t>& pattern_totals() const { return pattern_totals_; }
  // Pattern ids by hits, those at warning or above first, then info-level noise.
  std::vector<std::pair<std::string, uint64_t>> Busiest() const;
  const std::set<std::string>& clusters() const { return clusters_; }
  const std::map<std::string, Context>& contexts() const { return contexts_; }
  TimePoint first_time() const { return first_; }
  TimePoint last_time() const { return last_; }
  uint64_t alerts_left_out() const { return alerts_left_out_; }

 private:
  void Extend(TimePoint time);

  std::map<std::string, NodeHits> nodes_;
  std::map<std::string, uint64_t> pattern_totals_;
  std::map<std::string, Severity> pattern_severity_;
  std::set<std::string> clusters_;
  std::map<std::string, Context> contexts_;
  std::vector<nlohmann::json> alerts_;
  uint64_t alerts_left_out_ = 0;
  std::vector<InputReport> inputs_;
  TimePoint first_{};
  TimePoint last_{};
};

}  // namespace foreshock
