// `foreshock catalog list|lint|test|explain|export`: the tooling SREs use to read, check and
// extend the precursor catalog.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <regex>

#include "app/catalog_examples.h"
#include "app/common_options.h"
#include "app/main.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/nearest_names.h"
#include "base/terminal_text.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kSynopsis =
    "list [PREFIX] | lint [PATH...] | test [PATH...] | explain ID | export [--ere]  [OPTIONS]";

std::string_view MarkerName(Marker marker) {
  switch (marker) {
    case Marker::kOutage: return "outage";
    case Marker::kRecovery: return "recovery";
    case Marker::kNone: break;
  }
  return "";
}

std::string FileOf(const SourceLocation& where) { return where.file + ":" + std::to_string(where.line); }

void PrintDiagnostics(const LoadReport& report) {
  for (const Diagnostic& diagnostic : report.diagnostics()) std::cerr << EscapeForTerminal(diagnostic.ToString()) << "\n";
}

std::string_view FieldTypeName(FieldType type) {
  switch (type) {
    case FieldType::kString: return "string";
    case FieldType::kInteger: return "integer";
    case FieldType::kNumber: return "number";
    case FieldType::kBytes: return "bytes";
    case FieldType::kPercent: return "percent";
    case FieldType::kDuration: return "duration";
  }
  return "";
}

// The entries whose id starts with `prefix` (all when empty), with their title or name.
int List(const Catalog& catalog, const std::string& prefix) {
  size_t shown = 0;
  std::printf("%-40s %-9s %-9s %-8s %-44s %s\n", "PATTERN", "CATEGORY", "SEVERITY", "MARKER", "TITLE", "SOURCE");
  for (const Pattern& p : catalog.patterns()) {
    if (!p.id.starts_with(prefix)) continue;
    ++shown;
    std::string source = FileOf(p.where);
    if (p.learned) source += " (learned: the novelty detector makes its hits)";
    if (!p.overrides.empty()) source += " (overrides " + p.overrides + ")";
    std::printf("%-40s %-9s %-9s %-8s %-44s %s\n", p.id.c_str(), p.category.c_str(),
                std::string(SeverityName(p.severity)).c_str(), std::string(MarkerName(p.marker)).c_str(),
                p.title.c_str(), source.c_str());
  }
  std::printf("\n%-40s %-9s %-9s %-8s %-44s %s\n", "RULE", "CATEGORY", "KIND", "STEPS", "NAME", "SOURCE");
  for (const Rule& r : catalog.rules()) {
    if (!r.id.starts_with(prefix)) continue;
    ++shown;
    std::string source = FileOf(r.where);
    if (r.implicit) source += " (implicit: the pattern alerts on its own)";
    if (r.learned) source += " (learned, not curated)";
    if (!r.overrides.empty()) source += " (overrides " + r.overrides + ")";
    std::printf("%-40s %-9s %-9s %-8zu %-44s %s\n", r.id.c_str(), r.category.c_str(),
                std::string(KindName(r.kind)).c_str(), r.steps.size(), r.name.c_str(), source.c_str());
  }
  bool benign_header = false;
  for (const BenignEntry& b : catalog.benign()) {
    if (!b.id.starts_with(prefix)) continue;
    ++shown;
    if (!benign_header) std::printf("\n%-40s %s\n", "BENIGN (never novel)", "SOURCE");
    benign_header = true;
    std::printf("%-40s %s%s\n", b.id.c_str(), FileOf(b.where).c_str(),
                b.overrides.empty() ? "" : (" (overrides " + b.overrides + ")").c_str());
  }
  if (shown == 0) {
    std::vector<std::string> known = catalog.PatternIds();
    for (std::string& id : catalog.RuleIds()) known.push_back(std::move(id));
    std::cerr << "foreshock: no pattern or rule id starts with '" << EscapeForTerminal(prefix) << "'"
              << DidYouMean(prefix, known) << "\n";
  }
  return kExitOk;
}

