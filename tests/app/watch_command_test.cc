// End-to-end tests of `foreshock watch`: the built binary as a child process following real
// files that a writer appends to and rotates, killed and restarted along the way.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
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

constexpr const char* kCatalog = testing::kOneAlertPerPrecursorCatalog;

std::string Line(int n, bool precursor) { return testing::PrecursorLine(n, precursor); }

void Append(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app);
  out << text;
}

pid_t StartWatch(std::vector<std::string> args, const std::string& out_path, const std::string& err_path) {
  args.insert(args.begin(), "watch");
  return testing::StartForeshock(args, out_path, err_path);
}

int Stop(pid_t pid, int signal) { return testing::StopProcess(pid, signal); }

// Alert counts per precursor number in a JSON-lines file.
std::map<int, int> AlertsPerPrecursor(const std::string& path) {
  std::map<int, int> counts;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json alert = nlohmann::json::parse(line, nullptr, false);
    if (alert.is_discarded()) continue;  // a line cut by SIGKILL mid-write
    if (alert["event"]["action"] == "firing") ++counts[std::stoi(alert["foreshock"]["group"]["n"].get<std::string>())];
  }
  return counts;
}

using testing::WaitFor;

class WatchTest : public ::testing::Test {
 protected:
  WatchTest() {
    catalog_ = dir_.Write("catalog.yaml", kCatalog);
    log_ = dir_.path() + "/es.json";
    out_ = dir_.path() + "/alerts.jsonl";
    err_ = dir_.path() + "/stderr.log";
  }
  std::vector<std::string> Args(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"--no-builtin-catalog", "--catalog", catalog_, "--from", "beginning",
                                     "--state-dir", dir_.path() + "/state"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(log_);
    return args;
  }
  // Waits until precursors 0..n-1 all alerted.
  void ExpectAll(int n) {
    EXPECT_TRUE(WaitFor([&] { return static_cast<int>(AlertsPerPrecursor(out_).size()) >= n; }, 10s))
        << testing::ReadFile(err_);
    const auto counts = AlertsPerPrecursor(out_);
    for (int i = 0; i < n; ++i) {
      auto it = counts.find(i);
      EXPECT_TRUE(it != counts.end() && it->second == 1)
          << "precursor " << i << " alerted " << (it == counts.end() ? 0 : it->second) << " times";
    }
  }

  TempDir dir_;
  std::string catalog_;
  std::string log_;
  std::string out_;
  std::string err_;
};

TEST_F(WatchTest, FollowsEveryRotationStyle) {
  const pid_t pid = StartWatch(Args(), out_, err_);
  int n = 0;
  auto write_some = [&] {
    for (int i = 0; i < 5; ++i, ++n) Append(log_, Line(n, true) + Line(n, false));
  };
  write_some();  // the file is created after watch started
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 5; }, 10s)) << testing::ReadFile(err_);
  fs::rename(log_, log_ + ".1");  // rename + create (log4j RollingFile)
  write_some();
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 10; }, 10s)) << testing::ReadFile(err_);
  fs::copy_file(log_, log_ + ".2");  // copytruncate (logrotate)
  { std::ofstream truncate(log_, std::ios::trunc); }
  std::this_thread::sleep_for(300ms);
  write_some();
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 15; }, 10s)) << testing::ReadFile(err_);
  fs::remove(log_);  // delete + recreate
  std::this_thread::sleep_for(300ms);
  write_some();
  ExpectAll(20);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
  const std::string err = testing::ReadFile(err_);
  EXPECT_NE(err.find(" rotation"), std::string::npos) << err;
  EXPECT_NE(err.find("1 truncation,"), std::string::npos) << err;
}

TEST_F(WatchTest, ARestartReadsWhatWasWrittenMeanwhileAndRepeatsNothing) {
  pid_t pid = StartWatch(Args(), out_, err_);
  for (int n = 0; n < 5; ++n) Append(log_, Line(n, true));
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 5; }, 10s));
  ASSERT_EQ(Stop(pid, SIGTERM), 0);
  for (int n = 5; n < 8; ++n) Append(log_, Line(n, true));  // while stopped
  fs::rename(log_, log_ + ".1");                             // rotated while stopped
  for (int n = 8; n < 10; ++n) Append(log_, Line(n, true));
  pid = StartWatch(Args(), out_, err_);
  ExpectAll(10);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

TEST_F(WatchTest, CopytruncateRefilledPastTheOldOffsetIsReadFromItsStart) {
  const pid_t pid = StartWatch(Args(), out_, err_);
  int n = 0;
  for (; n < 3; ++n) Append(log_, Line(n, true));
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 3; }, 10s)) << testing::ReadFile(err_);
  // Frozen, the watcher cannot see the file shrink: when it wakes up, the file is already
  // longer than its offset and only the file's first bytes tell that it was rewritten.
  ::kill(pid, SIGSTOP);
  fs::copy_file(log_, log_ + ".1");
  { std::ofstream truncate(log_, std::ios::trunc); }
  for (; n < 12; ++n) Append(log_, Line(n, true));
  ::kill(pid, SIGCONT);
  ExpectAll(12);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

