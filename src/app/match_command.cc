// `foreshock match [FILE|-]...`: for each record, the patterns that hit it, the record's
// node and level, what they captured (as written) and the line that matched, then hit
// counts per pattern, like fail2ban-regex. For writing and debugging catalog entries; it
// correlates nothing. --regex RE tries an ad-hoc pattern instead of the catalog; --missed ID
// prints the lines that hold a pattern's rarest literal but that it did not match (the
// near misses a too-strict regex leaves). With --show, every record is printed as foreshock
// understood it (format and envelope, time, level, node, cluster, logger, dataset, message,
// exception text, hits), as text or, with --json, one JSON object per line.

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/common_options.h"
#include "app/main.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/nearest_names.h"
#include "base/terminal_text.h"
#include "correlate/alert_text.h"
#include "sink/alert_json.h"
#include "input/fd_source.h"
#include "match/matcher.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

constexpr size_t kShownLineChars = 160;

// The line of the record's text around `offset`, cut to kShownLineChars around the offset
// (a match deep in a long line is shown from a little before it), escaped.
std::string LineAt(const std::string& text, size_t offset) {
  size_t begin = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;  // npos + 1 == 0
  const size_t end = std::min(text.find('\n', offset), text.size());
  std::string lead;
  if (offset - begin > kShownLineChars / 2) {
    begin = offset - kShownLineChars / 4;
    while (begin < offset && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) ++begin;
    lead = "\u2026";
  }
  std::string line = lead + text.substr(begin, end - begin);
  if (line.size() > kShownLineChars) {
    size_t cut = kShownLineChars;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
    line = line.substr(0, cut) + "\u2026";
  }
  return EscapeForTerminal(line);
}

// FILE:LINE  PATTERN [severity]  node NODE, LEVEL  capture=value ... (as written)
//   | the line that matched
void PrintHit(const RecordReader& reader, const LogRecord& record, const Pattern& pattern,
              const PatternHit& hit) {
  std::string captures;
  for (const Capture& capture : hit.captures) captures += " " + capture.name + "=" + EscapeForTerminal(capture.text);
  std::printf("%s:%llu  %s [%s]  %s, %s %s\n  | %s\n", EscapeForTerminal(reader.name()).c_str(),
              static_cast<unsigned long long>(record.line_number), pattern.id.c_str(),
              std::string(SeverityName(pattern.severity)).c_str(),
              record.node.empty() ? "no node" : ("node " + EscapeForTerminal(record.node)).c_str(),
              std::string(LevelName(record.level)).c_str(), captures.c_str(),
              LineAt(record.text, hit.match_begin).c_str());
}

// The longest literal a text must hold for `regex` to match it, lower-cased: the likely
// rarest word of its lines. Empty when the regex needs none.
std::string RarestLiteral(const std::string& regex) {
  re2::FilteredRE2 filtered(3);
  int id = 0;
  RE2::Options options;
  options.set_log_errors(false);
  if (filtered.Add(regex, options, &id) != RE2::NoError) return "";
  std::vector<std::string> atoms;
  filtered.Compile(&atoms);
  std::string rarest;
  for (const std::string& atom : atoms) {
    if (atom.size() > rarest.size()) rarest = atom;
  }
  return rarest;
}

// Where `text` holds the lower-cased `lower`, ignoring case; npos when it does not.
size_t FindFolded(std::string_view text, const std::string& lower) {
  auto folded = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  const auto at = std::search(text.begin(), text.end(), lower.begin(), lower.end(),
                              [&](char a, char b) { return folded(a) == b; });
  return at == text.end() ? std::string_view::npos : static_cast<size_t>(at - text.begin());
}

// A catalog of one pattern, for --regex: checked as the loader checks patterns.
Result<std::unique_ptr<const Catalog>> AdHocCatalog(const std::string& regex) {
  RE2::Options options;
  options.set_log_errors(false);
  RE2 compiled(regex, options);
  if (!compiled.ok()) return Status::InvalidArgument("--regex '" + regex + "': " + compiled.error());
  Pattern pattern;
  pattern.id = "regex";
  pattern.title = "--regex";
  pattern.category = "ad-hoc";
  pattern.regex = regex;
  return std::make_unique<const Catalog>(std::vector<Pattern>{pattern}, std::vector<Rule>{});
}

constexpr size_t kShownExceptionBytes = 2000;