// How a rule counts, in words: "3 hits within 10m", "2 distinct node within 1m", ...
std::string HowItCounts(const Rule& rule) {
  std::string out = std::string(KindName(rule.kind));
  switch (rule.kind) {
    case Rule::Kind::kThreshold:
      out += ": " + Counted(static_cast<uint64_t>(rule.count), "hit", "hits") + " within " + FormatDuration(rule.window);
      break;
    case Rule::Kind::kDistinct:
      out += ": " + std::to_string(rule.count) + " distinct " + rule.distinct_field + " within " +
             FormatDuration(rule.window);
      break;
    case Rule::Kind::kSequence:
      out += ": stages within " + FormatDuration(rule.window) + (rule.start_any ? ", may start at any stage" : "");
      break;
    case Rule::Kind::kValue: {
      static const char* kOps[] = {">=", ">", "<=", "<"};
      char bound[32];
      std::snprintf(bound, sizeof bound, "%g", rule.value.bound);
      out += ": " + rule.value.field + (rule.value.of.empty() ? "" : " / " + rule.value.of) + " " +
             kOps[static_cast<int>(rule.value.op)] + " " + bound;
      break;
    }
    case Rule::Kind::kAbsence: {
      std::string expected;
      for (const std::string& id : rule.expect) expected += (expected.empty() ? "" : " or ") + id;
      out += expected == "any" ? ": fires when the node logs nothing for " + FormatDuration(rule.window)
                               : ": fires when no " + expected + " line follows within " + FormatDuration(rule.window);
      break;
    }
    case Rule::Kind::kSingle:
      out += ": the first hit fires";
      break;
  }
  return out;
}

