// The outage stories in samples/scenarios/ (and the seed incident): each folder's logs give
// exactly the alerts in its expected-alerts.txt; the same records slightly out of order
// (within the allowed lateness) give the same alerts; and every file fed twice in one run
// does not double them.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "decode/decoder_registry.h"
#include "framing/line_framer.h"
#include "framing/record_assembler.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> ScenarioDirs() {
  std::vector<fs::path> dirs = {fs::path(testing::kSamplesDir) / "seed-incident"};
  for (const auto& entry : fs::directory_iterator(fs::path(testing::kSamplesDir) / "scenarios")) {
    if (entry.is_directory()) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::vector<std::string> Logs(const fs::path& dir) {
  std::vector<std::string> logs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".json" || ext == ".log") logs.push_back(entry.path().string());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

std::vector<std::string> Alerts(const std::vector<std::string>& inputs) {
  std::vector<std::string> args = {"scan"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  const testing::ProcessResult result = testing::RunForeshock(args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> lines;
  std::istringstream out(result.out);
  for (std::string line; std::getline(out, line);) {
    const json alert = json::parse(line);
    const json& fs = alert["foreshock"];
    std::string group;
    for (const auto& [field, value] : fs["group"].items()) {
      group += (group.empty() ? "" : ",") + field + "=" + value.get<std::string>();
    }
    std::ostringstream lead;
    if (fs.contains("lead_time_s")) {
      lead << fs["lead_time_s"].get<double>();
    } else {
      lead << "-";
    }
    lines.push_back(alert["@timestamp"].get<std::string>() + " " + alert["event"]["action"].get<std::string>() +
                    " " + alert["log"]["level"].get<std::string>() + " " + alert["rule"]["id"].get<std::string>() +
                    " " + group + " stage=" + fs["stage"].dump() + " lead=" + lead.str());
  }
  return lines;
}

std::vector<std::string> Expected(const fs::path& dir) {
  std::vector<std::string> lines;
  std::istringstream in(testing::ReadFile((dir / "expected-alerts.txt").string()));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ScenarioTest, EachStoryGivesExactlyItsExpectedAlerts) {
  for (const fs::path& dir : ScenarioDirs()) {
    EXPECT_EQ(Alerts(Logs(dir)), Expected(dir)) << dir;
  }
}

TEST(ScenarioTest, AQuietDayWithNearMissesRaisesNothing) {
  EXPECT_TRUE(Alerts(Logs(fs::path(testing::kSamplesDir) / "scenarios" / "quiet-day")).empty());
}

struct TimedRecord {
  TimePoint time;
  std::string text;
};

// Every record of `logs`, with its time, in event-time order.
std::vector<TimedRecord> Records(const std::vector<std::string>& logs) {
  std::vector<TimedRecord> records;
  auto decoders = DecoderSet::Create("auto");
  for (const std::string& path : logs) {
    LineFramer framer(1 << 20);
    RecordAssembler assembler(AssemblerLimits{});
    auto keep = [&](const RawRecord& raw) {
      LogRecord record;
      std::string why;
      std::string_view format;
      (*decoders)->Decode(raw.text, DecodeOptions{}, &record, &why, &format);
      records.push_back({record.time, std::string(raw.text)});
    };
    uint64_t number = 0;
    auto line = [&](std::string_view text, bool truncated) { assembler.Add(text, truncated, ++number, keep); };
    framer.Feed(testing::ReadFile(path), line);
    framer.Flush(line);
    assembler.Flush(keep);
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const TimedRecord& a, const TimedRecord& b) { return a.time < b.time; });
  return records;
}

// Logs from several nodes reach a sidecar slightly out of order. Swapping records that are
// less than 20 s apart (the allowed lateness is 30 s) changes nothing.
TEST(ScenarioTest, RecordsOutOfOrderWithinTheLatenessGiveTheSameAlerts) {
  for (const fs::path& dir : ScenarioDirs()) {
    const std::vector<TimedRecord> ordered = Records(Logs(dir));
    std::vector<TimedRecord> records;
    size_t swaps = 0;
    // A story with few close records may need another draw to swap any (each story its own
    // seeds, so adding a story changes no other's draw).
    for (unsigned seed = 20261129; swaps == 0 && seed < 20261129 + 50; ++seed) {
      std::mt19937 random(seed);
      records = ordered;
      for (size_t i = 0; i + 1 < records.size(); ++i) {
        const size_t j = i + 1 + random() % 3;
        if (j < records.size() && records[j].time - records[i].time < std::chrono::seconds(20) && random() % 2 == 0) {
          std::swap(records[i], records[j]);
          ++swaps;
        }
      }
    }
    ASSERT_GT(swaps, 0u) << dir;
    std::string shuffled;
    for (const TimedRecord& record : records) shuffled += record.text + "\n";
    testing::TempDir temp;
    std::vector<std::string> got = Alerts({temp.Write("shuffled.log", shuffled)});
    std::vector<std::string> want = Expected(dir);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << dir << " with " << swaps << " swaps";
  }
}

// The same logs twice in one run (two shippers, a file given twice): no alert doubles.
TEST(ScenarioTest, TheSameLogsTwiceDoNotDoubleTheAlerts) {
  for (const fs::path& dir : ScenarioDirs()) {
    std::vector<std::string> twice = Logs(dir);
    const std::vector<std::string> once = twice;
    twice.insert(twice.end(), once.begin(), once.end());
    EXPECT_EQ(Alerts(twice), Expected(dir)) << dir;
  }
}

}  // namespace
}  // namespace foreshock
