// More `foreshock watch` behaviour: where a new file starts, polling without inotify,
// symlinked logs (Kubernetes), and a correlation chain that spans a restart.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "testing/precursor_lines.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::TempDir;

pid_t Start(std::vector<std::string> args, const std::string& out, const std::string& err) {
  args.insert(args.begin(), "watch");
  return testing::StartForeshock(args, out, err);
}

int Stop(pid_t pid) { return testing::StopProcess(pid, SIGTERM); }

std::string Slurp(const std::string& path) { return testing::ReadFileIfExists(path); }

// Whole lines only: the last alert may be half written while watch runs.
std::vector<std::string> Summaries(const std::string& path) {
  std::vector<std::string> out;
  std::string text = Slurp(path);
  text.erase(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json alert = nlohmann::json::parse(line);
    out.push_back(alert["@timestamp"].get<std::string>() + " " + alert["event"]["action"].get<std::string>() +
                  " stage=" + alert["foreshock"]["stage"].dump());
  }
  return out;
}

using testing::WaitFor;

std::string Sample(const std::string& name) { return std::string(testing::kSamplesDir) + "/" + name; }

void Append(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app);
  out << text;
}

TEST(WatchMoreTest, ANewFileStartsAtItsEndByDefault) {
  TempDir dir;
  const std::string log = dir.Write("es.json", testing::ReadFile(Sample("formats/ecs.json")));
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const pid_t pid = Start({log}, out, err);
  ASSERT_TRUE(WaitFor([&] { return Slurp(err).find("following") != std::string::npos; }, 10s));
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(Slurp(out).empty()) << "what was there before is history";
  Append(log, testing::ReadFile(Sample("formats/ecs.json")));
  EXPECT_TRUE(WaitFor([&] { return Summaries(out).size() == 2; }, 10s));
  EXPECT_EQ(Stop(pid), 0);
}

TEST(WatchMoreTest, PollsWithoutInotifyAndFollowsSymlinks) {
  TempDir dir;
  fs::create_directories(dir.path() + "/pods");
  const std::string target = dir.path() + "/pods/es-data-1.log";
  const std::string link = dir.path() + "/containers/es-data-1.log";
  fs::create_directories(dir.path() + "/containers");
  { std::ofstream touch(target); }
  fs::create_symlink(target, link);
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const pid_t pid = Start({"--no-inotify", "--poll-interval", "50ms", "--from", "beginning",
                           dir.path() + "/containers/*.log"}, out, err);
  ASSERT_TRUE(WaitFor([&] { return Slurp(err).find("following") != std::string::npos; }, 10s));
  Append(target, testing::ReadFile(Sample("formats/cri.log")));
  EXPECT_TRUE(WaitFor([&] { return Summaries(out).size() == 2; }, 10s)) << Slurp(err);
  EXPECT_EQ(Stop(pid), 0);
}

// Nothing is silent: a glob that matches only rolled archives says so (watch does not follow
// them, replay reads them), one that matches nothing yet says so once, then names each file
// it picks up.
TEST(WatchMoreTest, AGlobOfOnlyArchivesOrOfNothingYetSaysSo) {
  TempDir dir;
  dir.Write("es-2026-11-28-1.json.gz", "\x1f\x8b not really gzip");
  const std::string err = dir.path() + "/err";
  const pid_t pid = Start({dir.path() + "/es*", dir.path() + "/later/*.json"}, dir.path() + "/out", err);
  ASSERT_TRUE(WaitFor([&] { return Slurp(err).find("matches no file yet") != std::string::npos; }, 10s)) << Slurp(err);
  EXPECT_NE(Slurp(err).find("es* matches only compressed archives (" + dir.path() + "/es-2026-11-28-1.json.gz)"),
            std::string::npos)
      << Slurp(err);
  EXPECT_NE(Slurp(err).find("'foreshock replay'"), std::string::npos);
  fs::create_directories(dir.path() + "/later");
  dir.Write("later/es.json", "");
  ASSERT_TRUE(WaitFor([&] { return Slurp(err).find("following " + dir.path() + "/later/es.json") != std::string::npos; },
                      10s))
      << Slurp(err);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Stop(pid), 0);
  const std::string said = Slurp(err);
  EXPECT_EQ(said.find("matches no file yet"), said.rfind("matches no file yet")) << "said once:\n" << said;
  EXPECT_EQ(said.find("compressed archives"), said.rfind("compressed archives")) << said;
  EXPECT_EQ(said.find("following " + dir.path() + "/es-"), std::string::npos) << "the archive is not followed";
}