int Explain(const Catalog& catalog, const std::string& id) {
  if (const int p = catalog.FindPattern(id); p >= 0) {
    const Pattern& pattern = catalog.patterns()[static_cast<size_t>(p)];
    std::cout << pattern.id << ": " << pattern.title << (pattern.learned ? " (learned, not curated)" : "") << "\n"
              << "  category " << pattern.category << ", severity " << SeverityName(pattern.severity)
              << (pattern.marker == Marker::kNone ? "" : ", " + std::string(MarkerName(pattern.marker)) + " marker")
              << "\n  defined at " << FileOf(pattern.where) << "\n";
    if (!pattern.versions.empty()) {
      std::cout << "  versions:";
      for (const std::string& v : pattern.versions) std::cout << " " << v;
      std::cout << "\n";
    }
    // What else a line must be, beyond matching the regex.
    std::string filters;
    if (!pattern.logger_regex.empty()) filters += "\n  logger matches " + pattern.logger_regex;
    if (pattern.min_level != Level::kUnknown) filters += "\n  level at least " + std::string(LevelName(pattern.min_level));
    if (pattern.max_level != Level::kUnknown) filters += "\n  level at most " + std::string(LevelName(pattern.max_level));
    for (const std::string& dataset : pattern.datasets) filters += "\n  dataset " + dataset;
    if (!pattern.subject.empty()) {
      filters += "\n  about the node named by";
      for (const std::string& capture : pattern.subject) filters += " " + capture;
    }
    std::cout << "\nFilters:" << (filters.empty() ? "\n  none: any line the regex matches" : filters) << "\n";
    if (!pattern.fields.empty()) {
      std::cout << "\nFields:\n";
      for (const auto& [name, type] : pattern.fields) std::cout << "  " << name << ": " << FieldTypeName(type) << "\n";
    }
    std::cout << "\nUsed by:\n";
    bool used = false;
    for (const Rule& rule : catalog.rules()) {
      for (size_t i = 0; i < rule.steps.size(); ++i) {
        const auto& ids = rule.steps[i].patterns;
        if (std::find(ids.begin(), ids.end(), pattern.id) == ids.end()) continue;
        used = true;
        std::cout << "  " << rule.id << (rule.steps.size() > 1 ? " stage " + std::to_string(i + 1) : "") << " ("
                  << HowItCounts(rule) << ")" << (rule.implicit ? ", implicit" : "") << "\n";
      }
    }
    if (!used) std::cout << "  no rule: it is counted and shown, never alerted on alone\n";
    std::cout << "\nPredicts:\n  " << pattern.predicts << "\n\nRunbook:\n" << pattern.runbook;
    if (pattern.learned) {
      std::cout << "\nHits:\n  made by the novelty detector from records no curated pattern matched, judged "
                   "against the baseline (see docs/novelty.md)\n";
    } else {
      std::cout << "\nRegex:\n  " << pattern.regex << "\n";
    }
    if (!pattern.examples.empty()) std::cout << "\nExample:\n  " << pattern.examples[0].line << "\n";
    return kExitOk;
  }
  if (const int r = catalog.FindRule(id); r >= 0) {
    const Rule& rule = catalog.rules()[static_cast<size_t>(r)];
    std::cout << rule.id << ": " << rule.name << (rule.learned ? " (learned, not curated)" : "") << "\n  category "
              << rule.category << ", grouped by";
    for (const std::string& field : rule.group_by) std::cout << " " << field;
    std::cout << ", defined at " << FileOf(rule.where) << "\n  " << HowItCounts(rule) << "\n  realert after "
              << FormatDuration(rule.realert) << ", resolved after " << FormatDuration(rule.resolve_after)
              << " without a hit";
    if (rule.hold_down.count() > 0) std::cout << ", a recovery holds down " << FormatDuration(rule.hold_down);
    std::cout << "\n";
    if (!rule.inhibited_by.empty()) {
      std::cout << "  silenced while firing:";
      for (const std::string& other : rule.inhibited_by) std::cout << " " << other;
      std::cout << "\n";
    }
    std::cout << "\nStages:\n";
    for (size_t i = 0; i < rule.steps.size(); ++i) {
      std::cout << "  " << i + 1 << ". [" << SeverityName(rule.steps[i].severity) << "] on";
      for (const std::string& p : rule.steps[i].patterns) std::cout << " " << p;
      if (rule.kind == Rule::Kind::kSequence && rule.steps[i].count > 1) {
        std::cout << " (" << rule.steps[i].count << " hits)";
      }
      std::cout << "\n     " << rule.steps[i].message << "\n";
    }
    std::cout << "\nRunbook:\n" << rule.runbook << "\n";
    return kExitOk;
  }
  for (const BenignEntry& entry : catalog.benign()) {
    if (entry.id != id) continue;
    std::cout << entry.id << ": benign, never novel\n  defined at " << FileOf(entry.where) << "\n\nCovers records";
    if (!entry.logger_regex.empty()) std::cout << "\n  whose logger matches " << entry.logger_regex;
    for (const std::string& dataset : entry.datasets) std::cout << "\n  of dataset " << dataset;
    if (!entry.message_regex.empty()) std::cout << "\n  whose message matches " << entry.message_regex;
    if (!entry.exception.empty()) std::cout << "\n  (only their exception class " << entry.exception << ")";
    std::cout << "\n\nWhy:\n  " << entry.reason << "\n";
    if (!entry.examples.empty()) std::cout << "\nExample:\n  " << entry.examples[0] << "\n";
    return kExitOk;
  }
  return UsageError("no pattern or rule with id '" + id + "' (see 'foreshock catalog list')");
}

// `only_under`: the paths given to `catalog test`, whose patterns' examples are tried.
int Test(const Catalog& catalog, const std::vector<std::string>& only_under) {
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  if (!matcher.ok()) return UsageError(matcher.status().message());
  const ExampleReport report = RunCatalogExamples(catalog, **matcher, only_under);
  for (const ExampleFailure& failure : report.failures) {
    std::cout << FileOf(failure.where) << ": FAIL " << failure.pattern_id << ": " << failure.reason
              << "\n    " << failure.line << "\n";
  }
  const size_t failed = report.failures.size();
  std::cout << catalog.patterns().size() << " patterns, " << catalog.rules().size() << " rules: "
            << (report.examples - static_cast<int>(failed)) << " passed, " << failed << " failed\n";
  return failed == 0 ? kExitOk : kExitAlert;
}

