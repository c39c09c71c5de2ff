#pragma once

// Matcher finds the catalog patterns that hit a record. A literal prefilter comes first:
// RE2's FilteredRE2 derives the literals ("atoms") each pattern cannot match without. A
// LiteralGate looks for a few long ones (per pattern, the atoms it needs at least one of),
// probing every few bytes, and most ordinary lines stop there. Otherwise the patterns whose
// gate literals the record holds are asked, each of its own atoms (FoldedLiteral) and
// prefilter, and a record none of them lets through stops; those it lets through are the
// only candidates, and each candidate's own RE2 decides, with its captures. A record holding
// the gate literals of many patterns is asked all the atoms at once (a LiteralScanner) and
// the whole prefilter instead, and when that lets it through, one RE2::Set pass over its
// text finds every pattern that matches, then each hit's own RE2 runs for captures. (A
// record the reader's prefilter already let through, LogRecord::prefiltered, is not looked
// at by the gate again, and the candidates it listed, LogRecord::candidates, are taken as
// they are.) The pattern's filters (logger, minimum and maximum level, dataset)
// apply before its captures are read. It never silently misses a hit: when the Set does not
// fit in max_mem (RE2 refuses to compile it) or its DFA runs out of memory on a record
// (reported only through ErrorInfo), it matches pattern by pattern instead, counts it and
// says so once on stderr.
// Immutable after Create(); Match() is const and safe to call from several threads.

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <atomic>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "catalog/catalog.h"
#include "decode/log_record.h"
#include "match/folded_literal.h"
#include "match/literal_gate.h"
#include "match/literal_scanner.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct MatcherOptions {
  int64_t max_mem = 64 << 20;  // budget for the RE2::Set's DFA
  bool prefilter = true;       // skip records that contain no pattern's literals
  int min_atom_len = 3;        // shortest literal worth prefiltering on
};

class Matcher {
 public:
  // `catalog` must outlive the Matcher. Fails if a regex does not compile.
  static Result<std::unique_ptr<Matcher>> Create(const Catalog& catalog,
                                                 const MatcherOptions& options);

  // Appends one hit per pattern whose regex and filters accept `record`. With `placed`, only
  // the hits of patterns it holds true for get their captures and place in the text; the
  // others' only say that they matched, which their regex tells faster.
  void Match(const LogRecord& record, std::vector<PatternHit>* hits, const std::vector<bool>* placed = nullptr) const;

  // Appends the hits of the regexes alone on `text`, without filters (catalog tests).
  void MatchText(std::string_view text, std::vector<PatternHit>* hits) const;

  // How many records were matched pattern by pattern because the Set was out of memory.
  uint64_t fallback_count() const { return fallbacks_.load(std::memory_order_relaxed); }
  // How many records the prefilter let through to the regexes, and how many it stopped.
  uint64_t prefilter_passed() const { return prefilter_passed_.load(std::memory_order_relaxed); }
  uint64_t prefilter_skipped() const { return prefilter_skipped_.load(std::memory_order_relaxed); }
  // Number of prefilter literals (0: the prefilter is off or useless for this catalog).
  size_t atom_count() const { return atom_count_; }
  // False when the prefilter proves that no pattern can match `text` (any text holding the
  // record's message, e.g. its raw line).
  bool MayMatch(std::string_view text) const;
  // The same for a text made of these parts (joined by line breaks). When they may match
  // and `listed` is given, it is set to the only patterns that can (what Match() would try),
  // if the prefilter could list them; listed->matcher is 0 if not. `tuned`: gate() tuned to
  // the input (GateTuner), asked instead. Inline: most texts hold no gate literal, and are
  // ruled out with one Contains() per part.
  bool MayMatchParts(std::span<const std::string_view> parts, ListedCandidates* listed = nullptr,
                     const LiteralGate* tuned = nullptr) const {
    if (filtered_ == nullptr) {
      if (listed != nullptr) listed->matcher = 0;
      return true;
    }
    const LiteralGate& gate = tuned != nullptr ? *tuned : *gate_;
    for (std::string_view part : parts) {
      if (gate.Contains(part)) return MayMatchPastGate(parts, listed, gate);
    }
    return false;
  }
  // The gate literal search the prefilter asks first (null: no prefilter).
  const LiteralGate* gate() const { return gate_.get(); }
  // The literals the prefilter looks for first (lower-cased): every pattern needs one of its own.
  const std::vector<std::string>& gate_literals() const;
  // True when MayMatch() may be run on a record's raw line instead of its decoded text: no
  // literal holds a line break, tab or carriage return (decoded text joins fields with line
  // breaks; raw lines hold none, and JSON lines hold those three as escapes, \n, \t, \r).
  bool raw_prefilter_safe() const { return raw_prefilter_safe_; }
  // True when MayMatchParts() may judge parts holding these kinds of JSON escape
  // (JsonEscape bits) as they stand: no literal holds a byte they stand for, so a literal in
  // the decoded text is in the raw text too.
  bool RawTextExact(uint8_t escapes) const { return (escapes & ~raw_exact_escapes_) == 0; }

