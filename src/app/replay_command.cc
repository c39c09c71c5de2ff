// `foreshock replay`: the postmortem verb. Reads archived logs of many nodes (files, folders,
// globs; plain, gzip or zstd by their magic bytes), each on a thread of its own, merges them
// by event time through the same Pipeline as `scan` and `watch`, and prints the alerts a live
// run would have produced, a summary (first precursor per node, escalations, outage markers
// with lead time, busiest patterns, what could not be read) and, with --report, a
// self-contained HTML timeline.

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <tuple>

#include "app/common_options.h"
#include "app/evidence_context.h"
#include "app/input_files.h"
#include "app/main.h"
#include "app/outputs.h"
#include "app/pipeline.h"
#include "app/prefetching_reader.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/nearest_names.h"
#include "base/time_zone.h"
#include "base/timestamp_parser.h"
#include "input/decompressing_source.h"
#include "report/html_report.h"
#include "report/timeline.h"

#ifndef FORESHOCK_VERSION
#define FORESHOCK_VERSION "unknown"
#endif

namespace foreshock::app {
namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;

// What the report and --summary-json say they were made by and from.
Provenance ProvenanceOf(const Args& args, const CommonOptions& common) {
  Provenance provenance;
  provenance.version = FORESHOCK_VERSION;
  provenance.command_line = "foreshock replay";
  for (const std::string& arg : args) {
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%") ==
                                           std::string::npos;
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    provenance.command_line += " " + (plain ? arg : quoted + "'");
  }
  provenance.catalog = common.no_builtin_catalog ? "" : "built-in";
  for (const std::string& file : common.catalogs) provenance.catalog += (provenance.catalog.empty() ? "" : " + ") + file;
  provenance.generated_at = FormatTimestamp(std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now()));
  return provenance;
}

// Passes on only the alerts of the rules asked for (all when none) from --from on (the
// warm-up before it is correlated, not shown), and notes them.
class ReplaySink final : public Sink {
 public:
  ReplaySink(std::unique_ptr<Sink> outputs, std::set<std::string> rules, std::optional<TimePoint> from,
             Timeline* timeline)
      : outputs_(std::move(outputs)), rules_(std::move(rules)), from_(from), timeline_(timeline) {}
  std::string_view name() const override { return outputs_->name(); }
  Status Emit(const Alert& alert) override {
    if (!rules_.empty() && !rules_.contains(alert.rule->id)) return Status();
    if (from_ && alert.time < *from_) return Status();
    timeline_->NoteAlert(alert);
    if (alert.action != Alert::Action::kResolved && (!shown_ || alert.severity > highest_)) highest_ = alert.severity;
    shown_ = true;
    return outputs_->Emit(alert);
  }
  // The highest severity shown, when an alert was (for --fail-on-alert).
  std::optional<Severity> highest() const { return shown_ ? std::optional(highest_) : std::nullopt; }

 private:
  std::unique_ptr<Sink> outputs_;
  std::set<std::string> rules_;
  std::optional<TimePoint> from_;
  Timeline* timeline_;
  bool shown_ = false;
  Severity highest_ = Severity::kInfo;
};

// What one input held against --from/--to/--node, counted on its reading thread and read once
// the input has ended: said when a filter left nothing, so no empty result is silent.
struct InputWindow {
  uint64_t records = 0;
  uint64_t before_from = 0;  // warm-up included
  uint64_t after_to = 0;
  std::optional<TimePoint> first, last;
  std::set<std::string> nodes;
};

// The longest window of any rule: how far before --from a replay starts correlating, so a
// story under way at --from is told as a live run would tell it.
Duration LongestWindow(const Catalog& catalog) {
  Duration longest{0};
  for (const Rule& rule : catalog.rules()) longest = std::max({longest, rule.window, rule.resolve_after});
  return longest;
}

