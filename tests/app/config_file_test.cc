// --config and --print-config, through the built binary: a sidecar configured by its file
// alone works, the command line wins, a typo names its file and line, and the printed
// settings read back to the same settings.

#include <gtest/gtest.h>

#include <thread>

#include "testing/precursor_lines.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using namespace std::chrono_literals;
using testing::RunForeshock;
using testing::TempDir;

TEST(ConfigFileTest, AWatchConfiguredOnlyByItsFileFollowsAndAlerts) {
  TempDir dir;
  const std::string catalog = dir.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
  const std::string log = dir.Write("es.json", testing::PrecursorLine(1));
  const std::string alerts = dir.path() + "/alerts.jsonl";
  const std::string config = dir.Write("foreshock.conf",
                                        "# the sidecar\n[scan]\nformat = es-plain\n\n[watch]\n"
                                        "no-builtin-catalog = true\ncatalog = " + catalog +
                                        "\nfrom = beginning\nstate-dir = " + dir.path() + "/state\n"
                                        "output = file:" + alerts + "\ninput = " + dir.path() + "/*.json\n");
  const int pid = testing::StartForeshock({"watch", "--config", config}, dir.path() + "/out", dir.path() + "/err");
  EXPECT_TRUE(testing::WaitFor([&] { return testing::ReadFileIfExists(alerts).find("precursor 1") != std::string::npos; },
                               10s))
      << testing::ReadFileIfExists(dir.path() + "/err");
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  // The state went where the file said.
  EXPECT_NE(testing::ReadFile(dir.path() + "/state/state.json").find("es.json"), std::string::npos);
}

TEST(ConfigFileTest, TheCommandLineWinsAndRepeatableOptionsAddUp) {
  TempDir dir;
  const std::string config =
      dir.Write("f.conf", "[scan]\nformat = ecs\ntimezone = Europe/Paris\noutput = file:/tmp/a.jsonl\n");
  const auto result = RunForeshock({"scan", "--config", config, "--format", "es-json", "--output", "stdout",
                                    "--print-config"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\nformat = es-json\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\ntimezone = Europe/Paris\n"), std::string::npos);
  EXPECT_NE(result.out.find("\noutput = stdout\noutput = file:/tmp/a.jsonl\n"), std::string::npos);
  EXPECT_NE(result.out.find("\n# log-level = info  (default)\n"), std::string::npos);
}

TEST(ConfigFileTest, InputsOfTheFileAndOfTheCommandLineAddUp) {
  TempDir dir;
  const std::string config = dir.Write("f.conf", "[scan]\ninput = /var/log/elasticsearch/a.json\n");
  const auto printed = RunForeshock({"scan", "--config", config, "/tmp/b.json", "--print-config"});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_NE(printed.out.find("\ninput = /tmp/b.json\ninput = /var/log/elasticsearch/a.json\n"), std::string::npos)
      << printed.out;
  // And the scan reads both: each names its own missing file.
  const auto scan = RunForeshock({"scan", "--config", config, dir.path() + "/b.json"});
  EXPECT_NE(scan.err.find("/var/log/elasticsearch/a.json"), std::string::npos) << scan.err;
  EXPECT_NE(scan.err.find(dir.path() + "/b.json"), std::string::npos) << scan.err;
}

TEST(ConfigFileTest, PrintedSettingsReadBackToTheSameSettings) {
  TempDir dir;
  const auto first = RunForeshock({"--print-config", "--state-dir", "/var/lib/foreshock", "--output",
                                   "webhook:http://127.0.0.1:9/x", "/var/log/elasticsearch/*.json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("[watch]\n"), std::string::npos) << "the sidecar's settings by default";
  const std::string config = dir.Write("printed.conf", first.out);
  const auto second = RunForeshock({"watch", "--config", config, "--print-config"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
}

TEST(ConfigFileTest, EveryVerbPrintsEveryOptionItHas) {
  for (const char* verb : {"scan", "watch", "replay", "match", "catalog"}) {
    const auto result = RunForeshock({"--print-config", verb});
    ASSERT_EQ(result.exit_code, 0) << verb << ": " << result.err;
    EXPECT_NE(result.out.find(std::string("[") + verb + "]\n"), std::string::npos) << verb;
    EXPECT_EQ(result.out.find("unprintable"), std::string::npos) << verb << ":\n" << result.out;
  }
}

TEST(ConfigFileTest, MistakesNameTheFileAndLine) {
  TempDir dir;
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"[watch]\n# comment\nstat-dir = /x\n", ":3: foreshock watch has no option 'stat-dir'"},
      {"format = ecs\n", ":1: 'format' is outside any section; put it under [watch]"},
      {"[wacth]\nformat = ecs\n", ":2: unknown section [wacth]"},
      {"[watch]\nmax-line-bytes = many\n", ":2: the argument ('many') for option 'max-line-bytes' is invalid"},
      {"[watch]\nconfig = /etc/other.conf\n", ":2: foreshock watch has no option 'config'"},
  };
  for (const Case& c : cases) {
    const std::string config = dir.Write("bad.conf", c.text);
    const auto result = RunForeshock({"watch", "--config", config, "/var/log/x.json"});
    EXPECT_EQ(result.exit_code, 2) << c.text;
    EXPECT_NE(result.err.find(config + c.error), std::string::npos) << result.err;
  }
  const auto missing = RunForeshock({"scan", "--config", dir.path() + "/none.conf"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot read config file " + dir.path() + "/none.conf"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