// Half the seed incident, a restart, the other half: the chain goes on where it was and
// the alerts are exactly those of one uninterrupted run.
TEST(WatchMoreTest, AChainSpansARestart) {
  TempDir dir;
  const std::string all = testing::ReadFile(Sample("seed-incident/order-events-node-2.json"));
  const size_t middle = all.find('\n', all.find("\"2026-11-29T03:08")) + 1;  // after heap pressure began
  const std::string log = dir.path() + "/node-2.json";
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  // The catalog's story only (what a fresh watch learns is NoveltyTest's).
  const std::vector<std::string> args = {"--from", "beginning", "--state-dir", dir.path() + "/state", "--no-novelty", log};
  pid_t pid = Start(args, out, err);
  Append(log, all.substr(0, middle));
  ASSERT_TRUE(WaitFor([&] { return Summaries(out).size() == 2; }, 15s)) << Slurp(err);
  ASSERT_EQ(Stop(pid), 0);
  Append(log, all.substr(middle));
  pid = Start(args, out, err);
  ASSERT_TRUE(WaitFor([&] { return Summaries(out).size() == 4; }, 15s)) << Slurp(err);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Stop(pid), 0);
  EXPECT_EQ(Summaries(out), (std::vector<std::string>{"2026-11-29T02:54:11.482Z firing stage=1",
                                                      "2026-11-29T03:04:18.201Z escalated stage=2",
                                                      "2026-11-29T03:13:02.117Z escalated stage=3",
                                                      "2026-11-29T04:06:22.735Z resolved stage=3"}));
}

// The master-loss chain's alerts (es.chain.gc_storm): the storm, the master failed, the node left.
const std::vector<std::string> kMasterLossChain = {"2026-11-29T09:41:05.220Z firing stage=1",
                                                   "2026-11-29T09:44:17.031Z escalated stage=2",
                                                   "2026-11-29T09:44:32.105Z escalated stage=3"};

// The lines of a master-loss scenario file stamped from FROM to TO (ISO 8601, as the lines
// have them: they sort as text).
std::string MasterLossLines(const std::string& file, const std::string& from, const std::string& to) {
  std::istringstream all(testing::ReadFile(Sample("scenarios/master-loss/" + file)));
  std::string text;
  for (std::string line; std::getline(all, line);) {
    const std::string stamp = line.substr(line.find("\"@timestamp\":\"") + 14, 24);
    if (stamp >= from && stamp <= to) text += line + "\n";
  }
  return text;
}

// A chain's steps logged by two nodes keep their order when the watcher catches one node's
// writer part way through a line: the later step, read whole from another file, waits for
// that line's end (not only the 150 ms a hit waits for other files).
TEST(WatchMoreTest, AHitWaitsForTheOlderLineAnotherFileIsPartWayThrough) {
  TempDir dir;
  const auto line_of = [](const std::string& file, const std::string& stamp) {
    return MasterLossLines(file, stamp, stamp);
  };
  const std::string storm = line_of("es-master-1.json", "2026-11-29T09:41:05.220Z");
  const std::string master_failed = line_of("es-data-2.json", "2026-11-29T09:44:17.031Z");
  const std::string node_left = line_of("es-master-2.json", "2026-11-29T09:44:32.105Z");
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  for (const char* name : {"/es-master-1.json", "/es-data-2.json", "/es-master-2.json"}) {
    std::ofstream(dir.path() + name).flush();
  }
  const pid_t pid = Start({"--from", "beginning", "--state-dir", dir.path() + "/state", "--no-novelty",
                           dir.path() + "/*.json"},
                          out, err);
  Append(dir.path() + "/es-master-1.json", storm);
  ASSERT_TRUE(WaitFor([&] { return Summaries(out).size() == 1; }, 15s)) << Slurp(err);
  const size_t cut = master_failed.find("failed, restarting");
  Append(dir.path() + "/es-data-2.json", master_failed.substr(0, cut));
  std::this_thread::sleep_for(300ms);
  Append(dir.path() + "/es-master-2.json", node_left);
  std::this_thread::sleep_for(800ms);
  Append(dir.path() + "/es-data-2.json", master_failed.substr(cut));
  WaitFor([&] { return Summaries(out).size() == 3; }, 10s);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Stop(pid), 0);
  EXPECT_EQ(Summaries(out), kMasterLossChain) << Slurp(err);
}