// After the run: a --from/--to window that missed every record, a --node no input has.
void SayWhatTheFiltersLeftOut(const std::vector<std::unique_ptr<InputWindow>>& windows, std::optional<TimePoint> from,
                              std::optional<TimePoint> to, const std::set<std::string>& node_filter) {
  InputWindow all;
  for (const auto& window : windows) {
    all.records += window->records;
    all.before_from += window->before_from;
    all.after_to += window->after_to;
    if (window->first && (!all.first || *window->first < *all.first)) all.first = window->first;
    if (window->last && (!all.last || *window->last > *all.last)) all.last = window->last;
    all.nodes.insert(window->nodes.begin(), window->nodes.end());
  }
  const std::vector<std::string> seen(all.nodes.begin(), all.nodes.end());
  for (const std::string& node : node_filter) {
    if (all.nodes.contains(node)) continue;
    std::string known;
    for (size_t i = 0; i < seen.size() && i < 10; ++i) known += (i > 0 ? ", " : "") + seen[i];
    if (seen.size() > 10) known += ", ...";
    spdlog::warn("--node {} matches no node in the inputs{}; they name {}", node, DidYouMean(node, seen),
                 known.empty() ? "none" : known);
  }
  if (all.records == 0 || (!from && !to) || all.before_from + all.after_to < all.records) return;
  const std::string span = FormatTimestamp(*all.first) + " to " + FormatTimestamp(*all.last);
  if (all.before_from == all.records) {
    spdlog::warn("all {} fall before --from {} (the inputs run from {})", Counted(all.records, "record", "records"),
                 FormatTimestamp(*from), span);
  } else if (all.after_to == all.records) {
    spdlog::warn("all {} fall at or after --to {} (the inputs run from {})", Counted(all.records, "record", "records"),
                 FormatTimestamp(*to), span);
  } else {
    spdlog::warn("none of the {} falls between --from and --to (the inputs run from {})",
                 Counted(all.records, "record", "records"), span);
  }
}

}  // namespace

