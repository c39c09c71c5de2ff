#pragma once

// Matcher finds the catalog patterns that hit a record: one RE2::Set pass over the record's
// text for all patterns at once, then the pattern's own RE2 for captures on the hits only,
// then the pattern's filters (logger, minimum level, dataset). It never silently misses a
// hit: when the Set does not fit in max_mem (RE2 refuses to compile it) or its DFA runs out
// of memory on a record (reported only through ErrorInfo), it matches pattern by pattern
// instead, counts it and says so once on stderr.
// Immutable after Create(); Match() is const and safe to call from several threads.

#include <re2/re2.h>
#include <re2/set.h>

#include <atomic>
#include <memory>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "catalog/catalog.h"
#include "decode/log_record.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct MatcherOptions {
  int64_t max_mem = 64 << 20;  // budget for the RE2::Set's DFA
};

class Matcher {
 public:
  // `catalog` must outlive the Matcher. Fails if a regex does not compile.
  static Result<std::unique_ptr<Matcher>> Create(const Catalog& catalog,
                                                 const MatcherOptions& options);

  // Appends one hit per pattern whose regex and filters accept `record`.
  void Match(const LogRecord& record, std::vector<PatternHit>* hits) const;

  // Appends the hits of the regexes alone on `text`, without filters (catalog tests).
  void MatchText(std::string_view text, std::vector<PatternHit>* hits) const;

  // How many records were matched pattern by pattern because the Set was out of memory.
  uint64_t fallback_count() const { return fallbacks_.load(std::memory_order_relaxed); }

 private:
  struct Compiled {
    std::unique_ptr<RE2> regex;
    std::unique_ptr<RE2> logger;  // null: any logger
    std::vector<std::pair<int, std::string>> groups;  // (group index, name)
  };

  explicit Matcher(const Catalog& catalog) : catalog_(catalog) {}
  void CandidatePatterns(std::string_view text, std::vector<int>* out) const;
  bool PassesFilters(int pattern, const LogRecord& record) const;
  bool CaptureHit(int pattern, std::string_view text, PatternHit* hit) const;

  const Catalog& catalog_;
  std::vector<Compiled> compiled_;
  std::unique_ptr<RE2::Set> set_;
  mutable std::atomic<uint64_t> fallbacks_{0};
};

}  // namespace foreshock