// The patterns' regexes, one per line, for other tools (the peers in bench/): RE2 syntax
// with named groups made plain (rg, PCRE), or with --ere translated to POSIX extended
// syntax for grep -E (classes spelled out; case-insensitive flags dropped: use grep -i).
int Export(const Catalog& catalog, bool ere) {
  static const std::pair<std::regex, std::string> kPlain[] = {
      {std::regex(R"(\(\?P<[A-Za-z_][A-Za-z0-9_]*>)"), "("}};
  static const std::pair<std::regex, std::string> kEre[] = {
      {std::regex(R"(\(\?P<[A-Za-z_][A-Za-z0-9_]*>)"), "("}, {std::regex(R"(\(\?:)"), "("}, {std::regex(R"(\(\?s:)"), "("},
      {std::regex(R"(\(\?i\))"), ""},  {std::regex(R"(\\d)"), "[0-9]"},
      {std::regex(R"(\\s)"), "[[:space:]]"}, {std::regex(R"(\\w)"), "[[:alnum:]_]"},
      {std::regex(R"(\\S)"), "[^[:space:]]"}, {std::regex(R"(\\D)"), "[^0-9]"},
      {std::regex(R"(([+*?])\?)"), "$1"}};  // lazy quantifiers: ERE has none
  for (const Pattern& pattern : catalog.patterns()) {
    // A learned pattern has no regex: the novelty detector raises its hits. An empty line
    // would match every line of a `grep -f` or `rg -f` given the export.
    if (pattern.learned) continue;
    std::string regex = pattern.regex;
    if (ere) {
      for (const auto& [from, to] : kEre) regex = std::regex_replace(regex, from, to);
    } else {
      for (const auto& [from, to] : kPlain) regex = std::regex_replace(regex, from, to);
    }
    std::cout << regex << "\n";
  }
  return kExitOk;
}

// Whether every path lies in the built-in catalog's folder: checking the built-in files
// themselves, which the built-in layer would otherwise load a second time under them.
bool AllBuiltin(const std::vector<std::string>& paths) {
  const auto builtin = FindBuiltinCatalog();
  if (!builtin) return false;
  for (const std::string& path : paths) {
    std::error_code error;
    const std::string canonical = std::filesystem::weakly_canonical(path, error).string();
    if (error || (canonical != *builtin && !canonical.starts_with(*builtin + "/"))) return false;
  }
  return true;
}

}  // namespace

int RunCatalog(const Args& args) {
  CommonOptions common;
  bool ere = false;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  options.add_options()("ere", po::bool_switch(&ere), "export: POSIX extended regexes for grep -E");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "catalog", kSynopsis, options, "action", &values)) return *stop;
  std::vector<std::string> action;
  if (values.count("action") > 0) action = values["action"].as<std::vector<std::string>>();
  if (action.empty()) return UsageError("usage: foreshock catalog " + std::string(kSynopsis));
  const std::string verb = action[0];
  const std::vector<std::string> rest(action.begin() + 1, action.end());
  if (verb != "list" && verb != "lint" && verb != "test" && verb != "explain" && verb != "export") {
    return UsageError("unknown catalog action '" + verb + "' (list, lint, test, explain, export)");
  }
  // lint and test take the catalog paths to check as arguments, checked as `scan --catalog`
  // would load them: on top of the built-in catalog (unless --no-builtin-catalog, or the
  // paths are the built-in files themselves), so a file may use and override built-in
  // entries. test tries only those paths' examples. Alone, they check the built-in catalog
  // plus any --catalog.
  if ((verb == "lint" || verb == "test") && !rest.empty()) {
    common.catalogs.insert(common.catalogs.end(), rest.begin(), rest.end());
    if (AllBuiltin(rest)) common.no_builtin_catalog = true;
  }
  if (verb == "explain" && rest.size() != 1) return UsageError("usage: foreshock catalog explain ID");

  LoadReport report;
  auto catalog = LoadConfiguredCatalog(common, &report);
  PrintDiagnostics(report);
  if (catalog == nullptr) {
    std::cerr << "foreshock: " << report.error_count() << " error(s) in the catalog\n";
    return kExitError;
  }
  if (verb == "lint") {
    std::cout << catalog->patterns().size() << " patterns, " << catalog->rules().size()
              << " rules: no errors\n";
    return kExitOk;
  }
  if (verb == "list" && rest.size() > 1) return UsageError("usage: foreshock catalog list [PREFIX]");
  if (verb == "list") return List(*catalog, rest.empty() ? "" : rest[0]);
  if (verb == "export") return Export(*catalog, ere);
  if (verb == "test") return Test(*catalog, rest);
  return Explain(*catalog, rest[0]);
}

}  // namespace foreshock::app
