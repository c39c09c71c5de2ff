// `foreshock baseline`: what a cluster normally says, learned from its archives.
//   build --output FILE INPUT...  reads logs as `replay` does (formats, gzip/zstd, folders,
//                                 globs; --from/--to) and saves the baseline they make
//   merge --output FILE BASE...   one baseline of several (nodes, days)
//   show FILE                     what a baseline holds, most frequent first
// The file is what `scan`, `replay` and `watch` take as --baseline (docs/novelty.md).

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "app/common_options.h"
#include "app/input_files.h"
#include "app/main.h"
#include "app/pipeline.h"
#include "app/prefetching_reader.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/terminal_text.h"
#include "input/decompressing_source.h"
#include "learn/baseline.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

// Saves the baseline to `path`, or to standard output for "-"; returns its size in bytes.
Result<uint64_t> Write(const Baseline& baseline, const std::string& path) {
  if (path != "-") {
    FORESHOCK_RETURN_IF_ERROR(baseline.Save(path));
    std::error_code error;
    const uint64_t bytes = std::filesystem::file_size(path, error);
    return error ? 0 : bytes;
  }
  const std::string text = baseline.Text();
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return Status::IoError("cannot write the baseline to standard output", errno);
  }
  return uint64_t{text.size()};
}

void SayWhatItHolds(const Baseline& baseline, const std::string& path, uint64_t bytes) {
  size_t templates = 0;
  size_t classes = 0;
  for (const auto& [name, cluster] : baseline.clusters()) {
    templates += cluster.templates.size();
    classes += cluster.exceptions.size();
  }
  spdlog::info("{}: {} of logs, {}, {}, {}; {} bytes", path == "-" ? "standard output" : path,
               FormatLeadTime(ToSeconds(baseline.covered())),
               Counted(baseline.clusters().size(), "cluster", "clusters"),
               Counted(templates, "warning template", "warning templates"),
               Counted(classes, "exception class", "exception classes"), bytes);
}

int Build(const Args& args) {
  CommonOptions common;
  std::string output, from_text, to_text;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  AddInputOptions(&options, &common, /*with_node=*/false);
  AddLoggingOption(&options, &common);
  options.add_options()("output,o", po::value(&output), "write the baseline here (required; - for standard output)")(
      "from", po::value(&from_text), "learn only from lines at or after this time (2026-11-29T01:30:00Z, or -7d)")(
      "to", po::value(&to_text), "learn only from lines before this time");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "baseline build", "--output FILE [OPTIONS] FILE|FOLDER|GLOB...", options, "input",
                            &values)) {
    return *stop;
  }
  if (Status status = SetUpLogging(common.log_level); !status.ok()) return UsageError(status.message());
  if (output.empty()) return UsageError("baseline build needs --output FILE");
  if (values.count("input") == 0) return UsageError("baseline build needs files, folders or globs to learn from");
  auto reader_options = ReaderOptions(common);
  if (!reader_options.ok()) return UsageError(reader_options.status().message());
  std::optional<TimePoint> from, to;
  if (Status window = ParseWindow(from_text, to_text, *reader_options->zone, &from, &to); !window.ok()) {
    return UsageError(window.message());
  }
  LoadReport report;
  auto catalog = LoadConfiguredCatalog(common, &report);
  for (const Diagnostic& diagnostic : report.diagnostics()) {
    if (diagnostic.kind == Diagnostic::Kind::kError) spdlog::error("{}", diagnostic.ToString());
  }
  if (catalog == nullptr) return UsageError("the catalog has errors; run 'foreshock catalog lint'");
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  if (!matcher.ok()) return UsageError(matcher.status().message());

  std::vector<InputReport> failed;
  const std::vector<std::string> inputs = ExpandInputs(values["input"].as<std::vector<std::string>>(), &failed);
  std::vector<std::unique_ptr<PrefetchingReader>> readers;
  std::vector<RecordStream*> streams;
  std::vector<const DecompressingSource*> sources;
  for (const std::string& path : inputs) {
    auto source = OpenInputFile(path);
    if (!source.ok()) {
      PassOver(path, source.status().message(), &failed);
      continue;
    }
    sources.push_back(source.value().get());
    RecordReaderOptions per_input = *reader_options;
    if (!common.exhaustive) per_input.prefilter = matcher->get();
    per_input.keep_notable = true;
    per_input.default_node = NodeOfFile(path);
    per_input.default_cluster = DefaultCluster(common, path);
    auto reader = RecordReader::Create(std::move(source).value(), per_input);
    if (!reader.ok()) return UsageError(reader.status().message());
    readers.push_back(std::make_unique<PrefetchingReader>(std::move(reader).value(), [from, to](const LogRecord& record) {
      return (!from || record.time >= *from) && (!to || record.time < *to);
    }));
    streams.push_back(readers.back().get());
  }
  if (readers.empty()) return UsageError(failed.empty() ? "no input files matched" : "none of the inputs could be read");

  NoveltyOptions learn_only;
  learn_only.detect = false;
  NoveltyDetector learner(*catalog, std::nullopt, learn_only);
  Pipeline pipeline(*catalog, **matcher, CorrelatorOptions{}, {});
  pipeline.SetNovelty(&learner);
  pipeline.SetExhaustive(common.exhaustive);
  if (Status status = pipeline.Run(streams); !status.ok()) {
    spdlog::error("{}", status.message());
    return kExitError;
  }
  const Result<uint64_t> written = Write(learner.learned(), output);
  if (!written.ok()) return UsageError(written.status().message());
  spdlog::info("learned from {} of {}", Counted(pipeline.summary().records, "record", "records"),
               Counted(readers.size(), "input", "inputs"));
  SayWhatItHolds(learner.learned(), output, *written);
  size_t damaged = failed.size() + pipeline.summary().failed_inputs;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i]->damage()) continue;
    spdlog::error("{}: {}; the lines before it were learned", readers[i]->name(), *sources[i]->damage());
    ++damaged;
  }
  return damaged > 0 ? kExitDamaged : kExitOk;
}

