// `foreshock scan [FILE|-]...`: reads files (or stdin) to the end, merging several inputs
// by event time, and prints alerts as JSON lines on stdout as they happen.

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "app/common_options.h"
#include "app/main.h"
#include "app/outputs.h"
#include "app/pipeline.h"
#include "app/telemetry.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/terminal_text.h"
#include "decode/decoder_registry.h"
#include "framing/envelope.h"
#include "input/decompressing_source.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

// The node name for records that carry none: --node, else the file's name without its
// extensions ("es-node-1.json" -> "es-node-1").

void LogSummary(const std::vector<std::unique_ptr<RecordReader>>& readers, const Pipeline& pipeline,
                const Matcher& matcher) {
  InputStats total;
  for (const auto& reader : readers) {
    const InputStats& stats = reader->stats();
    total.lines += stats.lines;
    total.records += stats.records;
    total.malformed += stats.malformed;
    total.unreadable += stats.unreadable;
    total.truncated += stats.truncated;
    total.no_time += stats.no_time;
    total.header_only += stats.header_only;
    total.quiet_lane += stats.quiet_lane;
    total.quiet_run += stats.quiet_run;
    total.settled_in_runs += stats.settled_in_runs;
    total.gates_tuned += stats.gates_tuned;
  }
  const PipelineSummary& summary = pipeline.summary();
  spdlog::info("{}, {}, {}, {}; {} malformed (searched as text), "
               "{} unreadable (passed over), {} truncated, {} without a timestamp",
               Counted(total.lines, "line", "lines"), Counted(total.records, "record", "records"),
               Counted(summary.hits, "pattern hit", "pattern hits"), Counted(summary.alerts, "alert", "alerts"),
               total.malformed, total.unreadable, total.truncated, total.no_time);
  spdlog::debug("literal prefilter: {} literals; {} records decoded header-only on their raw bytes "
                "({} on the quiet lane, {} of them passed over in quiet runs, {} of those settled by their "
                "shape for novelty); {} gate tunings over {} inputs; {} checks stopped, {} let through to "
                "the regexes; {} matched pattern by pattern",
                matcher.atom_count(), total.header_only, total.quiet_lane, total.quiet_run, total.settled_in_runs,
                total.gates_tuned, readers.size(),
                matcher.prefilter_skipped(),
                matcher.prefilter_passed(),
                matcher.fallback_count());
  const CorrelatorStats& correlator = pipeline.correlator_stats();
  spdlog::info("correlation: {} inhibited or absorbed, {} duplicate records, {} late hit records (applied "
               "out of order), {}",
               correlator.inhibited, correlator.duplicates, summary.late,
               Counted(summary.clock_anomalies, "clock anomaly", "clock anomalies"));
  if (correlator.evicted > 0) {
    spdlog::warn("{} correlation groups were evicted to stay within the state bound",
                 correlator.evicted);
  }
}

// --explain-format: reads up to `limit` records of each input and prints, per input, which
// envelope and format decoded how many records, why (what marks each on a line), with the
// first line of each.
std::atomic<bool> g_reopen{false};

void OnSighup(int) { g_reopen = true; }

int ExplainFormats(const std::vector<std::unique_ptr<RecordReader>>& readers) {
  constexpr int kLimit = 1000;
  for (const auto& reader : readers) {
    LogRecord record;
    for (int read = 0; read < kLimit;) {
      auto next = reader->Read(&record, std::chrono::seconds(1));
      if (!next.ok()) return UsageError(next.status().message());
      if (*next != RecordReader::Next::kRecord) break;
      ++read;
    }
    const InputStats& stats = reader->stats();
    std::printf("%s: %llu records in %llu lines (%llu malformed, %llu unreadable)\n",
                EscapeForTerminal(reader->name()).c_str(), static_cast<unsigned long long>(stats.records),
                static_cast<unsigned long long>(stats.lines),
                static_cast<unsigned long long>(stats.malformed),
                static_cast<unsigned long long>(stats.unreadable));
    for (const auto& [key, count] : stats.formats) {
      const size_t slash = key.find('/');
      const std::string format = key.substr(slash + 1);
      const std::string envelope = slash == 0 ? "no envelope" : "envelope " + key.substr(0, slash);
      std::string why = slash == 0 ? "" : std::string(EnvelopeShape(key.substr(0, slash))) + ", holding ";
      for (const FormatInfo& info : KnownFormats()) {
        if (info.name == format) why += info.description;
      }
      std::printf("  %6llu  format %-9s %s\n         why:   %s\n         first: %s\n",
                  static_cast<unsigned long long>(count), format.c_str(), envelope.c_str(), why.c_str(),
                  EscapeForTerminal(stats.format_examples.at(key)).c_str());
    }
  }
  return kExitOk;
}

}  // namespace