// Lines FIRST to LAST (1-based) of a disk-fill scenario file, each with its newline.
std::string DiskFillLines(const std::string& file, int first, int last) {
  std::istringstream all(testing::ReadFile(Sample("scenarios/disk-fill/" + file)));
  std::string text;
  int number = 0;
  for (std::string line; std::getline(all, line);) {
    if (++number >= first && number <= last) text += line + "\n";
  }
  return text;
}

// The disk-fill chain's alerts from a watcher of both files: each gets its lines before the
// two last stages (`master_before`, `data_before`; stages 1 and 2 are the master's), then the
// master gets `flood_stage` (its flood-stage line, 03:02:14.907, stage 3, and what follows
// it) and es-data-3 at once its read-only block (03:02:51.012, stage 4) whole. Whatever holds
// the master's older line back, the later hit must wait for it.
std::vector<std::string> DiskFillAlertsWatched(const std::string& master_before, const std::string& data_before,
                                               const std::string& flood_stage) {
  TempDir dir;
  const std::string master = dir.path() + "/es-master-1.log", data = dir.path() + "/es-data-3.log";
  std::ofstream(master).flush();
  std::ofstream(data).flush();
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const pid_t pid = Start({"--from", "beginning", "--state-dir", dir.path() + "/state", "--no-novelty",
                           dir.path() + "/*.log"},
                          out, err);
  Append(data, data_before);
  Append(master, master_before);
  EXPECT_TRUE(WaitFor([&] { return Summaries(out).size() == 2; }, 15s)) << Slurp(err);
  Append(master, flood_stage);
  Append(data, DiskFillLines("es-data-3.log", 180, 183));  // the read-only block, and the next record
  WaitFor([&] { return Summaries(out).size() == 4; }, 10s);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Stop(pid), 0);
  EXPECT_EQ(Slurp(err).find("past --lateness"), std::string::npos) << Slurp(err);
  return Summaries(out);
}

const std::vector<std::string> kDiskFillChain = {
    "2026-11-29T01:40:02.118Z firing stage=1", "2026-11-29T02:25:00.533Z escalated stage=2",
    "2026-11-29T03:02:14.907Z escalated stage=3", "2026-11-29T03:02:51.012Z escalated stage=4"};

// A plain record is complete only once the next one starts, or the file has been quiet for a
// second: until then it may still get lines (a stack trace). The master's flood-stage line,
// the last of its file, is such a record when the data node's later read-only block comes
// whole in the other file.
TEST(WatchMoreTest, AHitWaitsForTheOlderPlainRecordAnotherFileHasNotEnded) {
  EXPECT_EQ(DiskFillAlertsWatched(DiskFillLines("es-master-1.log", 1, 191), DiskFillLines("es-data-3.log", 1, 179),
                                  DiskFillLines("es-master-1.log", 192, 192)),
            kDiskFillChain);
}

// The same, already on disk when the watcher starts: its first step reads both files, and the
// data node's read-only block (stage 4) must wait there too for the master's older record,
// which ends a second later. (That step once ran as if one file were followed: the block went
// at once, and the master's stage 3 came too late.)
TEST(WatchMoreTest, TheFirstStepWaitsForAnOlderRecordOfAnotherFileToo) {
  TempDir dir;
  Append(dir.path() + "/es-master-1.log", DiskFillLines("es-master-1.log", 1, 192));
  Append(dir.path() + "/es-data-3.log", DiskFillLines("es-data-3.log", 1, 183));
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const pid_t pid = Start({"--from", "beginning", "--state-dir", dir.path() + "/state", "--no-novelty",
                           dir.path() + "/*.log"},
                          out, err);
  WaitFor([&] { return Summaries(out).size() == 4; }, 10s);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Stop(pid), 0);
  EXPECT_EQ(Slurp(err).find("past --lateness"), std::string::npos) << Slurp(err);
  EXPECT_EQ(Summaries(out), kDiskFillChain) << Slurp(err);
}