// The record as foreshock understood it, one JSON object.
nlohmann::json RecordJson(const LogRecord& record, const std::vector<PatternHit>& hits, const Catalog& catalog) {
  nlohmann::json out = {{"source", std::string(record.source)},
                        {"line", record.line_number},
                        {"format", std::string(record.format)},
                        {"envelope", record.envelope},
                        {"@timestamp", record.has_time ? FormatTimestamp(record.time) : ""},
                        {"time_inherited", record.time_inherited},
                        {"level", std::string(LevelName(record.level))},
                        {"node", record.node},
                        {"cluster", record.cluster},
                        {"logger", record.logger},
                        {"dataset", record.dataset},
                        {"message", std::string(record.message())},
                        {"exception", record.text.substr(std::min(record.text.size(), record.message_length + 1),
                                                         kShownExceptionBytes)},
                        {"truncated", record.truncated},
                        {"hits", nlohmann::json::array()}};
  for (const PatternHit& hit : hits) {
    const Pattern& pattern = catalog.patterns()[static_cast<size_t>(hit.pattern)];
    nlohmann::json captures = nlohmann::json::object();
    for (const Capture& capture : hit.captures) captures[capture.name] = capture.text;
    // The node the hit is about: the record's own, or the one its line names (subject).
    out["hits"].push_back({{"pattern", pattern.id},
                           {"severity", std::string(SeverityName(pattern.severity))},
                           {"about", SubjectNode(pattern, hit, record)},
                           {"captures", captures}});
  }
  return out;
}

// The same, for people: one line per field, log text escaped for the terminal.
void ShowRecord(const nlohmann::json& shown) {
  auto text = [](const nlohmann::json& value) { return EscapeForTerminal(value.get<std::string>()); };
  std::printf("%s:%llu  %s%s\n", text(shown["source"]).c_str(), static_cast<unsigned long long>(shown["line"].get<uint64_t>()),
              text(shown["format"]).c_str(),
              shown["envelope"].get<std::string>().empty() ? "" : (" in " + text(shown["envelope"])).c_str());
  const std::string time = shown["@timestamp"].get<std::string>();
  std::printf("  time       %s%s\n", time.empty() ? "(none)" : time.c_str(),
              shown["time_inherited"].get<bool>() ? " (the previous record's)" : "");
  for (const char* field : {"level", "node", "cluster", "logger", "dataset", "message"}) {
    if (shown[field].get<std::string>().empty()) continue;
    std::printf("  %-10s %s\n", field, text(shown[field]).c_str());
  }
  // Exception text line by line, as a stack trace reads.
  std::istringstream exception(shown["exception"].get<std::string>());
  const char* label = "exception";
  for (std::string line; std::getline(exception, line); label = "") {
    std::printf("  %-10s %s\n", label, EscapeForTerminal(line).c_str());
  }
  for (const nlohmann::json& hit : shown["hits"]) {
    std::string captures;
    for (const auto& [name, value] : hit["captures"].items()) captures += " " + name + "=" + text(value);
    // "about es-data-2" when the line is about another node than the one that logged it.
    const std::string about =
        hit["about"] == shown["node"] ? "" : " about " + text(hit["about"]) + " (node is the observer)";
    std::printf("  hit        %s [%s]%s%s\n", hit["pattern"].get<std::string>().c_str(),
                hit["severity"].get<std::string>().c_str(), about.c_str(), captures.c_str());
  }
  std::printf("\n");
}

}  // namespace