int Merge(const Args& args) {
  std::string output;
  std::string log_level = "info";
  po::options_description options("Options");
  options.add_options()("output,o", po::value(&output),
                        "write the merged baseline here (required; - for standard output)")(
      "log-level", po::value(&log_level)->default_value("info"), "foreshock's own log on stderr");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "baseline merge", "--output FILE BASELINE...", options, "input", &values)) {
    return *stop;
  }
  if (Status status = SetUpLogging(log_level); !status.ok()) return UsageError(status.message());
  if (output.empty() || values.count("input") == 0) return UsageError("baseline merge needs --output FILE and baselines");
  Baseline merged;
  for (const std::string& path : values["input"].as<std::vector<std::string>>()) {
    auto baseline = Baseline::Load(path);
    if (!baseline.ok()) return UsageError(baseline.status().message());
    merged.Merge(*baseline);
  }
  const Result<uint64_t> written = Write(merged, output);
  if (!written.ok()) return UsageError(written.status().message());
  SayWhatItHolds(merged, output, *written);
  return kExitOk;
}

int Show(const Args& args) {
  size_t top = 20;
  po::options_description options("Options");
  options.add_options()("top", po::value(&top)->default_value(20), "templates shown per cluster");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "baseline show", "[--top N] FILE", options, "input", &values)) return *stop;
  if (values.count("input") != 1) return UsageError("baseline show takes one baseline file");
  const std::string path = values["input"].as<std::vector<std::string>>()[0];
  auto baseline = Baseline::Load(path);
  if (!baseline.ok()) return UsageError(baseline.status().message());
  const double days = ToSeconds(baseline->covered()) / 86400;
  std::printf("%s: %s of logs\n", EscapeForTerminal(path).c_str(), FormatLeadTime(ToSeconds(baseline->covered())).c_str());
  for (const auto& [name, cluster] : baseline->clusters()) {
    std::printf("\ncluster %s: %zu nodes, %zu warning templates (%llu evicted), %zu exception classes\n",
                EscapeForTerminal(name.empty() ? "(unnamed)" : name).c_str(), cluster.nodes.size(),
                cluster.templates.size(), static_cast<unsigned long long>(cluster.evicted), cluster.exceptions.size());
    std::vector<const TemplateStats*> templates;
    for (const auto& [key, stats] : cluster.templates) templates.push_back(&stats);
    std::sort(templates.begin(), templates.end(),
              [](const TemplateStats* a, const TemplateStats* b) { return a->count > b->count; });
    if (templates.size() > top) templates.resize(top);
    for (const TemplateStats* stats : templates) {
      std::printf("  %8.1f/day  %-5s %s: %s\n", days > 0 ? static_cast<double>(stats->count) / days : 0.0,
                  std::string(LevelName(stats->level)).c_str(), EscapeForTerminal(stats->logger).c_str(),
                  EscapeForTerminal(stats->text).c_str());
    }
    std::vector<std::pair<std::string, uint64_t>> classes;
    for (const auto& [class_name, stats] : cluster.exceptions) classes.emplace_back(class_name, stats.count);
    std::sort(classes.begin(), classes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [class_name, count] : classes) {
      std::printf("  %8.1f/day  exception %s\n", days > 0 ? static_cast<double>(count) / days : 0.0,
                  EscapeForTerminal(class_name).c_str());
    }
  }
  return kExitOk;
}

}  // namespace

int RunBaseline(const Args& args) {
  const std::string usage = "usage: foreshock baseline build|merge|show ... (see foreshock baseline build --help)";
  if (args.empty()) return UsageError(usage);
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "build") return Build(rest);
  if (args[0] == "merge") return Merge(rest);
  if (args[0] == "show") return Show(rest);
  if (args[0] == "--help" || args[0] == "-h") {
    std::printf("%s\n", usage.c_str());
    return kExitOk;
  }
  return UsageError("unknown baseline command '" + args[0] + "'; " + usage);
}

}  // namespace foreshock::app