// es-data-2 has been quiet for four minutes when it logs that its master failed (stage 2):
// the event clock holds that stamp (more than --max-clock-jump from the node's clock) until
// the node's next lines go on from it, or a second passes. The other master's node-left line
// (stage 3), 15 s later in the logs and read a moment after, waits for it.
TEST(WatchMoreTest, AHitWaitsForTheOlderLineTheEventClockHolds) {
  TempDir dir;
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const std::string start = "2026-11-29T00:00:00.000Z";
  Append(dir.path() + "/es-master-1.json", MasterLossLines("es-master-1.json", start, "2026-11-29T09:41:05.220Z"));
  Append(dir.path() + "/es-data-2.json", MasterLossLines("es-data-2.json", start, "2026-11-29T09:40:17.392Z"));
  Append(dir.path() + "/es-master-2.json", MasterLossLines("es-master-2.json", start, "2026-11-29T09:44:19.774Z"));
  const pid_t pid = Start({"--from", "beginning", "--state-dir", dir.path() + "/state", "--no-novelty",
                           "--max-clock-jump", "1m", dir.path() + "/*.json"},
                          out, err);
  ASSERT_TRUE(WaitFor([&] { return Summaries(out).size() == 1; }, 15s)) << Slurp(err);
  std::this_thread::sleep_for(300ms);
  Append(dir.path() + "/es-data-2.json",
         MasterLossLines("es-data-2.json", "2026-11-29T09:44:17.031Z", "2026-11-29T09:44:17.031Z"));
  std::this_thread::sleep_for(300ms);
  Append(dir.path() + "/es-master-2.json",
         MasterLossLines("es-master-2.json", "2026-11-29T09:44:32.105Z", "2026-11-29T09:44:32.105Z"));
  WaitFor([&] { return Summaries(out).size() == 3; }, 10s);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Stop(pid), 0);
  EXPECT_EQ(Summaries(out), kMasterLossChain) << Slurp(err);
}

}  // namespace
}  // namespace foreshock

namespace foreshock {
namespace {

// Two watchers on one --state-dir would each send every alert: the second is refused, naming
// the first's pid, and once the first is gone (even by SIGKILL) the dir is free again.
TEST(WatchMoreTest, ASecondWatcherOnTheSameStateDirIsRefused) {
  testing::TempDir dir;
  const std::string log = dir.Write("es.log", "");
  const std::string state = dir.path() + "/state";
  const std::vector<std::string> args = {"watch", "--state-dir", state, log};
  const int first = testing::StartForeshock(args, dir.path() + "/out1", dir.path() + "/err1");
  ASSERT_TRUE(testing::WaitFor([&] { return testing::ReadFileIfExists(state + "/lock") == std::to_string(first) + "\n"; },
                               std::chrono::seconds(10)));
  const testing::ProcessResult second = testing::RunForeshock(args);
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find("in use by another foreshock watch (pid " + std::to_string(first) + ")"), std::string::npos)
      << second.err;
  EXPECT_EQ(testing::StopProcess(first, SIGKILL), 128 + SIGKILL);
  const int third = testing::StartForeshock(args, dir.path() + "/out3", dir.path() + "/err3");
  EXPECT_TRUE(testing::WaitFor([&] { return testing::ReadFileIfExists(state + "/lock") == std::to_string(third) + "\n"; },
                               std::chrono::seconds(10)))
      << testing::ReadFileIfExists(dir.path() + "/err3");
  EXPECT_EQ(testing::StopProcess(third, SIGTERM), 0) << testing::ReadFileIfExists(dir.path() + "/err3");
}

}  // namespace
}  // namespace foreshock

namespace foreshock {
namespace {

// A FIFO, and a symlink to /dev/zero, matching the glob: neither is a log file. Each is
// reported once and passed over; the real file beside them gets every alert, and SIGTERM
// is honoured at once.
TEST(WatchMoreTest, AFifoOrADeviceMatchingTheGlobIsPassedOverAndStarvesNothing) {
  testing::TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  const std::string logs = dir.path() + "/logs";
  fs::create_directories(logs);
  ASSERT_EQ(::mkfifo((logs + "/a_server.json").c_str(), 0644), 0);
  fs::create_symlink("/dev/zero", logs + "/b_server.json");
  const std::string log = logs + "/c_server.json";
  std::ofstream(log).close();
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const int pid = testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog, "--from",
                                           "beginning", logs + "/*_server.json"},
                                          out, err);
  ASSERT_TRUE(WaitFor([&] { return Slurp(err).find("following " + log) != std::string::npos; }, 10s)) << Slurp(err);
  std::ofstream(log, std::ios::app) << testing::PrecursorLine(0) << testing::PrecursorLine(1) << testing::PrecursorLine(2);
  EXPECT_TRUE(WaitFor(
      [&] {
        const std::string alerts = Slurp(out);
        return std::count(alerts.begin(), alerts.end(), '\n') == 3;
      },
      10s))
      << Slurp(out) << Slurp(err);
  const auto stopping = std::chrono::steady_clock::now();
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 2s);
  const std::string said = Slurp(err);
  for (const char* name : {"/a_server.json", "/b_server.json"}) {
    const std::string line = logs + name + ": not a regular file";
    EXPECT_NE(said.find(line), std::string::npos) << said;
    EXPECT_EQ(said.find(line), said.rfind(line)) << "reported once: " << said;
  }
}

