// The metamorphic suite of foreshock's time model: every story in samples/ (the seed incident,
// the scenarios, every format sample), perturbed as real streams are (junk before the first
// line, a stray line stamped years off, a node whose clock is minutes off, repeats, swapped
// neighbours, CRLF, rotation, a stream cut and resumed), must give the clean stream's alerts
// (rule, group, action, stage and time to the millisecond; a skewed clock must lose no firing
// or escalation), read by the built binary four ways: `scan` of the files, `scan` of stdin
// merged by time as a shipper delivers it, `replay` of gzip archives, and `watch` of files
// appended in bursts at random byte boundaries.

#include <gtest/gtest.h>
#include <signal.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "testing/perturbation.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::Expectation;
using testing::LogFile;
using testing::Perturbation;
using Alerts = std::vector<std::string>;

struct Story {
  std::string name;
  std::vector<LogFile> files;
};

// gtest prints a story by its name.
void PrintTo(const Story& story, std::ostream* out) { *out << story.name; }

std::vector<LogFile> Read(const std::vector<fs::path>& paths) {
  std::vector<LogFile> files;
  for (const fs::path& path : paths) files.push_back({path.filename().string(), testing::ReadFile(path.string())});
  return files;
}

std::vector<Story> Stories() {
  const fs::path samples(testing::kSamplesDir);
  std::vector<fs::path> dirs = {samples / "seed-incident"};
  for (const auto& entry : fs::directory_iterator(samples / "scenarios")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  std::vector<Story> stories;
  for (const fs::path& dir : dirs) {
    std::vector<fs::path> logs;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".json" || ext == ".log") logs.push_back(entry.path());
    }
    std::sort(logs.begin(), logs.end());
    stories.push_back({dir.filename().string(), Read(logs)});
  }
  std::vector<fs::path> formats;
  for (const auto& entry : fs::directory_iterator(samples / "formats")) formats.push_back(entry.path());
  std::sort(formats.begin(), formats.end());
  for (const fs::path& format : formats) stories.push_back({"formats/" + format.filename().string(), Read({format})});
  return stories;
}

// One line per alert: time, action, rule, group, stage.
Alerts AlertsOf(const std::string& out) {
  Alerts alerts;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json alert = nlohmann::json::parse(line, nullptr, false);
    if (alert.is_discarded()) {
      alerts.push_back("not JSON: " + line);
      continue;
    }
    std::string group;
    for (const auto& [field, value] : alert["foreshock"]["group"].items()) {
      group += (group.empty() ? "" : ",") + field + "=" + value.get<std::string>();
    }
    alerts.push_back(alert["@timestamp"].get<std::string>() + " " + alert["event"]["action"].get<std::string>() +
                     " " + alert["rule"]["id"].get<std::string>() + " " + group +
                     " stage=" + alert["foreshock"]["stage"].dump());
  }
  return alerts;
}

std::vector<std::string> WriteAll(const testing::TempDir& dir, const std::vector<LogFile>& files) {
  std::vector<std::string> paths;
  for (const LogFile& file : files) paths.push_back(dir.Write(file.name, file.bytes));
  return paths;
}

Alerts Run(const std::vector<std::string>& args, const testing::ProcessOptions& options = {}) {
  const testing::ProcessResult result = testing::RunForeshock(args, options);
  EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.err;
  return AlertsOf(result.out);
}

// The story's files, perturbed when `perturbation` is given.
std::vector<LogFile> Perturbed(const std::vector<LogFile>& files, const Perturbation* perturbation) {
  if (perturbation == nullptr) return files;
  std::mt19937 random(7);
  return perturbation->apply(files, &random);
}

// The records as they arrive, perturbed: a skewed node's where they were written.
std::vector<testing::Arrival> Arrivals(const std::vector<LogFile>& story, const Perturbation* perturbation) {
  if (perturbation != nullptr && perturbation->skew != std::chrono::seconds(0)) {
    return testing::ArrivalOrder(story, testing::NodeOfFile(story.front().name), perturbation->skew);
  }
  return testing::ArrivalOrder(Perturbed(story, perturbation));
}

Alerts ScanOfFiles(const std::vector<LogFile>& story, const Perturbation* perturbation) {
  const std::vector<LogFile> files = Perturbed(story, perturbation);
  testing::TempDir dir;
  std::vector<std::string> args = {"scan"};
  for (const std::string& path : WriteAll(dir, files)) args.push_back(path);
  return Run(args);
}

