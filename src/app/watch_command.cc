// `foreshock watch PATH|GLOB...`: the sidecar. Follows Elasticsearch's log files through
// rotation, restarts and bursts, and prints alerts as they happen. With --state-dir it
// resumes exactly where it stopped: file positions and correlation state are checkpointed
// as soon as a file is found or opened, at most every 100 ms while lines flow, durably (fsync) every
// --checkpoint-interval and at shutdown; alerts sent since the last checkpoint are journaled
// so that re-reading those lines after a crash sends none of them twice.

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "app/common_options.h"
#include "app/follower.h"
#include "app/main.h"
#include "app/outputs.h"
#include "app/self_monitor.h"
#include "app/state_lock.h"
#include "app/state_store.h"
#include "app/telemetry.h"
#include "app/verb.h"
#include "base/counted.h"
#include "base/report_limiter.h"
#include "sink/journaled_sink.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

std::atomic<bool> g_stop{false};
std::atomic<bool> g_reload{false};

void OnSignal(int signal) {
  if (signal == SIGHUP) {
    g_reload = true;
  } else {
    g_stop = true;
  }
}

void InstallSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(signal, &action, nullptr);
}

struct LoadedCatalog {
  std::unique_ptr<const Catalog> catalog;
  std::unique_ptr<Matcher> matcher;
};

// Loads the catalog and builds its matcher; null with the problems logged on failure.
std::optional<LoadedCatalog> LoadAll(const CommonOptions& common) {
  LoadReport report;
  auto catalog = LoadConfiguredCatalog(common, &report);
  for (const Diagnostic& diagnostic : report.diagnostics()) spdlog::warn("{}", diagnostic.ToString());
  if (catalog == nullptr) return std::nullopt;
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  if (!matcher.ok()) {
    spdlog::error("{}", matcher.status().message());
    return std::nullopt;
  }
  return LoadedCatalog{std::move(catalog), std::move(matcher).value()};
}

}  // namespace