int RunReplay(const Args& args) {
  CommonOptions common;
  OutputOptions output_options;
  std::string from_text, to_text, warm_up_text, summary_path, summary_json_path, report_path, lateness = "30s",
      drain_timeout = "30s";
  size_t context_lines = 0;
  std::vector<std::string> nodes, rules, patterns;
  bool fail_on_alert = false;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  AddBaselineOption(&options, &common);
  AddInputOptions(&options, &common, /*with_node=*/false);
  AddLoggingOption(&options, &common);
  AddOutputOptions(&options, &output_options);
  options.add_options()
      ("from", po::value(&from_text), "only lines at or after this time: 2026-11-29T02:00:00Z, or -2h (before now)")
      ("to", po::value(&to_text), "only lines before this time")
      ("warm-up", po::value(&warm_up_text),
       "with --from, correlate this much before it (not shown), so a story under way at --from keeps its "
       "start and lead time (default: the longest rule window)")
      ("node", po::value(&nodes)->composing(), "only lines of this node (repeatable)")
      ("rule", po::value(&rules)->composing(), "only show alerts of this rule (repeatable; all rules correlate)")
      ("pattern", po::value(&patterns)->composing(),
       "only show and draw hits of this pattern (repeatable; all patterns correlate)")
      ("drain-timeout", po::value(&drain_timeout)->default_value("30s"),
       "at the end, how long to wait for alerts still queued for a receiver")
      ("fail-on-alert", po::bool_switch(&fail_on_alert), "exit 1 when an alert at warning or above is shown")
      ("summary", po::value(&summary_path), "write the summary here instead of stderr")
      ("summary-json", po::value(&summary_json_path),
       "also write the summary as JSON here (provenance, nodes, alerts, outages, busiest patterns, inputs)")
      ("report", po::value(&report_path), "write a self-contained HTML timeline report here")
      ("context", po::value(&context_lines)->default_value(0),
       "in the report, show this many lines of the input before and after each evidence line")
      ("lateness", po::value(&lateness)->default_value("30s"),
       "how far out of event-time order lines may be within one input and still correlate in order");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "replay", "[OPTIONS] FILE|FOLDER|GLOB...", options, "input", &values)) {
    return *stop;
  }
  if (Status status = SetUpLogging(common.log_level); !status.ok()) return UsageError(status.message());
  if (values.count("input") == 0) return UsageError("replay needs files, folders or globs to read");
  std::vector<InputReport> failed_inputs;
  const std::vector<std::string> inputs = ExpandInputs(values["input"].as<std::vector<std::string>>(), &failed_inputs);

  auto reader_options = ReaderOptions(common);
  if (!reader_options.ok()) return UsageError(reader_options.status().message());
  std::optional<TimePoint> from, to;
  if (Status window = ParseWindow(from_text, to_text, *reader_options->zone, &from, &to); !window.ok()) {
    return UsageError(window.message());
  }
  const auto late = ParseDuration(lateness);
  if (!late) return UsageError("--lateness is a duration like 30s");
  const auto drain = ParseDuration(drain_timeout);
  if (!drain) return UsageError("--drain-timeout is a duration like 30s");
  std::optional<Duration> warm_up;
  if (!warm_up_text.empty() && !(warm_up = ParseDuration(warm_up_text))) {
    return UsageError("--warm-up is a duration like 1h or 0s");
  }
  // The summary and report files are opened now: a wrong folder fails before an hour of
  // archives is read, not after. "-" is standard output, for one of them alone, and only
  // when no alert goes there.
  std::ofstream summary_file, summary_json_file, report_file;
  std::ostream* summary_out = &summary_file;
  std::ostream* summary_json_out = &summary_json_file;
  std::ostream* report_out = &report_file;
  std::string stdout_taken_by = AlertsGoToStdout(output_options) ? "the alerts (--output stdout)" : "";
  for (auto [path, file, out, what] : {std::tuple{&summary_path, &summary_file, &summary_out, "--summary"},
                                       std::tuple{&summary_json_path, &summary_json_file, &summary_json_out,
                                                  "--summary-json"},
                                       std::tuple{&report_path, &report_file, &report_out, "--report"}}) {
    if (path->empty()) continue;
    if (*path == "-") {
      if (!stdout_taken_by.empty()) {
        return UsageError(std::string(what) + " -: standard output already carries " + stdout_taken_by +
                          "; send the alerts elsewhere with --output file:PATH, or write this to a file");
      }
      stdout_taken_by = what;
      *out = &std::cout;
      continue;
    }
    file->open(*path, std::ios::binary | std::ios::trunc);
    if (!*file) return UsageError(std::string(what) + " " + *path + ": " + std::strerror(errno));
  }

  LoadReport load_report;
  auto catalog = LoadConfiguredCatalog(common, &load_report);
  for (const Diagnostic& diagnostic : load_report.diagnostics()) {
    if (diagnostic.kind == Diagnostic::Kind::kError) spdlog::error("{}", diagnostic.ToString());
  }
  if (catalog == nullptr) return UsageError("the catalog has errors; run 'foreshock catalog lint'");
  for (const std::string& rule : rules) {
    if (catalog->FindRule(rule) >= 0) continue;
    return UsageError("--rule " + rule + ": no such rule in the catalog" + DidYouMean(rule, catalog->RuleIds()));
  }
  std::set<int> wanted_patterns;
  for (const std::string& pattern : patterns) {
    const int index = catalog->FindPattern(pattern);
    if (index < 0) {
      return UsageError("--pattern " + pattern + ": no such pattern in the catalog" +
                        DidYouMean(pattern, catalog->PatternIds()));
    }
    wanted_patterns.insert(index);
  }
  if (from) {
    if (!warm_up) warm_up = LongestWindow(*catalog);
    spdlog::info("correlating from {} ({} of warm-up before --from, not shown)", FormatTimestamp(*from - *warm_up),
                 FormatDuration(*warm_up));
  }
  const std::optional<TimePoint> correlate_from = from ? std::optional(*from - *warm_up) : std::nullopt;
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  if (!matcher.ok()) return UsageError(matcher.status().message());
  auto novelty = NoveltyFromOptions(common, *catalog);
  if (!novelty.ok()) return UsageError(novelty.status().message());

  const std::set<std::string> node_filter(nodes.begin(), nodes.end());
  std::vector<std::unique_ptr<InputWindow>> windows;
  // Runs on the input's reading thread, on its own InputWindow.
  auto keep_for = [&](InputWindow* window) {
    return [window, from, to, correlate_from, node_filter](const LogRecord& record) {
      ++window->records;
      if (!window->first || record.time < *window->first) window->first = record.time;
      if (!window->last || record.time > *window->last) window->last = record.time;
      if (!node_filter.empty() && (window->nodes.empty() || *window->nodes.rbegin() != record.node)) {
        window->nodes.insert(record.node);
      }
      if (from && record.time < *from) ++window->before_from;
      if (to && record.time >= *to) {
        ++window->after_to;
        return false;
      }
      if (correlate_from && record.time < *correlate_from) return false;
      return node_filter.empty() || node_filter.contains(record.node);
    };
  };
  struct Input {
    const DecompressingSource* source;
    std::unique_ptr<PrefetchingReader> stream;
  };
  std::vector<Input> opened;
  std::vector<RecordStream*> streams;
  for (const std::string& path : inputs) {
    auto source = OpenInputFile(path);
    if (!source.ok()) {
      std::string why = source.status().message();
      if (const std::string opening = "open " + path + ": "; why.starts_with(opening)) {
        why = "cannot open: " + why.substr(opening.size());
      }
      PassOver(path, why, &failed_inputs);
      continue;
    }
    const DecompressingSource* raw = source.value().get();
    RecordReaderOptions per_input = *reader_options;
    if (!common.exhaustive) per_input.prefilter = matcher->get();
    per_input.keep_notable = *novelty != nullptr;
    per_input.default_node = NodeOfFile(path);
    per_input.default_cluster = DefaultCluster(common, path);
    auto reader = RecordReader::Create(std::move(source).value(), per_input);
    if (!reader.ok()) return UsageError(reader.status().message());
    windows.push_back(std::make_unique<InputWindow>());
    opened.push_back({raw, std::make_unique<PrefetchingReader>(std::move(reader).value(), keep_for(windows.back().get()))});
    streams.push_back(opened.back().stream.get());
  }
  if (opened.empty()) {
    return UsageError(failed_inputs.empty() ? "no input files matched" : "none of the inputs could be read");
  }

  auto outputs = Outputs::Build(output_options, /*state_dir=*/"");
  if (!outputs.ok()) return UsageError(outputs.status().message());
  Timeline timeline;
  std::vector<std::unique_ptr<Sink>> sinks;
  auto replay_sink = std::make_unique<ReplaySink>((*outputs)->TakeSink(),
                                                 std::set<std::string>(rules.begin(), rules.end()), from, &timeline);
  const ReplaySink* shown = replay_sink.get();
  sinks.push_back(std::move(replay_sink));
  CorrelatorOptions correlator_options;
  correlator_options.allowed_lateness = *late;
  if (Status clock = ApplyClockOptions(common, &correlator_options); !clock.ok()) return UsageError(clock.message());
  Pipeline pipeline(*catalog, **matcher, correlator_options, std::move(sinks));
  pipeline.SetNovelty(novelty->get());
  pipeline.SetExhaustive(common.exhaustive);
  // Every hit correlates; the timeline draws those from --from on, of the patterns asked for.
  std::vector<PatternHit> drawn;
  pipeline.SetHitHook([&](const LogRecord& record, std::vector<PatternHit>* hits) {
    if (from && record.time < *from) return;
    if (wanted_patterns.empty()) return timeline.NoteHits(record, *hits, *catalog);
    drawn.clear();
    for (const PatternHit& hit : *hits) {
      if (wanted_patterns.contains(hit.pattern)) drawn.push_back(hit);
    }
    timeline.NoteHits(record, drawn, *catalog);
  });
  Status status = pipeline.Run(streams);
  if (!status.ok()) {
    spdlog::error("{}", status.message());
    return kExitError;
  }
  if (const uint64_t anomalies = pipeline.summary().clock_anomalies; anomalies > 0) {
    spdlog::warn("{} stamped far from their node's clock and not confirmed by the records after them: "
                 "correlated at their node's time (--max-clock-jump)",
                 Counted(anomalies, "record was", "records were"));
  }
  SayWhatTheFiltersLeftOut(windows, from, to, node_filter);
  if (*novelty != nullptr) LogNoveltySummary(**novelty);
  bool damaged = false;
  for (const Input& input : opened) {
    const InputStats& stats = input.stream->reader().stats();
    InputReport report{input.stream->name(), input.source->compression(), stats.records, stats.malformed,
                       stats.unreadable, input.source->damage().value_or(""), ""};
    if (!report.damage.empty()) {
      damaged = true;
      spdlog::error("{}: {}; the lines before it were used", report.name, report.damage);
    }
    timeline.NoteInput(std::move(report));
  }
  for (InputReport& failed : failed_inputs) timeline.NoteInput(std::move(failed));
  const std::string summary = timeline.RenderSummary();
  if (summary_path.empty()) {
    std::fputs(summary.c_str(), stderr);
  } else if (!(*summary_out << summary) || !summary_out->flush()) {
    spdlog::error("cannot write the summary to {}", summary_path);
    return kExitError;
  }
  const Provenance provenance = ProvenanceOf(args, common);
  if (!summary_json_path.empty() && !(*summary_json_out << timeline.SummaryJson(provenance).dump(2) << "\n" &&
                                      summary_json_out->flush())) {
    spdlog::error("cannot write the summary to {}", summary_json_path);
    return kExitError;
  }
  if (!report_path.empty()) {
    if (context_lines > 0) ReadEvidenceContext(context_lines, &timeline);
    *report_out << RenderHtml(timeline, provenance, *catalog);
    if (!report_out->flush()) {
      spdlog::error("cannot write the report to {}", report_path);
      return kExitError;
    }
  }
  const size_t undelivered = (*outputs)->Drain(*drain);
  if ((*outputs)->Refused() > 0 || undelivered > 0) return kExitError;
  const uint64_t failed = failed_inputs.size() + pipeline.summary().failed_inputs;
  if (failed > 0) {
    spdlog::error("{} could not be read in full; the alerts and the summary are of the rest",
                  Counted(failed, "input", "inputs"));
  }
  if (damaged || failed > 0) return kExitDamaged;
  if (fail_on_alert && shown->highest() && *shown->highest() >= Severity::kWarning) return kExitAlert;
  return kExitOk;
}

}  // namespace foreshock::app