Alerts ScanOfStdin(const std::vector<LogFile>& story, const Perturbation* perturbation) {
  std::string stream;
  for (const testing::Arrival& arrival : Arrivals(story, perturbation)) stream += arrival.text;
  if (perturbation == nullptr || perturbation->name != "cut-at-a-random-byte-and-resumed") {
    testing::ProcessOptions options;
    options.stdin_data = stream;
    return Run({"scan"}, options);
  }
  // The shipper's connection drops mid-line and comes back a moment later.
  std::mt19937 random(static_cast<uint32_t>(stream.size()));
  const size_t cut = random() % stream.size();
  testing::ChildProcess child({testing::kForeshockBinary, "scan"});
  child.Write(stream.substr(0, cut));
  std::this_thread::sleep_for(300ms);
  child.Write(stream.substr(cut));
  child.CloseStdin();
  std::string out;
  while (auto line = child.ReadLine(30s)) out += *line + "\n";
  EXPECT_EQ(child.Wait(), 0);
  return AlertsOf(out);
}

Alerts ReplayOfGzip(const std::vector<LogFile>& story, const Perturbation* perturbation) {
  const std::vector<LogFile> files = Perturbed(story, perturbation);
  testing::TempDir dir;
  for (const LogFile& file : files) {
    gzFile gz = gzopen((dir.path() + "/" + file.name + ".gz").c_str(), "wb");
    EXPECT_NE(gz, nullptr);
    EXPECT_EQ(gzwrite(gz, file.bytes.data(), static_cast<unsigned>(file.bytes.size())), static_cast<int>(file.bytes.size()));
    gzclose(gz);
  }
  return Run({"replay", dir.path(), "--summary", dir.path() + "/summary.txt"});
}