// Each way a state file can be unusable is refused at start with a message naming what is
// wrong (never a library's raw exception, never a retry loop); --reset-state sets it aside
// and starts afresh; a state dir that is a file is named as such.
TEST(WatchMoreTest, AnUnusableStateIsRefusedClearlyAndResetStateSetsItAside) {
  TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  const std::string log = dir.Write("es.json", "");
  const std::string state_dir = dir.path() + "/state";
  const std::string entry = R"({"device":1,"inode":1,"head_hash":1,"head_bytes":0,"offset":0})";
  const struct {
    std::string state;
    std::string said;
  } cases[] = {
      {R"({"version":1,"files":{"X":{"device":"a","inode":1,"head_hash":1,"head_bytes":0,"offset":0}}})",
       R"(the entry of X "device" is "a", not a whole number)"},
      {R"({"version":1,"files":{"X":{"device":1,"inode":1,"head_hash":1,"head_bytes":0,"offset":-5}}})",
       R"(the entry of X "offset" is -5, not a whole number)"},
      {R"({"version":1,"files":{"X":{"device":1,"inode":1,"head_hash":1,"head_bytes":0}}})",
       R"(the entry of X has no "offset")"},
      {R"({"version":9,"files":{}})", "has state version 9; this foreshock reads version 1 (it was written by a newer"},
      {R"({"version":1,"files":{"X":)" + entry + R"(}, "correlation":{"watermark":"soon"}})",
       "its correlation or self-monitor state is damaged: type must be number, but is string"},
      {R"({"version":1,"files":{"X":)", "is not a foreshock state file: not valid JSON (cut short or overwritten?)"},
  };
  for (const auto& c : cases) {
    fs::remove_all(state_dir);
    fs::create_directories(state_dir);
    std::ofstream(state_dir + "/state.json") << c.state;
    testing::ProcessOptions options;
    options.timeout = 10s;
    const auto refused = testing::RunForeshock(
        {"watch", "--no-builtin-catalog", "--catalog", catalog, "--state-dir", state_dir, log}, options);
    EXPECT_EQ(refused.exit_code, 2) << c.state << "\n" << refused.err;
    EXPECT_NE(refused.err.find(state_dir + "/state.json"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find(c.said), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("run with --reset-state to set it aside and start afresh"), std::string::npos);
    EXPECT_EQ(refused.err.find("json.exception"), std::string::npos) << refused.err;
  }
  // The last one, set aside: the watcher runs, alerts, and leaves the old file for a look.
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const int pid = testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog, "--state-dir",
                                           state_dir, "--reset-state", "--from", "beginning", log},
                                          out, err);
  Append(log, testing::PrecursorLine(0));
  EXPECT_TRUE(WaitFor([&] { return Slurp(out).find("PRECURSOR-0") != std::string::npos; }, 10s)) << Slurp(err);
  EXPECT_EQ(Stop(pid), 0);
  EXPECT_NE(Slurp(err).find("set aside as " + state_dir + "/state.json.unusable-"), std::string::npos) << Slurp(err);
  size_t aside = 0;
  for (const auto& file : fs::directory_iterator(state_dir)) {
    if (file.path().filename().string().starts_with("state.json.unusable-")) {
      ++aside;
      EXPECT_EQ(Slurp(file.path().string()), cases[std::size(cases) - 1].state);
    }
  }
  EXPECT_EQ(aside, 1u);
  EXPECT_NE(Slurp(state_dir + "/state.json").find("es.json"), std::string::npos) << "a new state was saved";

  const std::string file_not_folder = dir.Write("not-a-folder", "");
  const auto refused = testing::RunForeshock({"watch", "--state-dir", file_not_folder, log});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--state-dir " + file_not_folder + " is a file, not a folder"), std::string::npos)
      << refused.err;
}