int RunWatch(const Args& args) {
  // First of all: a SIGTERM during start-up must still end the run cleanly.
  InstallSignalHandlers();
  CommonOptions common;
  std::string from = "end";
  std::string state_dir;
  std::string poll_interval = "250ms";
  std::string checkpoint_interval = "1s";
  std::string lateness = "30s";
  bool no_inotify = false;
  bool reset_state = false;
  bool no_novelty = false;
  std::string drain_timeout = "5s";
  OutputOptions output_options;
  po::options_description options("Options");
  AddCatalogOptions(&options, &common);
  AddBaselineOption(&options, &common);
  AddInputOptions(&options, &common);
  AddLoggingOption(&options, &common);
  AddOutputOptions(&options, &output_options);
  options.add_options()
      ("no-novelty", po::bool_switch(&no_novelty),
       "do not look for unknown precursors (on by default with --state-dir, which keeps what it learns "
       "in baseline.json, and with --baseline)")
      ("from", po::value(&from)->default_value("end"),
       "where to start in a file seen for the first time: end or beginning")
      ("state-dir", po::value(&state_dir), "keep file positions and correlation state here")
      ("reset-state", po::bool_switch(&reset_state),
       "if the saved state cannot be used (damaged, or from a newer foreshock), set it aside and start afresh "
       "instead of refusing to start; a usable state is always kept")
      ("poll-interval", po::value(&poll_interval)->default_value("250ms"),
       "how often to look for changes without inotify (and as a safety net with it)")
      ("no-inotify", po::bool_switch(&no_inotify), "poll only (NFS, some container overlays)")
      ("checkpoint-interval", po::value(&checkpoint_interval)->default_value("1s"),
       "how often to save state durably")
      ("lateness", po::value(&lateness)->default_value("30s"),
       "how far out of event-time order lines may arrive and still correlate as if in order")
      ("drain-timeout", po::value(&drain_timeout)->default_value("5s"),
       "at shutdown, how long to wait for queued alerts (the rest stay spooled under --state-dir)");
  po::variables_map values;
  if (auto stop = ParseArgs(args, "watch", "[OPTIONS] PATH|GLOB...", options, "input", &values)) {
    return *stop;
  }
  if (Status status = SetUpLogging(common.log_level); !status.ok()) return UsageError(status.message());
  if (values.count("input") == 0) return UsageError("watch needs at least one path or glob");
  if (from != "end" && from != "beginning") return UsageError("--from must be end or beginning");
  const auto poll = ParseDuration(poll_interval);
  const auto checkpoint = ParseDuration(checkpoint_interval);
  const auto late = ParseDuration(lateness);
  const auto drain = ParseDuration(drain_timeout);
  if (!poll || !checkpoint || !late || !drain) return UsageError("durations are written like 250ms, 1s or 2m");

  auto loaded = LoadAll(common);
  if (!loaded) return UsageError("the catalog has errors; run 'foreshock catalog lint'");
  auto reader_options = ReaderOptions(common);
  if (!reader_options.ok()) return UsageError(reader_options.status().message());

  SavedState saved;
  std::unique_ptr<StateLock> state_lock;  // held until watch ends
  // An unusable state stops the start, unless --reset-state sets it aside.
  auto unusable_state = [&](const std::string& why) -> std::optional<int> {
    if (!reset_state) return UsageError(why + "; run with --reset-state to set it aside and start afresh");
    auto aside = SetStateAside(state_dir);
    if (!aside.ok()) return UsageError(why + "; and it cannot be set aside: " + aside.status().message());
    spdlog::warn("{}; set aside as {}, starting afresh (--from {})", why, *aside, from);
    saved = SavedState{};
    return std::nullopt;
  };
  if (!state_dir.empty()) {
    std::error_code error;
    if (std::filesystem::exists(state_dir, error) && !std::filesystem::is_directory(state_dir, error)) {
      return UsageError("--state-dir " + state_dir + " is a file, not a folder");
    }
    auto locked = StateLock::Acquire(state_dir);
    if (!locked.ok()) return UsageError(locked.status().message());
    state_lock = std::move(locked).value();
    auto state = LoadState(state_dir);
    if (!state.ok()) {
      if (auto stop = unusable_state(state.status().message())) return *stop;
    } else if (*state) {
      saved = std::move(**state);
    }
  }

  // Unknown precursors: against --baseline, and against what this watch learns (kept under
  // --state-dir); before a day is learned, and without --baseline, their alerts are info.
  std::unique_ptr<NoveltyDetector> novelty;
  const std::string learned_path = state_dir.empty() ? "" : state_dir + "/baseline.json";
  if (!no_novelty && (!common.baseline.empty() || !state_dir.empty())) {
    auto given = NoveltyFromOptions(common, *loaded->catalog);
    if (!given.ok()) return UsageError(given.status().message());
    novelty = *given != nullptr ? std::move(given).value() : std::make_unique<NoveltyDetector>(*loaded->catalog, std::nullopt);
    std::error_code error;
    if (!learned_path.empty() && std::filesystem::exists(learned_path, error)) {
      auto learned = Baseline::Load(learned_path);
      if (learned.ok()) {
        novelty->RestoreLearned(std::move(learned).value());
      } else {
        // What was learned is lost, not the run: learning starts again.
        const std::string aside = learned_path + ".unusable";
        std::filesystem::rename(learned_path, aside, error);
        spdlog::warn("{}; set aside as {}, learning afresh", learned.status().message(), aside);
      }
    }
  }

  FollowerOptions follow;
  follow.patterns = values["input"].as<std::vector<std::string>>();
  follow.start = from == "end" ? TailSource::StartAt::kEnd : TailSource::StartAt::kBeginning;
  follow.use_inotify = !no_inotify;
  follow.poll_interval = *poll;
  follow.reader = *reader_options;
  if (!common.exhaustive) follow.reader.prefilter = loaded->matcher.get();
  follow.reader.keep_notable = novelty != nullptr;

  CorrelatorOptions correlator_options;
  correlator_options.allowed_lateness = *late;
  if (Status clock = ApplyClockOptions(common, &correlator_options); !clock.ok()) return UsageError(clock.message());
  // The follower's readers run on the pipeline's thread.
  follow.reader.settle_shapes = novelty.get();
  follow.reader.settle_within = SettleWithin(correlator_options);
  if (!state_dir.empty()) std::filesystem::create_directories(state_dir);
  output_options.has_state_dir = true;
  auto outputs = Outputs::Build(output_options, state_dir);
  if (!outputs.ok()) return UsageError(outputs.status().message());
  auto telemetry = Telemetry::Start(output_options);
  if (!telemetry.ok()) return UsageError(telemetry.status().message());
  std::vector<std::unique_ptr<Sink>> sinks;
  JournaledSink* journal = nullptr;
  if (state_dir.empty()) {
    sinks.push_back((*outputs)->TakeSink());
  } else {
    Outputs* all = outputs->get();
    auto journaled = std::make_unique<JournaledSink>(state_dir + "/sent.journal", (*outputs)->TakeSink(),
                                                     [all] { return all->Unspooled() == 0; });
    journal = journaled.get();
    sinks.push_back(std::move(journaled));
  }
  // Tried on scratch copies first: a damaged state must not leave half of itself behind.
  try {
    if (!saved.correlation.is_null()) {
      Pipeline(*loaded->catalog, *loaded->matcher, correlator_options, {}).RestoreCorrelation(saved.correlation);
    }
    if (!saved.self.is_null()) SelfMonitor(Duration(0), Duration(0)).RestoreState(saved.self);
  } catch (const nlohmann::json::exception& e) {
    const std::string what = e.what();  // "[json.exception.type_error.302] type must be ..."
    const std::string why = what.substr(what.find(']') == std::string::npos ? 0 : what.find(']') + 2);
    if (auto stop = unusable_state(state_dir + "/state.json: its correlation or self-monitor state is damaged: " + why)) {
      return *stop;
    }
  }
  Pipeline pipeline(*loaded->catalog, *loaded->matcher, correlator_options, std::move(sinks));
  pipeline.SetNovelty(novelty.get());
  pipeline.SetExhaustive(common.exhaustive);
  if (!saved.correlation.is_null()) pipeline.RestoreCorrelation(saved.correlation);
  if (!saved.self.is_null()) (*telemetry)->monitor().RestoreState(saved.self);
  if (!state_dir.empty()) (*telemetry)->monitor().HoldLossesUntilSaved();
  Follower follower(follow, saved.files);

  // Returns whether the state was saved: it is not while a record waits for its
  // continuation lines (the saved offset must not split a record).
  // Nor is it while an alert is held in memory only (its spool could not be written): the
  // saved offsets must not pass the lines that made it.
  ReportLimiter save_reports(3, std::chrono::seconds(30));
  Duration save_cost{0};  // of the last checkpoint: serialising the state and writing it
  auto checkpoint_now = [&](bool durable) {
    if (state_dir.empty() || !pipeline.quiescent() || (*outputs)->Unspooled() > 0) return false;
    const uint64_t lost = follower.tail_stats().lost;
    const auto began = std::chrono::steady_clock::now();
    Status status = SaveState(
        state_dir, SavedState{follower.Positions(), pipeline.SaveCorrelation(), (*telemetry)->monitor().SaveState(lost)},
        durable);
    save_cost = std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - began);
    if (!status.ok()) {
      std::string more;
      if (save_reports.Allow(&more)) spdlog::error("cannot save state: {}{}", status.message(), more);
      return false;
    }
    if (journal != nullptr) journal->Truncate();  // the state now knows every alert sent
    (*telemetry)->monitor().LossesSaved(lost);
    return true;
  };
  // What novelty learned is saved every few minutes and at shutdown: it changes slowly, and a
  // crash loses a few minutes of learning at most.
  constexpr auto kSaveLearnedEvery = std::chrono::minutes(5);
  auto next_learned_save = std::chrono::steady_clock::now() + kSaveLearnedEvery;
  auto save_learned = [&] {
    if (novelty == nullptr || learned_path.empty()) return;
    if (Status status = novelty->learned().Save(learned_path); !status.ok()) {
      std::string more;
      if (save_reports.Allow(&more)) spdlog::error("cannot save what novelty learned: {}{}", status.message(), more);
    }
  };
  auto next_checkpoint = std::chrono::steady_clock::now() + *checkpoint;
  // Positions are saved soon after anything moves (without fsync), so that a file rotated
  // while we are down can be found by the identity we saved; fsync waits for the interval.
  constexpr Duration kSoonAfterData = std::chrono::milliseconds(100);
  auto next_light_checkpoint = std::chrono::steady_clock::now();
  size_t files_seen = 0;
  uint64_t generations_seen = 0;
  uint64_t lost_seen = 0;
  bool unsaved = false;  // data read or files found since the last saved state
  size_t unspooled = 0;  // alerts held in memory only, for want of a writable spool
  auto next_spool_retry = std::chrono::steady_clock::now();
  constexpr auto kReportEvery = std::chrono::seconds(1);
  auto next_report = std::chrono::steady_clock::now() + kReportEvery;
  while (!g_stop) {
    if (g_reload.exchange(false)) {
      (*outputs)->ReopenFiles();
      auto reloaded = LoadAll(common);
      if (!reloaded) {
        spdlog::error("SIGHUP: the new catalog has errors; still running the old one");
      } else if (Status status = pipeline.ReplaceCatalog(*reloaded->catalog, *reloaded->matcher); status.ok()) {
        if (!common.exhaustive) follower.SetPrefilter(reloaded->matcher.get());
        if (novelty != nullptr) novelty->SetCatalog(*reloaded->catalog);
        loaded = std::move(reloaded);
        spdlog::info("SIGHUP: catalog reloaded ({} patterns, {} rules)", loaded->catalog->patterns().size(),
                     loaded->catalog->rules().size());
      }
    }
    // Back-pressure: while a spool cannot be written (a full disk), no more lines are read
    // (their alerts would pile up in memory, and a crash would lose them); the write is
    // retried every half second.
    if (std::chrono::steady_clock::now() >= next_spool_retry) {
      unspooled = (*outputs)->SyncSpools();
      if (unspooled > 0) next_spool_retry = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    }
    bool got_data = false;
    Status status = unspooled == 0 ? follower.Step(&pipeline, &got_data) : Status();
    if (status.ok()) status = pipeline.OnIdle();
    if (!status.ok()) {
      spdlog::error("{}", status.message());
      return kExitError;
    }
    if (std::chrono::steady_clock::now() >= next_report) {
      TelemetrySnapshot snapshot;
      follower.AddCounters(&snapshot);
      AddPipelineCounters(pipeline, &snapshot);
      (*outputs)->Collect(&snapshot);
      if (Status reported = (*telemetry)->Report(snapshot, &pipeline); !reported.ok()) {
        spdlog::error("{}", reported.message());
        return kExitError;
      }
      next_report = std::chrono::steady_clock::now() + kReportEvery;
    }
    if (pipeline.summary().output_closed) break;
    // A file found or opened (first time, or a rotation) is saved at once: a file that
    // rotates away while we are down can only be found again by the identity we saved.
    // So is a loss just found: it must outlive a kill before its alert goes out.
    const uint64_t generations = follower.tail_stats().generations;
    const uint64_t lost = follower.tail_stats().lost;
    const bool new_files = follower.file_count() != files_seen || generations != generations_seen || lost != lost_seen;
    files_seen = follower.file_count();
    generations_seen = generations;
    lost_seen = lost;
    unsaved = unsaved || got_data || new_files;
    // Retried until it succeeds: the last record of a burst is only finished once the stream
    // has been idle, and its position must not wait for the durable interval. Checkpoints
    // are spaced at least nine times their own cost apart, so that saving a large
    // correlation state (tens of thousands of groups) takes at most a tenth of the time.
    const auto now = std::chrono::steady_clock::now();
    const bool durable_due = now >= next_checkpoint;
    if ((unsaved && (new_files || now >= next_light_checkpoint)) || durable_due) {
      if (checkpoint_now(durable_due)) unsaved = false;
      const auto after = std::chrono::steady_clock::now();
      const Duration pace = save_cost * 9;
      next_light_checkpoint = after + std::max<Duration>(kSoonAfterData, pace);
      if (durable_due) next_checkpoint = after + std::max<Duration>(*checkpoint, pace);
    }
    if (now >= next_learned_save) {
      save_learned();
      next_learned_save = now + kSaveLearnedEvery;
    }
    const bool settled = pipeline.quiescent() && !unsaved;
    if (unspooled > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // reading is paused: no file event to wait for
    } else if (!got_data) {
      follower.Wait(settled ? *poll : Duration(std::chrono::milliseconds(10)));
    }
  }
  // Lines in hand are done; a record still waiting for its continuation lines is read again
  // next time (the saved offset is before it).
  // Nothing more is read: what is held goes after its wall-clock hold.
  pipeline.EndReadRounds();
  for (int tries = 0; tries < 100 && !pipeline.quiescent(); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!pipeline.OnIdle().ok()) break;
  }
  checkpoint_now(/*durable=*/true);
  save_learned();
  if (novelty != nullptr) LogNoveltySummary(*novelty);
  (*outputs)->Drain(*drain);
  const TailStats tails = follower.tail_stats();
  spdlog::debug("literal prefilter: {} records passed over in quiet runs", follower.records_passed_over());
  spdlog::info("stopped: {}, {}; {}, {}, {} lost; {}", Counted(pipeline.summary().records, "record", "records"),
               Counted(pipeline.summary().alerts, "alert", "alerts"), Counted(tails.rotations, "rotation", "rotations"),
               Counted(tails.truncations, "truncation", "truncations"),
               Counted(tails.lost, "rotated file", "rotated files"),
               Counted(pipeline.summary().clock_anomalies, "clock anomaly", "clock anomalies"));
  return kExitOk;
}

}  // namespace foreshock::app