// `watch` of each perturbation at once (one watcher each). The files are written as a node
// writes them, records in the order they arrive, in bursts of random size cut at random
// bytes (a line may be half-written when the watcher reads); a perturbation's rotated parts
// (name.2, name.1) are written under the live name and renamed away when the next begins.
// Stopped once every watcher's output has been still for a while.
std::vector<Alerts> Follow(const std::vector<LogFile>& story, const std::vector<const Perturbation*>& runs) {
  struct Watcher {
    std::unique_ptr<testing::TempDir> dir;
    std::string logs, out, err;
    int pid = 0;
  };
  std::vector<Watcher> watchers(runs.size());
  for (Watcher& watcher : watchers) {
    watcher.dir = std::make_unique<testing::TempDir>();
    watcher.logs = watcher.dir->path() + "/logs/";
    fs::create_directories(watcher.logs);
    watcher.out = watcher.dir->path() + "/alerts.jsonl";
    watcher.err = watcher.dir->path() + "/stderr.log";
    // Against scan, which looks for no unknown precursor without --baseline.
    watcher.pid = testing::StartForeshock({"watch", "--from", "beginning", "--state-dir", watcher.dir->path() + "/state",
                                           "--no-novelty", watcher.logs + "*.json", watcher.logs + "*.log", watcher.logs + "*.ndjson"},
                                          watcher.out, watcher.err);
  }
  std::this_thread::sleep_for(300ms);
  std::mt19937 random(11);
  // A rotated part is written under its live name; the part after it renames it away.
  auto live_name = [](const std::string& name) {
    return name.ends_with(".1") || name.ends_with(".2") ? name.substr(0, name.size() - 2) : name;
  };
  struct Writer {
    std::vector<LogFile> files;
    std::vector<testing::Arrival> arrivals;
    size_t next = 0;
    std::map<std::string, std::string> pending;       // live name -> bytes not yet written
    std::map<std::string, std::string> writing_part;  // live name -> file name being written
    int rotations = 0;
  };
  std::vector<Writer> writers(runs.size());
  for (size_t w = 0; w < runs.size(); ++w) {
    writers[w].files = Perturbed(story, runs[w]);
    writers[w].arrivals = Arrivals(story, runs[w]);
  }
  auto flush = [&](size_t w, bool whole) {
    for (auto& [live, bytes] : writers[w].pending) {
      // Cut at a random byte: the rest of the line comes with the next burst.
      const size_t keep = whole || bytes.empty() ? 0 : random() % std::min<size_t>(bytes.size(), 200);
      std::ofstream(watchers[w].logs + live, std::ios::app | std::ios::binary) << bytes.substr(0, bytes.size() - keep);
      bytes.erase(0, bytes.size() - keep);
    }
  };
  // A burst is what a node writes between two reads of a watcher keeping up: a few seconds of
  // its log (at most 16 KiB), all files, written one after the other (the watcher may read
  // one file's part before the other's is there). False when the writer has written all.
  auto write_burst = [&](size_t w) {
    Writer& writer = writers[w];
    size_t burst = 0;
    std::chrono::system_clock::time_point began{};
    const size_t most = 1 + random() % 16384;
    for (; writer.next < writer.arrivals.size(); ++writer.next) {
      const testing::Arrival& arrival = writer.arrivals[writer.next];
      if (burst > 0 && (arrival.time - began > 10s || burst > most)) break;
      const std::string& name = writer.files[arrival.file].name;
      const std::string live = live_name(name);
      if (writer.writing_part.contains(live) && writer.writing_part[live] != name) {
        // No line stays half-written in the file that rotates (its rest would go to the
        // new file).
        for (size_t other = 0; other < writers.size(); ++other) flush(other, /*whole=*/true);
        // A file rotates after it lived a while: once the watcher has met it (saved it in its
        // state), however slow the build.
        const std::string path = watchers[w].logs + live;
        const std::string state = watchers[w].dir->path() + "/state/state.json";
        EXPECT_TRUE(testing::WaitFor(
            [&] {
              const nlohmann::json saved = nlohmann::json::parse(testing::ReadFileIfExists(state), nullptr, false);
              return !saved.is_discarded() && saved.contains("files") && saved["files"].contains(path);
            },
            30s));
        fs::rename(path, path + "." + std::to_string(++writer.rotations));
      }
      writer.writing_part[live] = name;
      if (burst == 0) began = arrival.time;
      writer.pending[live] += arrival.text;
      burst += arrival.text.size();
    }
    const bool more = writer.next < writer.arrivals.size();
    flush(w, /*whole=*/!more);
    return more;
  };
  // Every writer a burst at a time, together, with a pause now and then.
  for (size_t tick = 0, writing = runs.size(); writing > 0; ++tick) {
    writing = 0;
    for (size_t w = 0; w < runs.size(); ++w) writing += write_burst(w) ? 1 : 0;
    if (tick % 4 == 3) std::this_thread::sleep_for(10ms);
  }
  // Every watcher has read every live file to its end (its saved state says so: a state is
  // saved once no record waits for more lines), then all are still for 3 s (a held stamp is
  // decided after 1 s of quiet). Watchers may be slow to start (sanitizers, a loaded
  // machine): stillness alone would stop one that has not begun.
  auto caught_up = [](const Watcher& watcher) {
    const nlohmann::json saved = nlohmann::json::parse(
        testing::ReadFileIfExists(watcher.dir->path() + "/state/state.json"), nullptr, false);
    if (saved.is_discarded() || !saved.contains("files")) return false;
    for (const auto& entry : fs::directory_iterator(watcher.logs)) {
      const std::string path = entry.path().string();
      const std::string extension = entry.path().extension().string();
      if (extension != ".json" && extension != ".log" && extension != ".ndjson") continue;  // rotated away
      if (!saved["files"].contains(path) || saved["files"][path].value("offset", uint64_t{0}) != fs::file_size(path)) {
        return false;
      }
    }
    return true;
  };
  std::vector<std::string> last(runs.size());
  auto still_since = std::chrono::steady_clock::now();
  const auto give_up = still_since + 180s;
  while (std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(250ms);
    bool changed = false;
    for (size_t w = 0; w < runs.size(); ++w) {
      std::string now = testing::ReadFileIfExists(watchers[w].out) + testing::ReadFileIfExists(watchers[w].err);
      if (now != last[w] || !caught_up(watchers[w])) changed = true;
      last[w] = std::move(now);
    }
    if (changed) still_since = std::chrono::steady_clock::now();
    if (std::chrono::steady_clock::now() - still_since >= 3s) break;
  }
  std::vector<Alerts> results;
  for (Watcher& watcher : watchers) {
    EXPECT_EQ(testing::StopProcess(watcher.pid, SIGTERM), 0) << testing::ReadFileIfExists(watcher.err);
    results.push_back(AlertsOf(testing::ReadFileIfExists(watcher.out)));
  }
  return results;
}

// The firings and escalations, without their times: what a skewed clock may not lose.
std::multiset<std::string> Warnings(const Alerts& alerts) {
  std::multiset<std::string> warnings;
  for (const std::string& alert : alerts) {
    const std::string rest = alert.substr(alert.find(' ') + 1);
    if (!rest.starts_with("resolved")) warnings.insert(rest);
  }
  return warnings;
}

