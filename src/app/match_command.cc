// `foreshock match [FILE|-]...`: for each record, the patterns that hit it and what they
// captured, then hit counts per pattern, like fail2ban-regex. For writing and debugging
// catalog entries; it correlates nothing. With --show, every record is printed as foreshock
// understood it (format and envelope, time, level, node, cluster, logger, dataset, message,
// exception text, hits), as text or, with --json, one JSON object per line.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/common_options.h"
#include "app/main.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/terminal_text.h"
#include "correlate/alert_text.h"
#include "sink/alert_json.h"
#include "input/fd_source.h"
#include "match/matcher.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

void PrintHit(const RecordReader& reader, const LogRecord& record, const Pattern& pattern,
              const PatternHit& hit) {
  std::string captures;
  for (const Capture& capture : hit.captures) {
    captures += " " + capture.name + "=" + EscapeForTerminal(capture.text);
    if (capture.number) captures += " (" + std::to_string(*capture.number) + ")";
  }
  std::printf("%s:%llu  %s [%s]%s\n", EscapeForTerminal(reader.name()).c_str(),
              static_cast<unsigned long long>(record.line_number), pattern.id.c_str(),
              std::string(SeverityName(pattern.severity)).c_str(), captures.c_str());
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
  options.add_options()("summary-only", po::bool_switch(&quiet), "print only the hit counts")(
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
  auto catalog = LoadConfiguredCatalog(common, &report);
  for (const Diagnostic& diagnostic : report.diagnostics()) spdlog::warn("{}", diagnostic.ToString());
  if (catalog == nullptr) return UsageError("the catalog has errors; run 'foreshock catalog lint'");
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
  std::printf("\n%s, %llu matched\n", Counted(records, "record", "records").c_str(),
              static_cast<unsigned long long>(matched));
  for (const auto& [id, count] : counts) {
    std::printf("%8llu  %s\n", static_cast<unsigned long long>(count), id.c_str());
  }
  return kExitOk;
}

}  // namespace foreshock::app
