// `foreshock match [FILE|-]...`: for each record, the patterns that hit it and what they
// captured, then hit counts per pattern, like fail2ban-regex. For writing and debugging
// catalog entries; it correlates nothing.

#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>

#include "app/common_options.h"
#include "app/main.h"
#include "app/verb.h"
#include "base/terminal_text.h"
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

}  // namespace

int RunMatch(const Args& args) {
  CommonOptions common;
  bool quiet = false;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  AddInputOptions(&options, &common);
  AddLoggingOption(&options, &common);
  options.add_options()("summary-only", po::bool_switch(&quiet), "print only the hit counts");
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
    auto reader = RecordReader::Create(std::move(source).value(), *reader_options);
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
        if (!quiet) PrintHit(**reader, record, pattern, hit);
      }
    }
  }
  std::printf("\n%llu records, %llu matched\n", static_cast<unsigned long long>(records),
              static_cast<unsigned long long>(matched));
  for (const auto& [id, count] : counts) {
    std::printf("%8llu  %s\n", static_cast<unsigned long long>(count), id.c_str());
  }
  return kExitOk;
}

}  // namespace foreshock::app