// Each alert's highest stage: "rule group" -> stage.
std::map<std::string, int> HighestStages(const Alerts& alerts) {
  std::map<std::string, int> highest;
  for (const std::string& alert : alerts) {
    const size_t stage_at = alert.rfind(" stage=");
    const std::string rest = alert.substr(alert.find(' ', alert.find(' ') + 1) + 1, stage_at);
    int& stage = highest[rest.substr(0, rest.find(" stage="))];
    stage = std::max(stage, std::stoi(alert.substr(stage_at + 7)));
  }
  return highest;
}

// Why `got` fails the perturbation's expectation against `clean`; empty when it holds.
std::string Mismatch(const Alerts& clean, const Alerts& got, Expectation expect) {
  if (expect == Expectation::kSameAlerts) {
    if (got == clean) return "";
  } else if (expect == Expectation::kNoWarningLost) {
    const std::multiset<std::string> want = Warnings(clean), have = Warnings(got);
    if (std::includes(have.begin(), have.end(), want.begin(), want.end())) return "";
  } else {
    const std::map<std::string, int> want = HighestStages(clean), have = HighestStages(got);
    if (std::all_of(want.begin(), want.end(), [&](const auto& alert) {
          auto found = have.find(alert.first);
          return found != have.end() && found->second >= alert.second;
        })) {
      return "";
    }
  }
  std::string text = "\n  clean:";
  for (const std::string& alert : clean) text += "\n    " + alert;
  text += "\n  got:";
  for (const std::string& alert : got) text += "\n    " + alert;
  return text;
}

class TimeMetamorphicTest : public ::testing::TestWithParam<Story> {
 protected:
  // Runs every perturbation through `mode` and compares with the clean stream through it.
  template <typename Mode>
  void Check(Mode mode, bool streams) {
    const Story& story = GetParam();
    const Alerts clean = mode(story.files, nullptr);
    int checked = 0;
    for (const Perturbation& perturbation : testing::Perturbations()) {
      if (perturbation.for_streams_only && !streams) continue;
      const Alerts got = mode(story.files, &perturbation);
      EXPECT_EQ(Mismatch(clean, got, streams ? perturbation.expect : perturbation.expect_files), "")
          << story.name << ", " << perturbation.name;
      ++checked;
    }
    EXPECT_EQ(checked, streams ? 13 : 12);
  }
};

TEST_P(TimeMetamorphicTest, ScanOfFiles) { Check(ScanOfFiles, false); }

TEST_P(TimeMetamorphicTest, ScanOfStdinMergedByTime) {
  Check(ScanOfStdin, true);
  // The merged stream tells the files' story.
  const Story& story = GetParam();
  EXPECT_EQ(Warnings(ScanOfStdin(story.files, nullptr)), Warnings(ScanOfFiles(story.files, nullptr)));
}

TEST_P(TimeMetamorphicTest, ReplayOfGzipArchives) {
  Check(ReplayOfGzip, false);
  const Story& story = GetParam();
  EXPECT_EQ(ReplayOfGzip(story.files, nullptr), ScanOfFiles(story.files, nullptr));
}

TEST_P(TimeMetamorphicTest, FollowOfFilesAppendedInBursts) {
  const Story& story = GetParam();
  const std::vector<Perturbation> perturbations = testing::Perturbations();
  std::vector<const Perturbation*> runs = {nullptr};
  for (const Perturbation& perturbation : perturbations) runs.push_back(&perturbation);
  const std::vector<Alerts> results = Follow(story.files, runs);
  // Followed live, the clean files give the firings and escalations of a scan (resolutions
  // wait for time to pass: those that came are a scan's too).
  const Alerts scanned = ScanOfFiles(story.files, nullptr);
  EXPECT_EQ(Warnings(results[0]), Warnings(scanned)) << story.name;
  for (const std::string& alert : results[0]) {
    if (alert.find(" resolved ") != std::string::npos) {
      EXPECT_NE(std::find(scanned.begin(), scanned.end(), alert), scanned.end()) << story.name << ": " << alert;
    }
  }
  for (size_t p = 0; p < perturbations.size(); ++p) {
    // Each file its own input: a skewed node is told no better than by scan of the files.
    EXPECT_EQ(Mismatch(results[0], results[p + 1], perturbations[p].expect_files), "")
        << story.name << ", " << perturbations[p].name;
  }
}

std::string StoryName(const ::testing::TestParamInfo<Story>& story) {
  std::string name = story.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Samples, TimeMetamorphicTest, ::testing::ValuesIn(Stories()), StoryName);

}  // namespace
}  // namespace foreshock
