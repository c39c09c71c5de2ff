// The hot path's shortcuts (header-only decoding of lines the prefilter rules out on their
// raw bytes; bare hits of patterns no rule uses) must never change a result: every sample,
// scenario and corpus file gives the same alerts with --exhaustive (everything decoded in
// full, every hit captured and correlated) as without.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "base/time.h"

#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using testing::RunForeshock;

// Every regular file under `folder` that is a log (not the expected-output files).
std::vector<std::string> LogFiles(const fs::path& folder) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.starts_with("expected") || name.ends_with("-expected.json") ||
        name.ends_with(".md") || name.ends_with(".py")) {
      continue;
    }
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Records without a timestamp take the wall clock's: those times differ between two runs.
std::string WithoutWallClockTimes(std::string text) {
  const std::string recent = FormatTimestamp(
      std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now() - std::chrono::hours(1)));
  static const std::regex kStamp(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  std::string out;
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), kStamp), end; it != end; ++it) {
    out.append(last, (*it)[0].first);
    out += (*it)[0].str() >= recent ? "NOW" : (*it)[0].str();
    last = (*it)[0].second;
  }
  out.append(last, text.cend());
  return out;
}

void ExpectSameAlerts(const std::vector<std::string>& inputs) {
  std::vector<std::string> args = {"scan", "--log-level", "error"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  const auto fast = RunForeshock(args);
  args.push_back("--exhaustive");
  const auto full = RunForeshock(args);
  EXPECT_EQ(fast.exit_code, full.exit_code);
  EXPECT_EQ(WithoutWallClockTimes(fast.out), WithoutWallClockTimes(full.out)) << inputs.front();
}

TEST(FastPathEquivalenceTest, EverySampleGivesTheSameAlertsDecodedInFull) {
  const fs::path samples(testing::kSamplesDir);
  size_t files = 0;
  for (const std::string& file : LogFiles(samples / "formats")) {
    ExpectSameAlerts({file});
    ++files;
  }
  for (const auto& scenario : fs::directory_iterator(samples / "scenarios")) {
    ExpectSameAlerts(LogFiles(scenario.path()));  // several nodes merged
    ++files;
  }
  ExpectSameAlerts(LogFiles(samples / "seed-incident"));
  EXPECT_GE(files, 15u);
  // And the shortcut is really taken: most of the seed incident's lines are ordinary.
  std::vector<std::string> args = {"scan", "--log-level", "debug"};
  for (const std::string& file : LogFiles(samples / "seed-incident")) args.push_back(file);
  const std::string err = RunForeshock(args).err;
  const size_t at = err.find(" records decoded header-only");
  ASSERT_NE(at, std::string::npos) << err;
  const size_t start = err.rfind(' ', at - 1) + 1;
  EXPECT_GT(std::stoul(err.substr(start, at - start)), 2000u) << err;
}

TEST(FastPathEquivalenceTest, EveryCorpusFileGivesTheSameAlertsDecodedInFull) {
  const fs::path corpus(testing::kCorpusDir);
  if (!fs::exists(corpus)) GTEST_SKIP() << "../shared/corpus is absent";
  for (const std::string& file : LogFiles(corpus)) ExpectSameAlerts({file});
}

// Lines made to sit on the edges of the fast path: escapes, tabs, non-ASCII, nested and
// duplicate keys, slow-log fields, numbers and literals of every JSON kind.
TEST(FastPathEquivalenceTest, EdgeCaseLinesGiveTheSameAlertsDecodedInFull) {
  testing::TempDir dir;
  const std::string limit =
      "Trying to create too many scroll contexts. Must be less than or equal to: [500]. This limit can be set by "
      "changing the [search.max_open_scroll_context] setting.";
  std::string lines;
  auto add = [&](int second, const std::string& fields) {
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "2026-11-29T02:%02d:%02d.000Z", second / 60, second % 60);
    lines += std::string("{\"@timestamp\":\"") + stamp + "\",\"log.level\":\"WARN\"," + fields +
             ",\"elasticsearch.node.name\":\"es-1\",\"elasticsearch.cluster.name\":\"c\"}\n";
  };
  int t = 0;
  add(t++, "\"message\":\"" + limit + "\"");
  add(t++, "\"message\":\"quoted \\\"" + limit + "\\\"\"");
  add(t++, "\"message\":\"Trying to create too many scroll contexts. Must be less than or equal to: [500]. This "
           "limit can be set by changing the [search.max_open_scroll_context]\\u0020setting.\"");
  add(t++, "\"message\":\"ordinary\",\"error.stack_trace\":\"" + limit + "\"");
  add(t++, "\"message\":\"ordinary\",\"error.message\":\"" + limit + "\",\"n\":-1.5e+3,\"b\":true,\"z\":null");
  add(t++, "\"message\":\"ordinary\",\"nested\":{\"message\":\"" + limit + "\"}");
  add(t++, "\"message\":\"ordinary\",\"message\":\"" + limit + "\"");
  add(t++, "\"message\":\"caf\xc3\xa9 " + limit + "\"");
  add(t++, "\"message\":\"tab\there " + limit + "\"");
  add(t++, "\"message\":\"ordinary\",\"elasticsearch.slowlog.took\":\"12.1s\",\"elasticsearch.slowlog.source\":\"{}\"");
  add(t++, "\"message\":\"ordinary\",\"list\":[1,2,3]");
  add(t++, "\"message\":\"ordinary\",\"bad\":01");
  lines += "{\"@timestamp\":\"2026-11-29T02:00:30.000Z\",\"message\":\"cut short " + limit + "\n";
  const std::string file = dir.Write("edges.json", lines);
  ExpectSameAlerts({file});
  const auto alerts = RunForeshock({"scan", "--no-builtin-catalog", "--catalog",
                                    std::string(testing::kPatternsDir), file});
  EXPECT_FALSE(alerts.out.empty());
}

}  // namespace
}  // namespace foreshock