int RunScan(const Args& args) {
  CommonOptions common;
  bool fail_on_alert = false;
  bool explain_format = false;
  std::string lateness = "30s";
  std::string drain_timeout = "30s";
  OutputOptions output_options;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  AddBaselineOption(&options, &common);
  AddInputOptions(&options, &common);
  AddLoggingOption(&options, &common);
  AddOutputOptions(&options, &output_options);
  options.add_options()("drain-timeout", po::value(&drain_timeout)->default_value("30s"),
                        "at the end, how long to wait for alerts still queued for a receiver");
  options.add_options()("fail-on-alert", po::bool_switch(&fail_on_alert),
                        "exit 1 when an alert at warning or above fired")(
      "explain-format", po::bool_switch(&explain_format),
      "print which envelope and format each input was read as, and why, instead of alerts")(
      "lateness", po::value(&lateness)->default_value("30s"),
      "how far out of event-time order lines may arrive and still correlate as if in order");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "scan", "[OPTIONS] [FILE|-]...", options, "input", &values)) {
    return *stop;
  }
  if (Status status = SetUpLogging(common.log_level); !status.ok()) return UsageError(status.message());
  std::vector<std::string> inputs;
  if (values.count("input") > 0) inputs = values["input"].as<std::vector<std::string>>();
  if (inputs.empty()) inputs.push_back("-");

  LoadReport report;
  auto catalog = LoadConfiguredCatalog(common, &report);
  for (const Diagnostic& diagnostic : report.diagnostics()) {
    if (diagnostic.kind == Diagnostic::Kind::kError) {
      spdlog::error("{}", diagnostic.ToString());
    } else {
      spdlog::info("{}", diagnostic.ToString());
    }
  }
  if (catalog == nullptr) return UsageError("the catalog has errors; run 'foreshock catalog lint'");
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  if (!matcher.ok()) return UsageError(matcher.status().message());
  auto novelty = NoveltyFromOptions(common, *catalog);
  if (!novelty.ok()) return UsageError(novelty.status().message());

  CorrelatorOptions correlator_options;
  if (auto parsed = ParseDuration(lateness)) {
    correlator_options.allowed_lateness = *parsed;
  } else {
    return UsageError("--lateness '" + lateness + "' is not a duration like 30s or 2m");
  }
  if (Status clock = ApplyClockOptions(common, &correlator_options); !clock.ok()) return UsageError(clock.message());
  auto reader_options = ReaderOptions(common);
  if (!reader_options.ok()) return UsageError(reader_options.status().message());
  // An input that cannot be opened is reported and passed over; the others are read.
  std::vector<std::unique_ptr<RecordReader>> readers;
  std::vector<const DecompressingSource*> sources;  // asked at the end whether they were damaged
  uint64_t failed_inputs = 0;
  for (const std::string& path : inputs) {
    auto source = OpenInputFile(path);
    if (!source.ok()) {
      spdlog::error("{}; passed over", source.status().message());
      ++failed_inputs;
      continue;
    }
    sources.push_back(source.value().get());
    RecordReaderOptions per_input = *reader_options;
    if (!common.exhaustive) per_input.prefilter = matcher->get();
    per_input.keep_notable = *novelty != nullptr;
    per_input.settle_shapes = novelty->get();
    per_input.settle_within = SettleWithin(correlator_options);
    per_input.default_node = DefaultNode(common, path);
    per_input.default_cluster = DefaultCluster(common, path);
    auto reader = RecordReader::Create(std::move(source).value(), per_input);
    if (!reader.ok()) return UsageError(reader.status().message());
    readers.push_back(std::move(reader).value());
  }
  if (readers.empty()) return UsageError("none of the " + Counted(inputs.size(), "input", "inputs") + " could be opened");

  if (explain_format) return ExplainFormats(readers);

  const auto drain = ParseDuration(drain_timeout);
  if (!drain) return UsageError("--drain-timeout is a duration like 30s");
  auto outputs = Outputs::Build(output_options, /*state_dir=*/"");
  if (!outputs.ok()) return UsageError(outputs.status().message());
  auto telemetry = Telemetry::Start(output_options);
  if (!telemetry.ok()) return UsageError(telemetry.status().message());

  std::vector<std::unique_ptr<Sink>> sinks;
  sinks.push_back((*outputs)->TakeSink());
  Pipeline pipeline(*catalog, **matcher, correlator_options, std::move(sinks));
  pipeline.SetNovelty(novelty->get());
  pipeline.SetExhaustive(common.exhaustive);
  // SIGHUP reopens file outputs (logrotate), at the next tick; it never ends a pipe's scan.
  struct sigaction action {};
  action.sa_handler = OnSighup;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGHUP, &action, nullptr);
  auto report_telemetry = [&] {
    if (g_reopen.exchange(false)) (*outputs)->ReopenFiles();
    TelemetrySnapshot snapshot;
    for (const auto& reader : readers) AddInputCounters(reader->name(), reader->stats(), &snapshot);
    AddPipelineCounters(pipeline, &snapshot);
    (*outputs)->Collect(&snapshot);
    return (*telemetry)->Report(snapshot, &pipeline);
  };
  pipeline.SetTick(std::chrono::seconds(1), report_telemetry);
  Status status = pipeline.Run(readers);
  if (status.ok()) status = report_telemetry();
  if (!status.ok()) {
    spdlog::error("{}", status.message());
    return kExitError;
  }
  LogSummary(readers, pipeline, **matcher);
  if (*novelty != nullptr) LogNoveltySummary(**novelty);
  const size_t undelivered = (*outputs)->Drain(*drain);
  if ((*outputs)->Refused() > 0 || undelivered > 0) return kExitError;
  const PipelineSummary& summary = pipeline.summary();
  failed_inputs += summary.failed_inputs;
  // A damaged archive (cut, corrupt) is read up to the damage: said, as replay says it.
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i]->damage()) continue;
    spdlog::error("{}: {}; the lines before it were used", readers[i]->name(), *sources[i]->damage());
    ++failed_inputs;
  }
  if (failed_inputs > 0) {
    spdlog::error("{} of {} could not be read in full; the alerts above are of the rest",
                  Counted(failed_inputs, "input", "inputs"), inputs.size());
    return kExitDamaged;
  }
  if (fail_on_alert && summary.any_alert && summary.highest >= Severity::kWarning) return kExitAlert;
  return kExitOk;
}

}  // namespace foreshock::app