TEST_F(WatchTest, AFileIsSavedAsSoonAsItIsOpenedSoItsRotationWhileDownIsFollowed) {
  // No data and no durable checkpoint for an hour: only opening the file can save it.
  pid_t pid = StartWatch(Args({"--checkpoint-interval", "1h"}), out_, err_);
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(err_).find("following") != std::string::npos; }, 10s));
  { std::ofstream create(log_); }  // ES starts a new, empty log file
  const std::string state = dir_.path() + "/state/state.json";
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(state).find("es.json") != std::string::npos; }, 10s))
      << testing::ReadFile(err_);
  Stop(pid, SIGKILL);
  for (int n = 0; n < 3; ++n) Append(log_, Line(n, true));  // written and rotated while down
  fs::rename(log_, log_ + ".1");
  Append(log_, Line(3, true));
  pid = StartWatch(Args(), out_, err_);
  ExpectAll(4);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

TEST_F(WatchTest, AFileMetEmptyAndCopytruncatedWhileDownIsReadFromItsCopy) {
  { std::ofstream create(log_); }
  pid_t pid = StartWatch(Args({"--checkpoint-interval", "1h"}), out_, err_);
  const std::string state = dir_.path() + "/state/state.json";
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(state).find("es.json") != std::string::npos; }, 10s))
      << testing::ReadFile(err_);
  Stop(pid, SIGKILL);  // it knows the inode, but not a byte of the content
  int n = 0;
  for (; n < 5; ++n) Append(log_, Line(n, true));
  fs::copy_file(log_, log_ + ".1");  // copytruncate while down, then more lines
  { std::ofstream truncate(log_, std::ios::trunc); }
  for (; n < 7; ++n) Append(log_, Line(n, true));
  pid = StartWatch(Args(), out_, err_);
  ExpectAll(7);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

// Copytruncated after all of it was read, then refilled, renamed and followed by a new file,
// all while stopped: the copy holds nothing new; the file itself, by its new name, and the
// new one hold the rest.
TEST_F(WatchTest, AFileCopytruncatedRefilledAndRenamedWhileDownIsReadAgainByItsNewName) {
  pid_t pid = StartWatch(Args(), out_, err_);
  int n = 0;
  for (; n < 3; ++n) Append(log_, Line(n, true));
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 3; }, 10s)) << testing::ReadFile(err_);
  ASSERT_EQ(Stop(pid, SIGTERM), 0);
  fs::copy_file(log_, log_ + ".c3");
  { std::ofstream truncate(log_, std::ios::trunc); }
  for (; n < 6; ++n) Append(log_, Line(n, true));
  fs::rename(log_, log_ + ".r6");
  for (; n < 8; ++n) Append(log_, Line(n, true));
  pid = StartWatch(Args(), out_, err_);
  ExpectAll(8);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

// SIGKILL at random moments while a writer appends and rotates (rename, or copytruncate):
// over many rounds every precursor line alerts exactly once. (Delete + recreate is tested
// with a live watcher: a deleted file that nobody holds open is gone for any reader.)
TEST_F(WatchTest, SurvivesSigkillAtRandomMomentsWithoutLosingOrRepeating) {
  std::mt19937 random(4242);
  int n = 0;
  // The watcher must have met the file once: a file rotated away before any watcher ever
  // opened it is an old archive, not a file it follows.
  {
    const pid_t pid = StartWatch(Args(), out_, err_);
    Append(log_, Line(n++, true));
    ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 1; }, 10s));
    // Met means saved: the file's identity is in the state, taken as soon as it was opened.
    ASSERT_TRUE(WaitFor([&] {
      return testing::ReadFileIfExists(dir_.path() + "/state/state.json").find("head_hash") != std::string::npos;
    }, 10s));
    Stop(pid, SIGKILL);
  }
  // What the writer did and the watchers' rotation decisions, kept with the files of a failure.
  std::ofstream writer_log(dir_.path() + "/writer.log");
  for (int round = 0; round < 12; ++round) {
    const pid_t pid = StartWatch(Args({"--log-level", "debug"}), out_, err_);
    writer_log << "watcher " << pid << " started at line " << n << std::endl;
    const int lines = 20 + static_cast<int>(random() % 40);
    for (int i = 0; i < lines; ++i, ++n) {
      Append(log_, Line(n, n % 3 != 2) + Line(n, false));
      std::this_thread::sleep_for(1ms);  // a busy node, not a tight loop
      if (random() % 25 == 0) {
        if (random() % 2 == 0) {
          writer_log << "renamed at line " << n << std::endl;
          fs::rename(log_, log_ + ".r" + std::to_string(n));
        } else {
          writer_log << "copytruncated at line " << n << std::endl;
          fs::copy_file(log_, log_ + ".c" + std::to_string(n));
          std::ofstream truncate(log_, std::ios::trunc);
        }
      }
      if (random() % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(random() % 20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(random() % 120));
    writer_log << "SIGKILL at line " << n << std::endl;
    Stop(pid, SIGKILL);
  }
  const size_t started = testing::ReadFile(err_).size();
  const pid_t pid = StartWatch(Args(), out_, err_);
  // Let the last watcher start and catch up before it is asked to stop.
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFile(err_).find("following", started) != std::string::npos; }, 10s));
  std::this_thread::sleep_for(500ms);
  int precursors = 0;
  for (int i = 0; i < n; ++i) precursors += i % 3 != 2 ? 1 : 0;
  // Generous: on a loaded machine under TSan, a last watcher that must drain every round's
  // rotated files (the others killed before they started) takes tens of seconds.
  EXPECT_TRUE(WaitFor([&] { return static_cast<int>(AlertsPerPrecursor(out_).size()) >= precursors; }, 60s))
      << testing::ReadFile(err_);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
  const auto counts = AlertsPerPrecursor(out_);
  int seen = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 2) {
      EXPECT_FALSE(counts.contains(i)) << i;
      continue;
    }
    auto it = counts.find(i);
    EXPECT_TRUE(it != counts.end() && it->second == 1)
        << "precursor " << i << " alerted " << (it == counts.end() ? 0 : it->second) << " times";
    seen += it != counts.end() ? 1 : 0;
  }
  EXPECT_EQ(seen, precursors);
}

