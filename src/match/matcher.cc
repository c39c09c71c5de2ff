#include "match/matcher.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <span>
#include <tuple>
#include <unordered_map>

#include "decode/decoder.h"
#include "match/field_value.h"

namespace foreshock {
namespace {

RE2::Options QuietOptions() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

// The bytes every match of `regex` begins with: the common start of the bounds of
// RE2::PossibleMatchRange (every anchored match lies between them), or empty.
std::string RequiredPrefix(const RE2& regex) {
  constexpr int kBoundLength = 8;
  std::string min;
  std::string max;
  if (!regex.PossibleMatchRange(&min, &max, kBoundLength)) return {};
  size_t common = 0;
  while (common < min.size() && common < max.size() && min[common] == max[common]) ++common;
  return min.substr(0, common);
}

uint64_t NextMatcherId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// A pattern's own prefilter: the literals ("atoms") it cannot match without, and the
// FilteredRE2 that knows how they combine.
struct PatternAtoms {
  std::unique_ptr<re2::FilteredRE2> filtered;
  std::vector<std::string> atoms;
};

PatternAtoms AtomsOf(const std::string& regex, int min_atom_len) {
  PatternAtoms out;
  out.filtered = std::make_unique<re2::FilteredRE2>(min_atom_len);
  int id = 0;
  if (out.filtered->Add(regex, QuietOptions(), &id) != RE2::NoError) return out;
  out.filtered->Compile(&out.atoms);
  return out;
}

// The few literals a pattern cannot match without: a set S of its atoms such that a text
// holding none of S fails its prefilter. Among the sets of up to six of its longest atoms
// (an alternation needs one atom per branch), the best is: of literals at least eight bytes
// long (LiteralGate then probes every fifth byte); holding the fewest atoms that `shared`
// marks (text other patterns' atoms contain too: the message template several patterns
// share, "Cluster health status changed from [", is common in ordinary lines, the part
// that tells them apart, "] to [RED]", is not); with the longest shortest literal; the
// smallest. All its atoms if none will do.
std::vector<std::string> GateLiterals(const PatternAtoms& own, const std::vector<bool>& shared) {
  const std::vector<std::string>& atoms = own.atoms;
  std::vector<int> order(atoms.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return atoms[static_cast<size_t>(a)].size() > atoms[static_cast<size_t>(b)].size(); });
  constexpr size_t kConsidered = 12;
  constexpr size_t kLargest = 6;
  constexpr size_t kLongEnough = 8;
  order.resize(std::min(order.size(), kConsidered));
  // Gates without all of S: does the prefilter still let the pattern through?
  auto rules_out = [&](const std::vector<int>& gate) {
    std::vector<int> rest;
    for (size_t i = 0; i < atoms.size(); ++i) {
      if (std::find(gate.begin(), gate.end(), static_cast<int>(i)) == gate.end()) rest.push_back(static_cast<int>(i));
    }
    std::vector<int> potentials;
    own.filtered->AllPotentials(rest, &potentials);
    return potentials.empty();
  };
  // Lower is better; adding an atom never makes a set better, so a set no better than the
  // best so far is not extended.
  using Score = std::tuple<bool, size_t, int64_t, size_t>;
  auto score = [&](const std::vector<int>& gate) {
    const size_t shortest = atoms[static_cast<size_t>(gate.back())].size();  // `order` is longest first
    const auto sharing = static_cast<size_t>(
        std::count_if(gate.begin(), gate.end(), [&](int atom) { return shared[static_cast<size_t>(atom)]; }));
    return Score{shortest < kLongEnough, sharing, -static_cast<int64_t>(shortest), gate.size()};
  };
  std::vector<int> best;
  Score best_score{true, SIZE_MAX, 0, SIZE_MAX};
  std::vector<int> gate;
  auto search = [&](auto& self, size_t next) -> void {
    if (!gate.empty()) {
      const Score current = score(gate);
      if (!(current < best_score)) return;
      if (rules_out(gate)) {
        best = gate;
        best_score = current;
        return;
      }
    }
    if (gate.size() == kLargest) return;
    for (size_t i = next; i < order.size(); ++i) {
      gate.push_back(order[i]);
      self(self, i + 1);
      gate.pop_back();
    }
  };
  search(search, 0);
  if (best.empty()) return atoms;
  std::vector<std::string> literals;
  for (int atom : best) literals.push_back(atoms[static_cast<size_t>(atom)]);
  return literals;
}

}  // namespace