// A rotated file deleted while foreshock was stopped is a loss it finds at start; a kill -9
// before its first look at itself (about a second later) must not make the next run forget
// it: foreshock.data_lost still goes out.
TEST(WatchMoreTest, ALossFoundJustBeforeAKillIsAlertedOnByTheNextRun) {
  TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  const std::string log = dir.Write("es.json", "");
  const std::string state = dir.path() + "/state";
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  auto start = [&] {
    return testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog, "--from", "beginning",
                                    "--state-dir", state, log},
                                   out, err);
  };
  pid_t pid = start();
  Append(log, testing::PrecursorLine(0));
  ASSERT_TRUE(WaitFor([&] { return Slurp(out).find("PRECURSOR-0") != std::string::npos; }, 10s)) << Slurp(err);
  ASSERT_EQ(Stop(pid), 0);
  // While stopped: more lines, then the file rotated away and deleted before anyone read them.
  Append(log, testing::PrecursorLine(1));
  fs::rename(log, log + ".1");
  fs::remove(log + ".1");
  Append(log, testing::PrecursorLine(2));
  pid = start();
  ASSERT_TRUE(WaitFor([&] { return Slurp(state + "/state.json").find("\"lost_unreported\":1") != std::string::npos; },
                      10s))
      << Slurp(state + "/state.json") << Slurp(err);
  testing::StopProcess(pid, SIGKILL);  // the loss is saved; its alert may not be out yet
  pid = start();
  EXPECT_TRUE(WaitFor([&] { return Slurp(out).find("foreshock.data_lost") != std::string::npos; }, 10s))
      << Slurp(out) << Slurp(err);
  EXPECT_EQ(Stop(pid), 0);
  const std::string alerts = Slurp(out);
  size_t fired = 0;
  for (size_t at = 0; (at = alerts.find("\"foreshock.data_lost\"", at)) != std::string::npos; ++at) ++fired;
  EXPECT_EQ(fired, 1u) << "alerted on once: " << alerts;
}

// The evidence names the file a line was in and its line number there, whatever happened
// between: a restart (the count goes on from the saved one), a rotation while running (the
// new file counts from 1), a rotation while stopped (the old file, by its new name, then the
// new one), and a first start at the end of a file.
TEST(WatchMoreTest, EvidenceNamesTheFileAndLineAcrossRestartsAndRotations) {
  TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  std::string history;
  for (int i = 0; i < 100; ++i) history += testing::PrecursorLine(i, /*precursor=*/false);
  const std::string log = dir.Write("es.json", history);  // 100 lines before we start
  const std::string state = dir.path() + "/state";
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  auto start = [&] {
    return testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog, "--state-dir", state, log},
                                   out, err);
  };
  // The source of the alert of precursor n, once it is out.
  auto source_of = [&](int n) {
    std::string found;
    WaitFor([&] {
      std::istringstream lines(Slurp(out));
      for (std::string line; std::getline(lines, line);) {
        const auto alert = nlohmann::json::parse(line);
        if (alert["foreshock"]["group"]["n"] == std::to_string(n)) {
          found = alert["foreshock"]["evidence"][0]["source"].get<std::string>();
          return true;
        }
      }
      return false;
    }, 10s);
    return found;
  };
  auto ordinary = [](int from, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += testing::PrecursorLine(from + i, /*precursor=*/false);
    return text;
  };
  pid_t pid = start();
  ASSERT_TRUE(WaitFor([&] { return Slurp(state + "/state.json").find("es.json") != std::string::npos; }, 10s));
  Append(log, ordinary(100, 2) + testing::PrecursorLine(1));  // lines 101, 102, then 103
  EXPECT_EQ(source_of(1), log + ":103") << "from the end of a file: its lines are still counted from its start";
  ASSERT_EQ(Stop(pid), 0);

  Append(log, ordinary(200, 4) + testing::PrecursorLine(2));  // 104-107, then 108, while stopped
  pid = start();
  EXPECT_EQ(source_of(2), log + ":108") << "a restart goes on counting where it stopped";

  fs::rename(log, log + ".1");  // rotated while running
  Append(log, ordinary(300, 6) + testing::PrecursorLine(3));
  EXPECT_EQ(source_of(3), log + ":7") << "the new file counts from 1";
  testing::StopProcess(pid, SIGKILL);

  Append(log, ordinary(400, 1) + testing::PrecursorLine(4));  // 8, then 9, while down
  fs::rename(log, log + ".2");
  Append(log, ordinary(500, 1) + testing::PrecursorLine(5));
  pid = start();
  EXPECT_EQ(source_of(4), log + ".2:9") << "the rotated file, by the name it has now";
  EXPECT_EQ(source_of(5), log + ":2");
  EXPECT_EQ(Stop(pid), 0);
}

}  // namespace
}  // namespace foreshock