 private:
  struct Compiled {
    std::shared_ptr<const RE2> regex;
    std::shared_ptr<const RE2> logger;  // null: any logger
    std::vector<std::pair<int, std::string>> groups;  // (group index, name)
    // What every match begins with (from RE2::PossibleMatchRange), or empty: a match can
    // only start where this stands, so it is searched for from there, anchored.
    std::string prefix;
  };

  explicit Matcher(const Catalog& catalog);
  void BuildPrefilter(const MatcherOptions& options);
  // The patterns that may match `text` (those that do, or the few the prefilter lets
  // through), in ascending order. `prefiltered`: the prefilter has let `text` through
  // already (LogRecord::prefiltered).
  void CandidatePatterns(std::string_view text, bool prefiltered, std::vector<int>* out) const;
  // Whether the atoms found in a text let any pattern through. Remembered per thread for
  // the sets of atoms met (ordinary lines repeat a few message templates).
  bool PotentialsFrom(const std::vector<int>& found) const;
  // For a text (made of `parts`) that holds gate literals: the patterns they stand for
  // whose own prefilter (asked of that pattern's own atoms) lets the text through, in
  // ascending order, in *passing. False (and *passing meaningless) when they stand for more
  // than kOwnPrefiltersAtMost patterns: then all atoms are scanned for at once.
  bool OwnPrefiltersPassing(std::span<const std::string_view> parts, const LiteralGate& gate,
                            std::vector<int>* passing) const;
  // For parts that hold a gate literal: whether the prefilter lets them through. *listed
  // when few patterns stand behind the literals found; *candidates then holds those the
  // prefilter lets through (the only ones that can match).
  bool PrefilterCandidates(std::span<const std::string_view> parts, const LiteralGate& gate,
                           std::vector<int>* candidates, bool* listed) const;
  // MayMatchParts() for parts that hold a gate literal (`gate`: the one that found it).
  bool MayMatchPastGate(std::span<const std::string_view> parts, ListedCandidates* listed,
                        const LiteralGate& gate) const;
  bool PassesFilters(int pattern, const LogRecord& record) const;
  bool CaptureHit(int pattern, std::string_view text, PatternHit* hit) const;
  bool Matches(int pattern, std::string_view text) const;
  // RE2::Match(UNANCHORED) of the pattern in `text`, with its groups: the same leftmost match.
  static bool MatchLeftmost(const Compiled& compiled, std::string_view text, re2::StringPiece* groups,
                            int group_count);

  const Catalog& catalog_;
  const uint64_t id_;  // unique per Matcher ever built: keys the per-thread memo
  std::vector<Compiled> compiled_;
  std::unique_ptr<RE2::Set> set_;
  std::unique_ptr<re2::FilteredRE2> filtered_;  // null: no prefilter
  std::unique_ptr<LiteralGate> gate_;       // a record without a gate literal matches nothing
  std::unique_ptr<LiteralScanner> atoms_;
  // A pattern's own prefilter: its atoms, and its FilteredRE2, which knows how they combine.
  struct OwnPrefilter {
    std::vector<FoldedLiteral> atoms;
    std::unique_ptr<re2::FilteredRE2> filtered;
  };
  static constexpr size_t kOwnPrefiltersAtMost = 4;
  std::vector<OwnPrefilter> own_prefilters_;           // per pattern
  std::vector<std::vector<uint32_t>> gate_patterns_;  // per gate literal: the patterns it stands for
  size_t atom_count_ = 0;
  bool raw_prefilter_safe_ = false;
  uint8_t raw_exact_escapes_ = 0;  // JsonEscape bits
  mutable std::atomic<uint64_t> fallbacks_{0};
  mutable std::atomic<uint64_t> prefilter_passed_{0};
  mutable std::atomic<uint64_t> prefilter_skipped_{0};
};

}  // namespace foreshock