Result<std::unique_ptr<Matcher>> Matcher::Create(const Catalog& catalog,
                                                 const MatcherOptions& options) {
  std::unique_ptr<Matcher> matcher(new Matcher(catalog));
  RE2::Options set_options = QuietOptions();
  set_options.set_max_mem(options.max_mem);
  matcher->set_ = std::make_unique<RE2::Set>(set_options, RE2::UNANCHORED);
  // Learned patterns (after the curated ones) have no regex: the novelty detector makes their hits.
  const std::span<const Pattern> matched(catalog.patterns().data(), catalog.matched_patterns());
  for (const Pattern& pattern : matched) {
    Compiled compiled;
    // The loader's compiled regexes are reused: the options are the same.
    compiled.regex = pattern.compiled_regex ? pattern.compiled_regex
                                            : std::make_shared<const RE2>(pattern.regex, QuietOptions());
    if (!compiled.regex->ok()) {
      return Status::InvalidArgument("pattern " + pattern.id + ": " + compiled.regex->error());
    }
    for (const auto& [name, index] : compiled.regex->NamedCapturingGroups()) {
      compiled.groups.emplace_back(index, name);
    }
    compiled.prefix = RequiredPrefix(*compiled.regex);
    if (!pattern.logger_regex.empty()) {
      compiled.logger = pattern.compiled_logger ? pattern.compiled_logger
                                                : std::make_shared<const RE2>(pattern.logger_regex, QuietOptions());
    }
    std::string error;
    if (matcher->set_->Add(pattern.regex, &error) < 0) {
      return Status::InvalidArgument("pattern " + pattern.id + ": " + error);
    }
    matcher->compiled_.push_back(std::move(compiled));
  }
  if (options.prefilter) matcher->BuildPrefilter(options);
  // RE2 refuses to compile a Set whose DFA would not fit in max_mem (it probes the DFA
  // while compiling); matching then goes pattern by pattern rather than not at all.
  if (!matcher->set_->Compile()) {
    matcher->set_.reset();
    spdlog::warn("the pattern set does not fit in {} bytes; matching pattern by pattern (slower, "
                 "nothing is missed)",
                 options.max_mem);
  }
  return matcher;
}

namespace {

// The kinds of JSON escape that stand for no byte any of `atoms` holds.
uint8_t RawExactEscapes(const std::vector<std::string>& atoms) {
  const auto held = [&](auto is) {
    return std::any_of(atoms.begin(), atoms.end(), [&](const std::string& atom) {
      return std::any_of(atom.begin(), atom.end(), [&](char c) { return is(static_cast<unsigned char>(c)); });
    });
  };
  uint8_t exact = 0;
  if (!held([](unsigned char c) { return c == '\n' || c == '\t' || c == '\r'; })) exact |= kEscapedWhitespace;
  if (!held([](unsigned char c) { return c == '"'; })) exact |= kEscapedQuote;
  if (!held([](unsigned char c) { return c == '\\'; })) exact |= kEscapedBackslash;
  if (!held([](unsigned char c) { return c == '/'; })) exact |= kEscapedSlash;
  if (!held([](unsigned char c) { return c < 0x20; })) exact |= kEscapedControl;
  return exact;
}

}  // namespace