int RunMatch(const Args& args) {
  CommonOptions common;
  bool quiet = false;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  AddInputOptions(&options, &common);
  AddLoggingOption(&options, &common);
  bool show = false;
  bool json = false;
  std::string regex, missed;
  options.add_options()("regex", po::value(&regex), "try this RE2 regex on the lines instead of the catalog")(
      "missed", po::value(&missed),
      "print the lines that hold this pattern's rarest literal but that it did not match")(
      "summary-only", po::bool_switch(&quiet), "print only the hit counts")(
      "show", po::bool_switch(&show),
      "print every record as foreshock understood it: format, envelope, time, level, node, cluster, logger, "
      "dataset, message, exception text, hits")("json", po::bool_switch(&json), "with --show: one JSON object per record");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "match", "[OPTIONS] [FILE|-]...", options, "input", &values)) {
    return *stop;
  }
  if (Status status = SetUpLogging(common.log_level); !status.ok()) return UsageError(status.message());
  std::vector<std::string> inputs = {"-"};
  if (values.count("input") > 0) inputs = values["input"].as<std::vector<std::string>>();

  LoadReport report;
  std::unique_ptr<const Catalog> catalog;
  if (regex.empty()) {
    catalog = LoadConfiguredCatalog(common, &report);
    for (const Diagnostic& diagnostic : report.diagnostics()) spdlog::warn("{}", diagnostic.ToString());
    if (catalog == nullptr) return UsageError("the catalog has errors; run 'foreshock catalog lint'");
  } else {
    auto ad_hoc = AdHocCatalog(regex);
    if (!ad_hoc.ok()) return UsageError(ad_hoc.status().message());
    catalog = std::move(ad_hoc).value();
  }
  int missed_pattern = -1;
  std::string missed_literal;
  if (!missed.empty()) {
    missed_pattern = catalog->FindPattern(missed);
    if (missed_pattern < 0) {
      return UsageError("--missed " + missed + ": no such pattern in the catalog" +
                        DidYouMean(missed, catalog->PatternIds()));
    }
    missed_literal = RarestLiteral(catalog->patterns()[static_cast<size_t>(missed_pattern)].regex);
    if (missed_literal.empty()) return UsageError("--missed " + missed + ": its regex needs no literal to look for");
    std::printf("lines holding \"%s\" that %s did not match:\n", EscapeForTerminal(missed_literal).c_str(),
                missed.c_str());
  }
  uint64_t near_misses = 0;
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  if (!matcher.ok()) return UsageError(matcher.status().message());
  auto reader_options = ReaderOptions(common);
  if (!reader_options.ok()) return UsageError(reader_options.status().message());

  std::map<std::string, uint64_t> counts;
  uint64_t records = 0;
  uint64_t matched = 0;
  std::vector<PatternHit> hits;
  for (const std::string& path : inputs) {
    auto source = FdSource::Open(path);
    if (!source.ok()) return UsageError(source.status().message());
    RecordReaderOptions per_input = *reader_options;
    per_input.default_node = DefaultNode(common, path);
    per_input.default_cluster = DefaultCluster(common, path);
    auto reader = RecordReader::Create(std::move(source).value(), per_input);
    if (!reader.ok()) return UsageError(reader.status().message());
    LogRecord record;
    while (true) {
      auto next = (*reader)->Read(&record, std::chrono::seconds(1));
      if (!next.ok()) return UsageError(next.status().message());
      if (*next == RecordReader::Next::kEnd) break;
      if (*next != RecordReader::Next::kRecord) continue;
      ++records;
      hits.clear();
      (*matcher)->Match(record, &hits);
      if (!hits.empty()) ++matched;
      if (missed_pattern >= 0) {
        const bool hit = std::any_of(hits.begin(), hits.end(), [&](const PatternHit& h) { return h.pattern == missed_pattern; });
        const size_t at = hit ? std::string_view::npos : FindFolded(record.text, missed_literal);
        if (at != std::string_view::npos) {
          ++near_misses;
          std::printf("%s:%llu  %s, %s\n  | %s\n", EscapeForTerminal((*reader)->name()).c_str(),
                      static_cast<unsigned long long>(record.line_number),
                      record.node.empty() ? "no node" : ("node " + EscapeForTerminal(record.node)).c_str(),
                      std::string(LevelName(record.level)).c_str(), LineAt(record.text, at).c_str());
        }
        continue;
      }
      for (const PatternHit& hit : hits) {
        const Pattern& pattern = catalog->patterns()[static_cast<size_t>(hit.pattern)];
        ++counts[pattern.id];
        if (!quiet && !show) PrintHit(**reader, record, pattern, hit);
      }
      if (show && json) std::printf("%s\n", DumpAlertJson(RecordJson(record, hits, *catalog)).c_str());
      if (show && !json) ShowRecord(RecordJson(record, hits, *catalog));
    }
  }
  if (show && json) return kExitOk;  // stdout is JSON lines only
  if (missed_pattern >= 0) {
    std::printf("\n%s, %s holding \"%s\" not matched by %s\n", Counted(records, "record", "records").c_str(),
                Counted(near_misses, "record", "records").c_str(), EscapeForTerminal(missed_literal).c_str(),
                missed.c_str());
    return kExitOk;
  }
  std::printf("\n%s, %llu matched\n", Counted(records, "record", "records").c_str(),
              static_cast<unsigned long long>(matched));
  for (const auto& [id, count] : counts) {
    std::printf("%8llu  %s\n", static_cast<unsigned long long>(count), id.c_str());
  }
  return kExitOk;
}

}  // namespace foreshock::app
