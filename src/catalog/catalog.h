#pragma once

// The catalog is foreshock's knowledge: precursor patterns (what a log line that predicts
// an outage looks like) and rules (how hits become alerts: a single hit, a count within a
// window, or an escalating sequence). It is loaded from patterns/*.yaml by
// catalog_loader.h and immutable afterwards, so the matcher and correlator can share it
// without locks (std::shared_ptr<const Catalog> for reloads).

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_map.h"
#include "base/time.h"
#include "decode/log_record.h"

namespace re2 {
class RE2;
}

namespace foreshock {

// Alert severities, numbered as the alert schema's event.severity.
enum class Severity : int { kInfo = 1, kWarning = 2, kCritical = 3 };
std::string_view SeverityName(Severity severity);  // "info", "warning", "critical"

// How a named capture is typed in alerts: "16.2gb" as bytes becomes 17394617548.
enum class FieldType { kString, kInteger, kNumber, kBytes, kPercent, kDuration };

// Outage markers are the user-visible failure itself (alerts they trigger carry the lead
// time); recovery markers say a condition has cleared.
enum class Marker { kNone, kOutage, kRecovery };

struct SourceLocation {
  std::string file;
  int line = 0;  // 1-based; 0 when unknown
  int column = 0;
};

struct PatternExample {
  std::string line;
  std::map<std::string, std::string> captures;  // expected raw capture text
};

struct Pattern {
  std::string id;  // stable, dotted: "es.search.scroll_context_limit"
  std::string title;
  std::string category;  // search, memory, disk, cluster, indexing, node, ...
  Severity severity = Severity::kWarning;
  std::string regex;  // RE2 syntax, searched in LogRecord::text
  // `regex` and `logger_regex` as the loader compiled them to check them (RE2's defaults,
  // errors not logged), so the matcher need not compile them again; null when not loaded
  // from a file or not valid.
  std::shared_ptr<const re2::RE2> compiled_regex;
  std::shared_ptr<const re2::RE2> compiled_logger;
  std::map<std::string, FieldType> fields;
  // Filters applied after a regex hit; empty means "any".
  std::string logger_regex;
  Level min_level = Level::kUnknown;
  Level max_level = Level::kUnknown;
  std::vector<std::string> datasets;
  Marker marker = Marker::kNone;
  std::vector<std::string> resolves;  // recovery markers: the patterns whose alerts this ends
  // Captures naming the node the line is about (node-left: the node that left); the first one
  // present wins. Empty: the line is about the node that wrote it.
  std::vector<std::string> subject;
  std::string predicts;
  std::string runbook;
  std::vector<std::string> versions;
  std::vector<PatternExample> examples;
  std::vector<std::string> no_match;
  SourceLocation where;
  std::string overrides;  // where the built-in entry this one replaces was defined
  // Learned, not curated: no regex; the novelty detector (learn/novelty_detector.h) makes
  // its hits, with the captures `fields` lists. The Catalog keeps these after the others.
  bool learned = false;
};

// A kind of record known benign to the novelty detector (`benign:` in a catalog file): the
// records it covers (every condition given holds: logger, dataset, message regex) are never
// novel, or, with `exception`, that class is not news in them.
struct BenignEntry {
  std::string id;
  std::string reason;
  std::string logger_regex;
  std::vector<std::string> datasets;
  std::string message_regex;  // RE2, searched in the record's message
  std::string exception;      // a simple class name ("IndexNotFoundException")
  std::vector<std::string> examples;  // lines it must cover (`catalog test`)
  std::shared_ptr<const re2::RE2> compiled_logger;
  std::shared_ptr<const re2::RE2> compiled_message;
  SourceLocation where;
  std::string overrides;
};

struct RuleStep {
  std::vector<std::string> patterns;  // any of these advances the rule to this step
  Severity severity = Severity::kWarning;
  std::string message;  // "{node}", "{cluster}" and "{capture}" are filled in
  int count = 1;        // sequence steps: hits needed within the window to reach the step
};

// kValue: a numeric capture, optionally as a fraction of another, compared with a bound.
struct ValueCondition {
  enum class Op { kGreaterEqual, kGreater, kLessEqual, kLess };
  std::string field;
  std::string of;  // when set, the value is field / of
  Op op = Op::kGreaterEqual;
  double bound = 0;
};

struct Rule {
  enum class Kind { kSingle, kThreshold, kSequence, kDistinct, kValue, kAbsence };
  std::string id;
  std::string name;
  std::string category;
  Kind kind = Kind::kSingle;
  std::vector<RuleStep> steps;  // exactly one unless kind is kSequence
  int count = 1;                // kThreshold: hits needed within `window`
  Duration window{0};           // kThreshold and kSequence
  std::vector<std::string> group_by;  // "node", "cluster" or a capture name
  Duration realert{0};                // repeat a still-firing alert after this long
  Duration resolve_after{0};          // resolved after this long without a hit
  std::vector<std::string> inhibited_by;  // rules whose open alert for the group silences this
  bool start_any = false;       // kSequence: may start at any step, not only the first
  std::string distinct_field;   // kDistinct: "node" or a capture whose distinct values count
  ValueCondition value;         // kValue
  std::vector<std::string> expect;  // kAbsence: patterns that must follow; {"any"}: any record
  Duration hold_down{0};        // a recovery resolves only after this long without a new hit
  std::string runbook;
  SourceLocation where;
  std::string overrides;
  bool implicit = false;  // made by the loader for a pattern no rule uses
  bool learned = false;   // every pattern it counts is learned (foreshock.novel.*)
};

std::string_view KindName(Rule::Kind kind);  // "single", "threshold", ...

// Messages and runbooks name placeholders as {lowercase_name}: {node}, {cluster}, {count}
// or a capture. Braces around anything else (JSON in a runbook) are plain text.
bool IsPlaceholderName(std::string_view name);
std::vector<std::string> PlaceholdersIn(std::string_view text);

class Catalog {
 public:
  // Learned patterns are moved after the curated ones, in their order.
  Catalog(std::vector<Pattern> patterns, std::vector<Rule> rules, std::vector<BenignEntry> benign = {});

  const std::vector<Pattern>& patterns() const { return patterns_; }
  // The curated patterns, those with a regex, are the first matched_patterns() of patterns().
  size_t matched_patterns() const { return matched_patterns_; }
  const std::vector<BenignEntry>& benign() const { return benign_; }
  const std::vector<Rule>& rules() const { return rules_; }

  // Index into patterns()/rules(), or -1.
  int FindPattern(std::string_view id) const;
  int FindRule(std::string_view id) const;
  // The ids, in catalog order (for "did you mean" suggestions).
  std::vector<std::string> PatternIds() const;
  std::vector<std::string> RuleIds() const;

 private:
  std::vector<Pattern> patterns_;
  std::vector<Rule> rules_;
  std::vector<BenignEntry> benign_;
  size_t matched_patterns_ = 0;
  StringMap<int> pattern_index_;
  StringMap<int> rule_index_;
};

}  // namespace foreshock
