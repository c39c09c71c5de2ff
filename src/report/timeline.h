#pragma once

// Timeline is what a replay saw, kept for its summary and its HTML report: pattern hits per
// node and minute (bounded by nodes x patterns x minutes with hits, not by lines), each
// node's first precursor (the first hit of a pattern at warning or above), the alerts in the alert schema's JSON, and each input's counters
// and damage. RenderSummary() and RenderHtml() (html_report.h) turn it into text.

#include <cstdint>
#include <map>
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

struct FirstPrecursor {
  TimePoint time{};
  std::string pattern;
  std::string message;
  std::string source;
};

class Timeline {
 public:
  static constexpr size_t kMaxAlerts = 10000;

  void NoteHits(const LogRecord& record, const std::vector<PatternHit>& hits, const Catalog& catalog);
  void NoteAlert(const Alert& alert);
  void NoteInput(InputReport input) { inputs_.push_back(std::move(input)); }

  // Plain text for stderr or --summary: per node its first precursor, each alert, outage
  // markers with their lead time; the busiest patterns; what could not be read.
  std::string RenderSummary() const;

  struct NodeHits {
    // Minutes since the epoch -> hits of patterns at warning or above, and of info ones
    // (background noise such as moderate GC overhead).
    std::map<int64_t, uint64_t> per_minute;
    std::map<int64_t, uint64_t> info_per_minute;
    std::map<std::string, uint64_t> per_pattern;
    FirstPrecursor first;
  };
  const std::map<std::string, NodeHits>& nodes() const { return nodes_; }
  const std::vector<nlohmann::json>& alerts() const { return alerts_; }
  const std::vector<InputReport>& inputs() const { return inputs_; }
  const std::map<std::string, uint64_t>& pattern_totals() const { return pattern_totals_; }
  TimePoint first_time() const { return first_; }
  TimePoint last_time() const { return last_; }
  uint64_t alerts_left_out() const { return alerts_left_out_; }

 private:
  void Extend(TimePoint time);

  std::map<std::string, NodeHits> nodes_;
  std::map<std::string, uint64_t> pattern_totals_;
  std::vector<nlohmann::json> alerts_;
  uint64_t alerts_left_out_ = 0;
  std::vector<InputReport> inputs_;
  TimePoint first_{};
  TimePoint last_{};
};

}  // namespace foreshock