void Matcher::BuildPrefilter(const MatcherOptions& options) {
  const std::span<const Pattern> matched(catalog_.patterns().data(), catalog_.matched_patterns());
  if (matched.empty()) return;
  auto filtered = std::make_unique<re2::FilteredRE2>(options.min_atom_len);
  for (const Pattern& pattern : matched) {
    int id = 0;
    if (filtered->Add(pattern.regex, QuietOptions(), &id) != RE2::NoError) return;
  }
  std::vector<std::string> atoms;
  filtered->Compile(&atoms);
  // A pattern without atoms could match any text: the prefilter would never skip anything.
  std::vector<int> unfiltered;
  filtered->AllPotentials({}, &unfiltered);
  if (atoms.empty() || !unfiltered.empty()) {
    spdlog::debug("literal prefilter off: {} pattern(s) have no required literal", unfiltered.size());
    return;
  }
  std::vector<PatternAtoms> per_pattern;
  for (const Pattern& pattern : matched) per_pattern.push_back(AtomsOf(pattern.regex, options.min_atom_len));
  std::vector<std::string> gates;
  std::vector<std::vector<std::string>> own_gates;  // per pattern
  for (size_t p = 0; p < per_pattern.size(); ++p) {
    // Which of its atoms other patterns' atoms contain.
    std::vector<bool> shared;
    for (const std::string& atom : per_pattern[p].atoms) {
      bool found = false;
      for (size_t q = 0; q < per_pattern.size() && !found; ++q) {
        if (q == p) continue;
        for (const std::string& other : per_pattern[q].atoms) found = found || other.find(atom) != std::string::npos;
      }
      shared.push_back(found);
    }
    std::vector<std::string> own = GateLiterals(per_pattern[p], shared);
    if (own.empty()) return;  // (cannot happen when the whole set has atoms) no gate: no prefilter
    own_gates.push_back(own);
    for (std::string& literal : own) gates.push_back(std::move(literal));
  }
  // A text holding a literal holds each part of it: the longer ones add nothing.
  std::sort(gates.begin(), gates.end(), [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  std::vector<std::string> kept;
  for (std::string& gate : gates) {
    if (std::none_of(kept.begin(), kept.end(), [&](const std::string& shorter) { return gate.find(shorter) != std::string::npos; })) {
      kept.push_back(std::move(gate));
    }
  }
  gates = std::move(kept);
  gate_ = std::make_unique<LiteralGate>(gates);
  // A text holding one of a pattern's own gate literals holds a kept one that literal
  // contains: the kept one stands for the pattern.
  gate_patterns_.assign(gates.size(), {});
  for (size_t p = 0; p < own_gates.size(); ++p) {
    for (size_t g = 0; g < gates.size(); ++g) {
      const bool stands_for = std::any_of(own_gates[p].begin(), own_gates[p].end(),
                                          [&](const std::string& own) { return own.find(gates[g]) != std::string::npos; });
      if (stands_for) gate_patterns_[g].push_back(static_cast<uint32_t>(p));
    }
  }
  for (PatternAtoms& own : per_pattern) {
    OwnPrefilter prefilter;
    for (const std::string& atom : own.atoms) prefilter.atoms.emplace_back(atom);
    prefilter.filtered = std::move(own.filtered);
    own_prefilters_.push_back(std::move(prefilter));
  }
  spdlog::debug("literal prefilter: {} atoms, {} gate literals probed every {} bytes", atoms.size(), gates.size(),
                gate_->stride());
  for (const std::string& gate : gates) spdlog::trace("gate literal: '{}'", gate);
  atoms_ = std::make_unique<LiteralScanner>(atoms);
  atom_count_ = atoms.size();
  raw_exact_escapes_ = RawExactEscapes(atoms);
  // No literal holds a line break, tab or carriage return: the same test as for their escapes.
  raw_prefilter_safe_ = (raw_exact_escapes_ & kEscapedWhitespace) != 0;
  filtered_ = std::move(filtered);
}

Matcher::Matcher(const Catalog& catalog) : catalog_(catalog), id_(NextMatcherId()) {}

bool Matcher::PotentialsFrom(const std::vector<int>& found) const {
  if (found.empty()) return false;
  struct Memo {
    uint64_t matcher = 0;
    std::unordered_map<std::string, bool> answers;  // atom ids as bytes -> any potential
  };
  constexpr size_t kMemoLimit = 4096;
  thread_local Memo memo;
  thread_local std::string key;
  if (memo.matcher != id_) {
    memo.answers.clear();
    memo.matcher = id_;
  }
  key.assign(reinterpret_cast<const char*>(found.data()), found.size() * sizeof(int));
  if (const auto it = memo.answers.find(key); it != memo.answers.end()) return it->second;
  thread_local std::vector<int> potentials;
  potentials.clear();
  filtered_->AllPotentials(found, &potentials);
  if (memo.answers.size() >= kMemoLimit) memo.answers.clear();
  memo.answers.emplace(key, !potentials.empty());
  return !potentials.empty();
}

const std::vector<std::string>& Matcher::gate_literals() const {
  static const std::vector<std::string> kNone;
  return gate_ != nullptr ? gate_->literals() : kNone;
}

bool Matcher::OwnPrefiltersPassing(std::span<const std::string_view> parts, const LiteralGate& gate,
                                   std::vector<int>* passing) const {
  thread_local std::vector<uint32_t> literals;
  thread_local std::vector<uint32_t> patterns;
  thread_local std::vector<int> found;
  thread_local std::vector<int> potentials;
  literals.clear();
  patterns.clear();
  passing->clear();
  for (std::string_view part : parts) gate.Hits(part, &literals);
  for (uint32_t literal : literals) {
    for (uint32_t pattern : gate_patterns_[literal]) patterns.push_back(pattern);
  }
  std::sort(patterns.begin(), patterns.end());
  patterns.erase(std::unique(patterns.begin(), patterns.end()), patterns.end());
  if (patterns.size() > kOwnPrefiltersAtMost) return false;
  for (uint32_t pattern : patterns) {
    const OwnPrefilter& own = own_prefilters_[pattern];
    found.clear();
    uint64_t held_mask = 0;
    for (size_t atom = 0; atom < own.atoms.size(); ++atom) {
      const bool held = std::any_of(parts.begin(), parts.end(),
                                    [&](std::string_view part) { return own.atoms[atom].Contains(part); });
      if (!held) continue;
      found.push_back(static_cast<int>(atom));
      if (atom < 64) held_mask |= uint64_t{1} << atom;
    }
    // The answer for a set of atoms is remembered per thread (a pattern's atoms are few, and
    // the records that get this far repeat a few templates): FilteredRE2 takes thousands of
    // instructions to work it out.
    struct Memo {
      uint64_t matcher = 0;  // 0: empty (matcher ids start at 1)
      uint32_t pattern = 0;
      uint64_t held = 0;
      bool passes = false;
    };
    thread_local std::array<Memo, 256> memo;
    const bool memoable = own.atoms.size() <= 64;
    Memo& slot = memo[(held_mask * 0x9E3779B97F4A7C15u + pattern * 0xC2B2AE3D27D4EB4Fu) >> 56];
    bool passes = false;
    if (memoable && slot.matcher == id_ && slot.pattern == pattern && slot.held == held_mask) {
      passes = slot.passes;
    } else {
      potentials.clear();
      own.filtered->AllPotentials(found, &potentials);
      passes = !potentials.empty();
      if (memoable) slot = {id_, pattern, held_mask, passes};
    }
    if (passes) passing->push_back(static_cast<int>(pattern));
  }
  return true;
}

bool Matcher::PrefilterCandidates(std::span<const std::string_view> parts, const LiteralGate& gate,
                                  std::vector<int>* candidates, bool* listed) const {
  *listed = OwnPrefiltersPassing(parts, gate, candidates);
  if (*listed) return !candidates->empty();
  thread_local std::vector<int> found;
  found.clear();
  for (std::string_view part : parts) atoms_->Scan(part, &found);
  // Each Scan lists a literal once; across parts it may come twice.
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return PotentialsFrom(found);
}

bool Matcher::MayMatchPastGate(std::span<const std::string_view> parts, ListedCandidates* listed,
                               const LiteralGate& gate) const {
  thread_local std::vector<int> candidates;
  std::vector<int>* out = listed != nullptr ? &listed->patterns : &candidates;
  bool is_listed = false;
  const bool may = PrefilterCandidates(parts, gate, out, &is_listed);
  if (listed != nullptr) listed->matcher = may && is_listed ? id_ : 0;
  return may;
}

bool Matcher::MayMatch(std::string_view text) const {
  if (filtered_ == nullptr) return true;
  const bool may = MayMatchParts({&text, 1});
  (may ? prefilter_passed_ : prefilter_skipped_).fetch_add(1, std::memory_order_relaxed);
  return may;
}

void Matcher::CandidatePatterns(std::string_view text, bool prefiltered, std::vector<int>* out) const {
  out->clear();
  if (filtered_ != nullptr) {
    // A record the reader's prefilter let through holds a gate literal (no need to look
    // again) and counts as let through. When few patterns stand behind the gate literals
    // the text holds, those whose own prefilter lets it through are the candidates, and
    // their own regexes decide (CaptureHit) instead of the Set. A record marked by mistake
    // (it holds no literal after all: a catalog reloaded since) costs a Set pass, never a hit.
    bool listed = false;
    const bool may = (prefiltered || gate_->Contains(text)) && PrefilterCandidates({&text, 1}, *gate_, out, &listed);
    ((prefiltered || may) ? prefilter_passed_ : prefilter_skipped_).fetch_add(1, std::memory_order_relaxed);
    if (may && listed) return;
    out->clear();
    if (!prefiltered && !may) return;
  }
  if (set_ != nullptr) {
    RE2::Set::ErrorInfo error;
    if (set_->Match(text, out, &error)) {
      std::sort(out->begin(), out->end());  // in pattern order, as the candidates above
      return;
    }
    if (error.kind == RE2::Set::kNoError) return;  // no pattern matched
    // The DFA gave up on this text (kOutOfMemory): every pattern on its own instead.
    if (fallbacks_.load(std::memory_order_relaxed) == 0) {
      spdlog::warn("the pattern set ran out of memory on a record; matching pattern by pattern "
                   "(slower, nothing is missed)");
    }
    out->clear();
  }
  fallbacks_.fetch_add(1, std::memory_order_relaxed);
  for (size_t i = 0; i < compiled_.size(); ++i) {
    if (RE2::PartialMatch(text, *compiled_[i].regex)) out->push_back(static_cast<int>(i));
  }
}

bool Matcher::PassesFilters(int pattern, const LogRecord& record) const {
  const Pattern& spec = catalog_.patterns()[static_cast<size_t>(pattern)];
  if (record.level != Level::kUnknown &&
      ((spec.min_level != Level::kUnknown && record.level < spec.min_level) ||
       (spec.max_level != Level::kUnknown && record.level > spec.max_level))) {
    return false;
  }
  const RE2* logger = compiled_[static_cast<size_t>(pattern)].logger.get();
  if (logger != nullptr && !record.logger.empty() && !RE2::PartialMatch(record.logger, *logger)) {
    return false;
  }
  if (!spec.datasets.empty() && !record.dataset.empty()) {
    bool listed = false;
    for (const std::string& dataset : spec.datasets) listed = listed || record.dataset == dataset;
    if (!listed) return false;
  }
  return true;
}

bool Matcher::MatchLeftmost(const Compiled& compiled, std::string_view text, re2::StringPiece* groups,
                            int group_count) {
  // RE2 finds an unanchored match with captures in three passes (its DFA forward to the
  // match's end, backward to its start, then the captures). No match starts where the
  // prefix does not stand, so the leftmost one starts at the first place it stands where a
  // match starts at all, found in one anchored pass. A text where it stands often (a stack
  // trace full of '[') gets a few tries, then one unanchored search from where they ended.
  constexpr int kAnchoredTries = 4;
  const RE2& regex = *compiled.regex;
  if (compiled.prefix.empty()) return regex.Match(text, 0, text.size(), RE2::UNANCHORED, groups, group_count);
  size_t at = text.find(compiled.prefix);
  for (int tries = 0; tries < kAnchoredTries; ++tries) {
    if (at == std::string_view::npos) return false;
    if (regex.Match(text, at, text.size(), RE2::ANCHOR_START, groups, group_count)) return true;
    at = text.find(compiled.prefix, at + 1);
  }
  return at != std::string_view::npos && regex.Match(text, at, text.size(), RE2::UNANCHORED, groups, group_count);
}

bool Matcher::CaptureHit(int pattern, std::string_view text, PatternHit* hit) const {
  const Compiled& compiled = compiled_[static_cast<size_t>(pattern)];
  const Pattern& spec = catalog_.patterns()[static_cast<size_t>(pattern)];
  const int group_count = compiled.regex->NumberOfCapturingGroups();
  thread_local std::vector<re2::StringPiece> groups;  // its buffer kept from hit to hit
  groups.assign(static_cast<size_t>(group_count) + 1, re2::StringPiece());
  if (!MatchLeftmost(compiled, text, groups.data(), static_cast<int>(groups.size()))) return false;
  hit->pattern = pattern;
  hit->match_begin = static_cast<size_t>(groups[0].data() - text.data());
  hit->match_end = hit->match_begin + groups[0].size();
  hit->captures.reserve(compiled.groups.size());
  for (const auto& [index, name] : compiled.groups) {
    const re2::StringPiece value = groups[static_cast<size_t>(index)];
    if (value.data() == nullptr) continue;  // optional group that did not take part
    Capture capture{name, std::string(value.data(), value.size()), std::nullopt};
    if (auto type = spec.fields.find(name); type != spec.fields.end()) {
      capture.number = ParseFieldValue(type->second, std::string_view(value.data(), value.size()));
    }
    hit->captures.push_back(std::move(capture));
  }
  return true;
}

bool Matcher::Matches(int pattern, std::string_view text) const {
  return MatchLeftmost(compiled_[static_cast<size_t>(pattern)], text, nullptr, 0);
}

void Matcher::Match(const LogRecord& record, std::vector<PatternHit>* hits, const std::vector<bool>* placed) const {
  // Header-only records (no text) are most lines: with the prefilter on, every pattern needs
  // a literal, so an empty text matches nothing.
  if (record.text.empty() && filtered_ != nullptr) return;
  thread_local std::vector<int> candidates;
  const bool listed = record.prefiltered && record.candidates.matcher == id_;
  if (listed) {
    prefilter_passed_.fetch_add(1, std::memory_order_relaxed);
  } else {
    CandidatePatterns(record.text, record.prefiltered && filtered_ != nullptr, &candidates);
  }
  const std::vector<int>& to_try = listed ? record.candidates.patterns : candidates;
  for (int pattern : to_try) {
    if (!PassesFilters(pattern, record)) continue;
    if (placed != nullptr && !(*placed)[static_cast<size_t>(pattern)]) {
      if (Matches(pattern, record.text)) hits->push_back(PatternHit{.pattern = pattern});
      continue;
    }
    PatternHit hit;
    if (CaptureHit(pattern, record.text, &hit)) hits->push_back(std::move(hit));
  }
}

void Matcher::MatchText(std::string_view text, std::vector<PatternHit>* hits) const {
  std::vector<int> candidates;
  CandidatePatterns(text, /*prefiltered=*/false, &candidates);
  for (int pattern : candidates) {
    PatternHit hit;
    if (CaptureHit(pattern, text, &hit)) hits->push_back(std::move(hit));
  }
}

}  // namespace foreshock