TEST_F(WatchTest, SighupWithABrokenCatalogKeepsTheOldOne) {
  const pid_t pid = StartWatch(Args(), out_, err_);
  Append(log_, Line(0, true));
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 1; }, 10s));
  { std::ofstream broken(catalog_, std::ios::trunc); broken << "patterns:\n  - id: [broken\n"; }
  ::kill(pid, SIGHUP);
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFile(err_).find("still running the old one") != std::string::npos; }, 10s))
      << testing::ReadFile(err_);
  Append(log_, Line(1, true));
  ExpectAll(2);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

TEST_F(WatchTest, SighupLoadsANewCatalogWithoutLosingItsPlace) {
  const pid_t pid = StartWatch(Args(), out_, err_);
  Append(log_, Line(0, true));
  ASSERT_TRUE(WaitFor([&] { return AlertsPerPrecursor(out_).size() == 1; }, 10s));
  std::string renamed = kCatalog;
  renamed.replace(renamed.find("PRECURSOR-"), 10, "HARBINGER-");
  { std::ofstream rewrite(catalog_, std::ios::trunc); rewrite << renamed; }
  ::kill(pid, SIGHUP);
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(err_).find("catalog reloaded") != std::string::npos; }, 10s));
  std::string harbinger = Line(1, true);
  harbinger.replace(harbinger.find("PRECURSOR-"), 10, "HARBINGER-");
  Append(log_, harbinger + Line(2, true));
  ExpectAll(2);  // the new pattern alerts; the old one no longer does
  EXPECT_FALSE(AlertsPerPrecursor(out_).contains(2));
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
}

TEST_F(WatchTest, AFileThatCannotBeReadIsReportedAndTheRestIsWatched) {
  const std::string unreadable = dir_.path() + "/not-a-file.json";
  fs::create_directory(unreadable);
  std::vector<std::string> args = Args();
  args.insert(args.end() - 1, unreadable);
  const pid_t pid = StartWatch(args, out_, err_);
  Append(log_, Line(0, true));
  ExpectAll(1);
  EXPECT_EQ(Stop(pid, SIGTERM), 0);
  EXPECT_NE(testing::ReadFile(err_).find("not-a-file.json"), std::string::npos);
}

// A writer paused part way through a line (a loaded machine can stop it for seconds) leaves
// a line without its end: it waits for its end, however long, and is read whole. (Plain
// text: there a whole line waits in the assembler for possible stack-trace lines.)
TEST_F(WatchTest, ALineWrittenInTwoPartsSecondsApartIsReadWhole) {
  std::ofstream(log_).flush();
  const pid_t pid = StartWatch(Args(), out_, err_);
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(err_).find("following") != std::string::npos; }, 10s));
  const std::string first = "[2026-11-29T02:54:11,482][WARN ][o.e.s.SearchService      ] [es-1] ordinary line\n";
  const std::string line = "[2026-11-29T02:54:12,001][WARN ][o.e.s.SearchService      ] [es-1] PRECURSOR-12\n";
  const size_t cut = line.find("PRECURSOR-1") + std::string("PRECURSOR-1").size();
  Append(log_, first + line.substr(0, cut));
  std::this_thread::sleep_for(2500ms);  // well past the 1 s after which a pending record goes
  Append(log_, line.substr(cut));
  ASSERT_TRUE(WaitFor([&] { return !AlertsPerPrecursor(out_).empty(); }, 10s)) << testing::ReadFile(err_);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  EXPECT_EQ(AlertsPerPrecursor(out_), (std::map<int, int>{{12, 1}})) << "not PRECURSOR-1 from a cut line";
}

}  // namespace
}  // namespace foreshock
