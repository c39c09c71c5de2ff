// End-to-end tests of `foreshock replay`: the built binary on archives of the seed
// incident (gzip, zstd, plain, in folders), damaged archives, filters, the summary and the
// HTML report rendered in headless Chromium.

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <signal.h>

#include "testing/screenshot.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;
using testing::ReadFile;
using testing::RunForeshock;
using testing::TempDir;

std::string SeedNode(int n) {
  return std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-" + std::to_string(n) + ".json";
}

void WriteGzip(const std::string& path, const std::string& text) {
  gzFile out = gzopen(path.c_str(), "wb");
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
}

void WriteZstd(const std::string& path, const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  std::ofstream(path, std::ios::binary) << out;
}

// The alerts with the evidence's file names left out (they name the input files).
std::vector<json> Comparable(const std::string& out) {
  std::vector<json> alerts;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    json alert = json::parse(line);
    for (auto& evidence : alert["foreshock"]["evidence"]) evidence.erase("source");
    alerts.push_back(alert);
  }
  return alerts;
}

std::vector<std::string> Summaries(const std::string& out) {
  std::vector<std::string> lines;
  for (const json& alert : Comparable(out)) {
    lines.push_back(alert["@timestamp"].get<std::string>() + " " + alert["event"]["action"].get<std::string>() +
                    " stage " + alert["foreshock"]["stage"].dump());
  }
  return lines;
}

class ReplayTest : public ::testing::Test {
 protected:
  // node-1 gzipped in a sub-folder, node-2 as zstd in another, node-3 plain.
  ReplayTest() {
    fs::create_directories(dir_.path() + "/archive/es-1");
    fs::create_directories(dir_.path() + "/archive/es-2");
    WriteGzip(dir_.path() + "/archive/es-1/order-events-node-1.json.1.gz", ReadFile(SeedNode(1)));
    WriteZstd(dir_.path() + "/archive/es-2/order-events-node-2.json.1.zst", ReadFile(SeedNode(2)));
    fs::copy_file(SeedNode(3), dir_.path() + "/archive/order-events-node-3.json");
  }
  TempDir dir_;
};

TEST_F(ReplayTest, ArchivesInFoldersGiveExactlyTheAlertsOfAScanOfThePlainFiles) {
  const auto replay = RunForeshock({"replay", dir_.path() + "/archive"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const auto scan = RunForeshock({"scan", SeedNode(1), SeedNode(2), SeedNode(3)});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  ASSERT_EQ(Comparable(replay.out).size(), 4u);
  EXPECT_EQ(Comparable(replay.out), Comparable(scan.out));
  EXPECT_NE(replay.out.find("order-events-node-2.json.1.zst:516"), std::string::npos)
      << "evidence names the archive and the line in it";
}

TEST_F(ReplayTest, TheAlertsAreThoseALiveWatchProducedForTheSameLines) {
  const std::string log = dir_.path() + "/order-events-node-2.json";
  fs::copy_file(SeedNode(2), log);
  const std::string out = dir_.path() + "/watch.out";
  const std::string err = dir_.path() + "/watch.err";
  const pid_t pid = testing::StartForeshock({"watch", "--from", "beginning", log}, out, err);
  // Counted by whole lines: the fourth alert may be half written when the file is read.
  const auto whole_lines = [&] { const std::string text = ReadFile(out); return std::count(text.begin(), text.end(), '\n'); };
  ASSERT_TRUE(testing::WaitFor([&] { return whole_lines() >= 4; }, 20s)) << ReadFile(err);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  const auto replay = RunForeshock({"replay", log});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(replay.out, ReadFile(out)) << "byte for byte, evidence sources included";
}

TEST_F(ReplayTest, ADamagedArchiveIsNamedWithItsOffsetAndTheRestStillCounts) {
  const std::string archive = dir_.path() + "/archive/es-2/order-events-node-2.json.1.zst";
  fs::remove(archive);
  // node-2's log cut after the breaker tripped: the chain up to stage 3 is in the part kept.
  const std::string text = ReadFile(SeedNode(2));
  const std::string gz = dir_.path() + "/archive/es-2/order-events-node-2.json.1.gz";
  WriteGzip(gz, text);
  const std::string bytes = ReadFile(gz);
  std::ofstream(gz, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() * 3 / 4);
  const auto replay = RunForeshock({"replay", dir_.path() + "/archive"});
  EXPECT_EQ(replay.exit_code, 3) << "the exit status says something was damaged";
  EXPECT_NE(replay.err.find("order-events-node-2.json.1.gz: gzip archive truncated at compressed byte offset"),
            std::string::npos)
      << replay.err;
  EXPECT_NE(replay.err.find("could not read everything"), std::string::npos);
  // The end of the damaged part is not silence: no 'node went silent' alert, and the chain is
  // not resolved by the quiet after the cut. Every alert names the node its lines name.
  EXPECT_EQ(Summaries(replay.out), (std::vector<std::string>{"2026-11-29T02:54:11.482Z firing stage 1",
                                                             "2026-11-29T03:04:18.201Z escalated stage 2",
                                                             "2026-11-29T03:13:02.117Z escalated stage 3"}))
      << replay.out;
  for (const json& alert : Comparable(replay.out)) {
    EXPECT_EQ(alert["foreshock"]["observer"], "order-events-node-2") << alert.dump();
  }
  EXPECT_NE(replay.err.find("cut by damage after 2026-11-29T03:"), std::string::npos) << replay.err;
  EXPECT_EQ(replay.err.find(".json.1\n"), std::string::npos) << "no node named after the file:\n" << replay.err;
}

TEST_F(ReplayTest, TimeNodeRuleAndPatternFiltersNarrowTheReplay) {
  const std::string archive = dir_.path() + "/archive";
  EXPECT_EQ(Summaries(RunForeshock({"replay", "--to", "2026-11-29T03:10:00Z", archive}).out),
            (std::vector<std::string>{"2026-11-29T02:54:11.482Z firing stage 1",
                                      "2026-11-29T03:04:18.201Z escalated stage 2"}));
  EXPECT_TRUE(RunForeshock({"replay", "--node", "order-events-node-1", archive}).out.empty());
  EXPECT_TRUE(RunForeshock({"replay", "--rule", "es.chain.disk_fill", archive}).out.empty());
  EXPECT_EQ(RunForeshock({"replay", "--from", "-2h", archive}).out, "") << "relative to now: nothing that recent";
  const auto unknown = RunForeshock({"replay", "--rule", "es.chain.scrol_leak", archive});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--rule es.chain.scrol_leak: no such rule in the catalog (did you mean "
                             "es.chain.scroll_leak?)"),
            std::string::npos)
      << unknown.err;
}

// --from starts what is shown, not what is correlated: the story under way at 03:00 keeps
// its start at 02:54 and its lead time, as a live run would have told it.
TEST_F(ReplayTest, ReplayFromAMomentWarmsUpBeforeItSoTheStoryKeepsItsLeadTime) {
  const std::string archive = dir_.path() + "/archive";
  const auto warm = RunForeshock({"replay", "--from", "2026-11-29T03:00:00Z", archive});
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(Summaries(warm.out), (std::vector<std::string>{"2026-11-29T03:04:18.201Z escalated stage 2",
                                                           "2026-11-29T03:13:02.117Z escalated stage 3",
                                                           "2026-11-29T04:06:22.735Z resolved stage 3"}))
      << "alerts before --from are not shown";
  const auto alerts = Comparable(warm.out);
  EXPECT_DOUBLE_EQ(alerts[1]["foreshock"]["lead_time_s"].get<double>(), 1130.635) << "counted from 02:54:11";
  EXPECT_NE(warm.err.find("lead time 18m51s"), std::string::npos) << warm.err;
  EXPECT_NE(warm.err.find("correlating from 2026-11-28T03:00:00.000Z (1d of warm-up before --from"), std::string::npos)
      << "the longest rule window (es.chain.disk_fill's 24h) by default:\n" << warm.err;
  // Without warm-up, the run starts cold, as before: the warning moves to 03:00.
  const auto cold = Summaries(RunForeshock({"replay", "--from", "2026-11-29T03:00:00Z", "--warm-up", "0s", archive}).out);
  ASSERT_FALSE(cold.empty());
  EXPECT_EQ(cold[0].substr(0, 16), "2026-11-29T03:00") << cold[0];
}

// --rule and --pattern narrow what is shown and drawn; every rule and pattern still
// correlates, so the chain escalates as in the full run.
TEST_F(ReplayTest, RuleAndPatternFiltersNarrowWhatIsShownNotWhatCorrelates) {
  const std::string archive = dir_.path() + "/archive";
  const std::string summary_path = dir_.path() + "/summary.txt";
  const auto only_scroll = RunForeshock({"replay", "--pattern", "es.search.scroll_context_limit", "--summary",
                                         summary_path, archive});
  ASSERT_EQ(only_scroll.exit_code, 0) << only_scroll.err;
  EXPECT_EQ(Summaries(only_scroll.out), Summaries(RunForeshock({"replay", archive}).out));
  const std::string summary = ReadFile(summary_path);
  EXPECT_NE(summary.find("es.search.scroll_context_limit"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("es.breaker.parent"), std::string::npos) << "only the pattern asked for is drawn:\n" << summary;
}

// A filter that leaves nothing says why on stderr; the exit stays 0.
TEST_F(ReplayTest, AFilterThatLeavesNothingSaysSoAndSuggestsNames) {
  const std::string archive = dir_.path() + "/archive";
  const auto late = RunForeshock({"replay", "--from", "2026-11-30T00:00:00Z", archive});
  EXPECT_EQ(late.exit_code, 0);
  EXPECT_NE(late.err.find("all 4143 records fall before --from 2026-11-30T00:00:00.000Z (the inputs run from "
                          "2026-11-29T01:30:02.883Z to 2026-11-29T04:30:10.138Z)"),
            std::string::npos)
      << late.err;
  const auto early = RunForeshock({"replay", "--to", "2026-11-20T00:00:00Z", archive});
  EXPECT_NE(early.err.find("all 4143 records fall at or after --to"), std::string::npos) << early.err;
  const auto node = RunForeshock({"replay", "--node", "node-2", archive});
  EXPECT_EQ(node.exit_code, 0);
  EXPECT_NE(node.err.find("--node node-2 matches no node in the inputs (did you mean order-events-node-2?); they name "
                          "order-events-node-1, order-events-node-2, order-events-node-3"),
            std::string::npos)
      << node.err;
  const auto pattern = RunForeshock({"replay", "--pattern", "es.braker.parent", archive});
  EXPECT_EQ(pattern.exit_code, 2);
  EXPECT_NE(pattern.err.find("(did you mean es.breaker.parent"), std::string::npos) << pattern.err;
  const auto backwards = RunForeshock({"replay", "--from", "2026-11-29T04:00:00Z", "--to", "2026-11-29T03:00:00Z", archive});
  EXPECT_EQ(backwards.exit_code, 2);
  EXPECT_NE(backwards.err.find("--from 2026-11-29T04:00:00Z is not before --to 2026-11-29T03:00:00Z"), std::string::npos)
      << backwards.err;
  EXPECT_EQ(RunForeshock({"replay", archive}).err.find("foreshock: warning"), std::string::npos) << "a full run says none of it";
}

TEST_F(ReplayTest, FailOnAlertExitsOneWhenAWarningIsShown) {
  const std::string archive = dir_.path() + "/archive";
  EXPECT_EQ(RunForeshock({"replay", "--fail-on-alert", archive}).exit_code, 1);
  EXPECT_EQ(RunForeshock({"replay", "--fail-on-alert", "--rule", "es.chain.disk_fill", archive}).exit_code, 0)
      << "only what is shown counts";
  EXPECT_EQ(RunForeshock({"replay", archive}).exit_code, 0);
}

TEST_F(ReplayTest, TheSummaryTellsFirstPrecursorsEscalationsLeadTimeAndBusiestPatterns) {
  const std::string summary_path = dir_.path() + "/summary.txt";
  const auto replay = RunForeshock({"replay", "--summary", summary_path, dir_.path() + "/archive"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const std::string summary = ReadFile(summary_path);
  EXPECT_NE(summary.find("foreshock replay: 3 inputs"), std::string::npos) << summary;
  EXPECT_NE(summary.find("order-events-node-2\n  first precursor  "), std::string::npos) << summary;
  EXPECT_NE(summary.find("2026-11-29T02:54:11.482Z  firing    warning  es.chain.scroll_leak stage 1"),
            std::string::npos)
      << summary;
  // One rule for people: to the nearest second (lead_time_s is 1130.635), as text alerts say it.
  EXPECT_NE(summary.find("OUTAGE MARKER, lead time 18m51s\n"), std::string::npos) << summary;
  EXPECT_NE(summary.find("order-events-node-1\n"), std::string::npos);
  EXPECT_NE(summary.find("busiest patterns (warning and above first)\n"), std::string::npos);
  EXPECT_NE(summary.find("es.breaker.parent"), std::string::npos);
  EXPECT_EQ(replay.err.find("busiest patterns"), std::string::npos) << "--summary takes it off stderr";
}

// "-" is standard output, as for every Unix tool: never a file named "-" in the working
// folder. It must not interleave with alerts or another document there.
TEST_F(ReplayTest, DashWritesTheSummaryToStdoutAndRefusesToShareIt) {
  testing::ProcessOptions in_dir;
  in_dir.cwd = dir_.path();
  const std::string archive = dir_.path() + "/archive";
  const std::string alerts_path = dir_.path() + "/alerts.jsonl";
  const auto replay = RunForeshock({"replay", "--summary-json", "-", "--output", "file:" + alerts_path, archive},
                                   in_dir);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const nlohmann::json summary = nlohmann::json::parse(replay.out);  // the whole of stdout is one document
  EXPECT_FALSE(summary["alerts"].empty()) << replay.out;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/-"));
  EXPECT_NE(ReadFile(alerts_path).find("es.chain.scroll_leak"), std::string::npos);

  const auto with_alerts = RunForeshock({"replay", "--summary", "-", archive}, in_dir);
  EXPECT_EQ(with_alerts.exit_code, 2);
  EXPECT_NE(with_alerts.err.find("--summary -: standard output already carries the alerts"), std::string::npos)
      << with_alerts.err;
  const auto twice = RunForeshock(
      {"replay", "--summary", "-", "--report", "-", "--output", "file:" + alerts_path, archive},
      in_dir);
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("--report -: standard output already carries --summary"), std::string::npos) << twice.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/-"));
}

// A node name and a file name carrying a terminal escape (it retitles the window) and a
// bidi override: every command shows them escaped, on stdout and on stderr.
TEST_F(ReplayTest, ControlCharactersAndBidiOverridesFromLogsReachNoTerminal) {
  const std::string hostile_node = R"(evil\u001b]0;pwned\u0007)" "\xe2\x80\xae" "-node";
  std::string text = ReadFile(SeedNode(2));
  for (size_t at = 0; (at = text.find("\"order-events-node-2\"", at)) != std::string::npos;) {
    text.replace(at, 21, "\"" + hostile_node + "\"");
  }
  text += "{\"@timestamp\":\"2026-11-29T04:30:00.000Z\", \"log.level\": \"WARN\", \"message\":\"cut\n";
  const std::string folder = dir_.path() + "/hostile";
  fs::create_directories(folder);
  const std::string file = folder + "/es\x1b[2J\xe2\x81\xa6.json";
  std::ofstream(file) << text;
  const std::string shown_node = "evil\\x1b]0;pwned\\x07\\u202e-node";
  const std::vector<std::vector<std::string>> runs = {
      {"replay", folder}, {"scan", "--output", "stdout:text", file}, {"match", file}, {"scan", "--explain-format", file}};
  for (const auto& args : runs) {
    const auto result = RunForeshock(args);
    EXPECT_NE(result.exit_code, 2) << args[0] << ": " << result.err;
    for (const std::string& stream : {result.out, result.err}) {
      for (const std::string& raw : {std::string("\x1b"), std::string("\x07"), std::string("\xe2\x80\xae"),
                                     std::string("\xe2\x81\xa6")}) {
        EXPECT_EQ(stream.find(raw), std::string::npos) << args[0] << " " << args[1] << " let a raw byte through:\n"
                                                       << stream.substr(0, 3000);
      }
    }
    EXPECT_NE((result.out + result.err).find("es\\x1b[2J\\u2066.json"), std::string::npos)
        << args[0] << " " << args[1] << " names the file, escaped:\n" << result.out << result.err;
  }
  const auto replay = RunForeshock({"replay", folder});
  EXPECT_NE(replay.err.find("\n" + shown_node + "\n  first precursor"), std::string::npos) << replay.err;
  const auto text_output = RunForeshock({"scan", "--output", "stdout:text", file});
  EXPECT_NE(text_output.out.find("[" + shown_node + "]"), std::string::npos) << text_output.out;
}

// Permissions do not stop root, so the run that must meet them runs as nobody.
testing::ProcessResult RunForeshockUnprivileged(const std::vector<std::string>& args) {
  std::vector<std::string> argv;
  if (::geteuid() == 0) argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
  argv.push_back(testing::kForeshockBinary);
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::RunProcess(argv);
}

// An unreadable file and an unreadable sub-folder in the archive, and a path that does not
// exist: each is named on stderr and in the summary, the rest is replayed in full.
TEST_F(ReplayTest, UnreadableFilesAndFoldersArePassedOverAndTheRestIsReplayed) {
  const std::string archive = dir_.path() + "/archive";
  fs::create_directories(archive + "/locked");
  fs::copy_file(SeedNode(1), archive + "/locked/order-events-node-1.json");
  fs::copy_file(SeedNode(1), archive + "/es-1/unreadable.json");
  fs::permissions(archive + "/locked", fs::perms::none);
  fs::permissions(archive + "/es-1/unreadable.json", fs::perms::none);
  fs::permissions(dir_.path(), fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  const auto probe = RunForeshockUnprivileged({"--version"});
  if (probe.exit_code != 0) GTEST_SKIP() << "the binary cannot be run as nobody here: " << probe.err;
  const auto replay = RunForeshockUnprivileged({"replay", archive, dir_.path() + "/gone"});
  fs::permissions(archive + "/locked", fs::perms::owner_all);
  EXPECT_EQ(replay.exit_code, 3) << replay.err;
  const auto scan = RunForeshock({"scan", SeedNode(1), SeedNode(2), SeedNode(3)});
  EXPECT_EQ(Comparable(replay.out), Comparable(scan.out)) << "the readable inputs give every alert";
  for (const std::string& named : std::vector<std::string>{archive + "/locked: cannot list: Permission denied; passed over",
                                   archive + "/es-1/unreadable.json: cannot open: Permission denied; passed over",
                                   dir_.path() + "/gone: no such file or folder; passed over",
                                   "could not read everything\n",
                                   "  " + archive + "/locked: cannot list: Permission denied (passed over)\n",
                                   "3 inputs could not be read in full"}) {
    EXPECT_NE(replay.err.find(named), std::string::npos) << named << "\n" << replay.err;
  }
}

// A line about another node counts for that node: the master's "low disk watermark exceeded
// on es-data-3" is es-data-3's first precursor, 82 minutes before the read-only block, and
// not a precursor of the master's.
TEST_F(ReplayTest, TheSummaryFilesEachHitUnderTheNodeItIsAbout) {
  const auto replay = RunForeshock({"replay", std::string(testing::kSamplesDir) + "/scenarios/disk-fill"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.err.find("es-data-3\n  first precursor  2026-11-29T01:40:02.118Z  es.disk.low_watermark  ("
                            + std::string(testing::kSamplesDir) + "/scenarios/disk-fill/es-master-1.log:62)"),
            std::string::npos)
      << replay.err;
  EXPECT_NE(replay.err.find("es-master-1\n  no precursor at warning or above\n"), std::string::npos) << replay.err;
}

// The master logs every line of a lagging node's removal, and a follower logs the master's
// loss: in the summary and the report each is the story of the node it names, and the node
// that logged it has no precursor of its own.
TEST_F(ReplayTest, TheMastersLinesAboutALaggingNodeAndTheFollowersAboutALostMasterAreTheirSubjects) {
  const std::string samples = testing::kSamplesDir;
  const std::string report = dir_.path() + "/lagging.html";
  const auto lagging = RunForeshock({"replay", "--report", report, samples + "/scenarios/lagging-node"});
  ASSERT_EQ(lagging.exit_code, 0) << lagging.err;
  EXPECT_NE(lagging.err.find("es-master-1\n  no precursor at warning or above\n  no alert\n"), std::string::npos)
      << lagging.err;
  EXPECT_NE(lagging.err.find("es-data-2\n  first precursor  2026-11-29T10:21:04.311Z  es.jvm.gc_overhead"),
            std::string::npos)
      << lagging.err;
  EXPECT_NE(lagging.err.find("escalated critical es.chain.gc_storm stage 3  OUTAGE MARKER, lead time 2m31s"),
            std::string::npos)
      << lagging.err;
  const std::string html = ReadFile(report);
  EXPECT_EQ(html.find("<td class=\"nowrap\">es-master-1</td>"), std::string::npos) << "no alert row names the master";
  EXPECT_NE(html.find("<td class=\"nowrap\">es-data-2</td>"), std::string::npos);
  EXPECT_NE(html.find("es-master-1.json:38 (logged by es-master-1) [es.cluster.lagging_node]"), std::string::npos);

  const std::string master_loss_report = dir_.path() + "/master-loss.html";
  const auto master_loss = RunForeshock({"replay", "--report", master_loss_report, samples + "/scenarios/master-loss"});
  ASSERT_EQ(master_loss.exit_code, 0) << master_loss.err;
  const std::string master_loss_html = ReadFile(master_loss_report);
  EXPECT_NE(master_loss_html.find("<td class=\"nowrap\">es-master-1</td>"), std::string::npos);
  EXPECT_EQ(master_loss_html.find("<td class=\"nowrap\">es-master-2</td>"), std::string::npos) << "the new master raised nothing";
  EXPECT_EQ(master_loss_html.find("<td class=\"nowrap\">es-data-2</td>"), std::string::npos) << "nor did the follower";
  EXPECT_NE(master_loss_html.find("(logged by es-master-2) [es.cluster.node_left]"), std::string::npos);
  EXPECT_NE(master_loss_html.find("(logged by es-data-2) [es.cluster.master_failed]"), std::string::npos);

  const std::string disk_fill_report = dir_.path() + "/disk-fill.html";
  const auto disk_fill = RunForeshock({"replay", "--report", disk_fill_report, samples + "/scenarios/disk-fill"});
  ASSERT_EQ(disk_fill.exit_code, 0) << disk_fill.err;
  const std::string disk_fill_html = ReadFile(disk_fill_report);
  EXPECT_EQ(disk_fill_html.find("<td class=\"nowrap\">es-master-1</td>"), std::string::npos) << "the master only reported es-data-3";
  EXPECT_NE(disk_fill_html.find("<td class=\"nowrap\">es-data-3</td>"), std::string::npos);
  EXPECT_NE(disk_fill_html.find("(logged by es-master-1) [es.disk.low_watermark]"), std::string::npos);
  for (const char* quiet : {"es-data-2\n  no precursor at warning or above\n  no alert\n",
                            "es-master-2\n  no precursor at warning or above\n  no alert\n"}) {
    EXPECT_NE(master_loss.err.find(quiet), std::string::npos) << quiet << master_loss.err;
  }
  EXPECT_NE(master_loss.err.find("es-master-1\n  first precursor  2026-11-29T09:41:05.220Z  es.jvm.gc_overhead"),
            std::string::npos)
      << master_loss.err;
  EXPECT_NE(master_loss.err.find("escalated critical es.chain.gc_storm stage 3  OUTAGE MARKER, lead time 3m27s"),
            std::string::npos)
      << master_loss.err;
}

// A report or summary into a folder that does not exist fails at once, with the system's
// reason, before any archive is read.
TEST_F(ReplayTest, AReportIntoAMissingFolderFailsBeforeTheRun) {
  for (const char* flag : {"--report", "--summary"}) {
    const std::string path = dir_.path() + "/no-such-folder/out";
    const auto replay = RunForeshock({"replay", flag, path, std::string(testing::kSamplesDir) + "/scenarios/disk-fill"});
    EXPECT_EQ(replay.exit_code, 2) << replay.err;
    EXPECT_NE(replay.err.find(std::string(flag) + " " + path + ": No such file or directory"), std::string::npos)
        << replay.err;
    EXPECT_EQ(replay.err.find("foreshock replay: "), std::string::npos) << "nothing was replayed: " << replay.err;
  }
}

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++count;
  return count;
}

TEST_F(ReplayTest, TheHtmlReportIsSelfContainedAndEscapesWhatLogsSay) {
  // A precursor line carrying markup: it must reach the page as text.
  const std::string hostile = dir_.path() + "/archive/order-events-node-4.json";
  std::ofstream(hostile) << "{\"@timestamp\":\"2026-11-29T03:20:00.000Z\",\"log.level\":\"WARN\",\"message\":"
                            "\"<script>alert(1)</script> Trying to create too many scroll contexts. Must be less "
                            "than or equal to: [500]. This limit can be set by changing the "
                            "[search.max_open_scroll_context] setting.\",\"elasticsearch.node.name\":\"<b>node-4</b>\","
                            "\"elasticsearch.cluster.name\":\"search-prod\"}\n";
  const std::string report = dir_.path() + "/report.html";
  const auto replay = RunForeshock({"replay", "--report", report, dir_.path() + "/archive"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const std::string html = ReadFile(report);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "no scripts, and markup from logs is escaped";
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;node-4&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos) << "nothing fetched from the network";
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("break-all"), std::string::npos) << "stack traces keep their lines";
}

// What a responder reads in the report of the seed incident, as text.
TEST_F(ReplayTest, TheReportTellsWhoMadeItTheOutageTheNumbersAndEachStoryOnce) {
  const std::string report = dir_.path() + "/report.html";
  const auto replay = RunForeshock({"replay", "--report", report, "--context", "2", dir_.path() + "/archive"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const std::string html = ReadFile(report);
  // Provenance and title.
  EXPECT_NE(html.find("<h1>foreshock replay: cluster search-prod, 2026-11-29 01:30\u201304:29 UTC</h1>"),
            std::string::npos) << html.substr(0, 3000);
  EXPECT_NE(html.find("<dt>command</dt><dd>foreshock replay --report " + report + " --context 2 " + dir_.path() +
                      "/archive</dd>"),
            std::string::npos);
  EXPECT_NE(html.find("<dt>catalog</dt><dd>built-in</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>made by</dt><dd>foreshock "), std::string::npos);
  EXPECT_NE(html.find("4 alerts on 1 node, 3 nodes with precursor hits"), std::string::npos);
  // The outage: a band from the first to the last parent-breaker rejection, and T on the axis.
  EXPECT_EQ(Occurrences(html, "class=\"outage-band\""), 1u);
  EXPECT_NE(html.find("outage 03:13\u201303:51, 544 times"), std::string::npos);
  EXPECT_NE(html.find("T = outage 03:13"), std::string::npos);
  EXPECT_NE(html.find(">T\u221213m<"), std::string::npos) << "03:00 is 13 minutes before the outage";
  // Hover text: the bucket, the node, the count, the patterns.
  EXPECT_NE(html.find(" UTC on order-events-node-2: "), std::string::npos);
  EXPECT_NE(html.find("  es.breaker.parent \u00d7"), std::string::npos);
  // The numbers behind the story: breaker usage against its limit, heap around old GCs.
  EXPECT_NE(html.find("<svg id=\"values\""), std::string::npos);
  EXPECT_NE(html.find(">\u2014 breaker_usage</text>"), std::string::npos);
  EXPECT_NE(html.find(">- - breaker_limit</text>"), std::string::npos);
  EXPECT_NE(html.find(">\u2014 heap_after</text>"), std::string::npos);
  EXPECT_NE(html.find("<th>cluster</th>"), std::string::npos);
  // One story, its evidence once (not at each of its 4 alerts), its runbook once, with lines
  // of context around the evidence line.
  EXPECT_EQ(Occurrences(html, "class=\"story\""), 1u);
  EXPECT_EQ(Occurrences(html, "order-events-node-2.json.1.zst:516 ["), 1u);
  EXPECT_EQ(Occurrences(html, "class=\"runbook\""), 1u);
  EXPECT_NE(html.find("\n<b>516  {&quot;@timestamp&quot;:&quot;2026-11-29T02:54:11.482Z&quot;"), std::string::npos);
  EXPECT_NE(html.find(">514  {&quot;@timestamp&quot;"), std::string::npos) << "two lines before it";
  // Busiest patterns: warnings first, info-level noise after.
  const size_t breaker = html.find("critical es.breaker.parent");
  const size_t noise = html.find("info     es.jvm.gc_overhead_moderate");
  ASSERT_NE(breaker, std::string::npos);
  ASSERT_NE(noise, std::string::npos);
  EXPECT_LT(breaker, noise) << "680 info-level hits come after the 544 breaker trips";
  // Markers never overlap, in any scenario.
  for (const auto& entry : fs::directory_iterator(std::string(testing::kSamplesDir) + "/scenarios")) {
    const std::string page = dir_.path() + "/" + entry.path().filename().string() + ".html";
    ASSERT_EQ(RunForeshock({"replay", "--report", page, entry.path().string()}).exit_code, 0) << entry.path();
    const std::string text = ReadFile(page);
    std::vector<std::pair<double, double>> markers;
    for (size_t at = 0; (at = text.find("class=\"alert-marker\" cx=\"", at)) != std::string::npos; ++at) {
      const size_t x = at + 25;
      const size_t y = text.find("cy=\"", x) + 4;
      markers.emplace_back(std::stod(text.substr(x)), std::stod(text.substr(y)));
    }
    for (size_t a = 0; a < markers.size(); ++a) {
      for (size_t b = a + 1; b < markers.size(); ++b) {
        EXPECT_GE(std::hypot(markers[a].first - markers[b].first, markers[a].second - markers[b].second), 12.0)
            << entry.path().filename() << ": markers " << a << " and " << b << " overlap";
      }
    }
  }
}

// The summary counts the inputs its table lists: an empty one and one that could not be read
// included.
TEST_F(ReplayTest, TheInputsCountedAreTheInputsListed) {
  std::ofstream(dir_.path() + "/archive/empty.json").flush();
  const std::string report = dir_.path() + "/report.html";
  const std::string missing = dir_.path() + "/no-such.json";
  const auto replay = RunForeshock({"replay", "--report", report, dir_.path() + "/archive", missing});
  EXPECT_EQ(replay.exit_code, 3) << replay.err;
  EXPECT_NE(replay.err.find("foreshock replay: 5 inputs, "), std::string::npos) << replay.err;
  const std::string html = ReadFile(report);
  EXPECT_NE(html.find("foreshock replay: 5 inputs, "), std::string::npos);
  const size_t table = html.find("<h2>Inputs</h2>");
  ASSERT_NE(table, std::string::npos);
  EXPECT_EQ(Occurrences(html.substr(table), "<tr><td>"), 5u) << "the empty input and the missing one are rows too";
  EXPECT_NE(html.find("<tr><td>" + dir_.path() + "/archive/empty.json</td><td>plain</td><td>0</td>"), std::string::npos);
}

TEST_F(ReplayTest, AReportWithNoAlertSaysSo) {
  const std::string report = dir_.path() + "/report.html";
  ASSERT_EQ(RunForeshock({"replay", "--report", report, "--rule", "es.chain.disk_fill", dir_.path() + "/archive"})
                .exit_code,
            0);
  const std::string html = ReadFile(report);
  EXPECT_NE(html.find("<div class=\"sub\">no alerts, "), std::string::npos);
  EXPECT_NE(html.find("<p>No alerts.</p>"), std::string::npos);
}

TEST_F(ReplayTest, TheSummaryAsJsonIsForTicketsAndPostmortems) {
  const std::string path = dir_.path() + "/summary.json";
  const auto replay = RunForeshock({"replay", "--summary-json", path, dir_.path() + "/archive"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const json summary = json::parse(ReadFile(path));
  EXPECT_EQ(summary["foreshock"]["command_line"], "foreshock replay --summary-json " + path + " " + dir_.path() + "/archive");
  EXPECT_EQ(summary["clusters"], json::array({"search-prod"}));
  ASSERT_EQ(summary["alerts"].size(), 4u);
  EXPECT_EQ(summary["alerts"][2]["lead_time_s"], 1130.635);
  EXPECT_EQ(summary["alerts"][2]["node"], "order-events-node-2");
  const json& node = summary["nodes"]["order-events-node-2"];
  EXPECT_EQ(node["first_precursor"]["@timestamp"], "2026-11-29T02:54:11.482Z");
  EXPECT_EQ(node["outages"][0], json({{"from", "2026-11-29T03:13:02.117Z"},
                                      {"to", "2026-11-29T03:51:10.140Z"},
                                      {"pattern", "es.breaker.parent"},
                                      {"count", 544}}));
  EXPECT_EQ(summary["busiest_patterns"][0]["pattern"], "es.breaker.parent");
  EXPECT_EQ(summary["inputs"].size(), 3u);
}

// The report as a browser draws it and as it prints: the provenance, the outage band and a
// plotted value are on the page, and the PDF holds every story's evidence.
TEST_F(ReplayTest, TheReportDrawsAndPrintsInChromium) {
  const std::string report = dir_.path() + "/report.html";
  ASSERT_EQ(RunForeshock({"replay", "--report", report, dir_.path() + "/archive"}).exit_code, 0);
  const char* chromium = "/usr/bin/chromium";
  if (!fs::exists(chromium) || !fs::exists("/usr/bin/pdftotext")) {
    GTEST_SKIP() << "chromium or pdftotext absent (.ci/setup-deps.sh --with-test-tools installs them)";
  }
  testing::ProcessOptions slow;
  slow.timeout = std::chrono::milliseconds(120000);
  const auto rendered = testing::RunProcess({chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                             "--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + report},
                                            slow);
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_EQ(rendered.err.find(":CONSOLE"), std::string::npos) << "console messages: " << rendered.err;
  EXPECT_EQ(Occurrences(rendered.out, "class=\"alert-marker\""), 4u);
  // The screenshot: the outage band (#e53935 at 16 % on #fafafa) in the timeline, and below
  // it the plotted breaker limit in the one colour nothing else uses (#00897b).
  const std::string png = dir_.path() + "/report.png";
  const auto shot = testing::RunProcess({chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                         "--window-size=1280,1400", "--screenshot=" + png, "file://" + report},
                                        slow);
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  const auto picture = testing::ReadPng(png);
  ASSERT_TRUE(picture.has_value());
  const auto band = picture->FirstRowWith(247, 219, 219, 6);
  ASSERT_TRUE(band.has_value()) << "no outage band drawn";
  EXPECT_GT(picture->CountNear(247, 219, 219, 6), 5000u) << "a band, not a speck";
  const auto plotted = picture->FirstRowWith(0x00, 0x89, 0x7b, 24);
  ASSERT_TRUE(plotted.has_value()) << "no plotted value";
  EXPECT_GT(*plotted, *band) << "the numbers are drawn below the timeline";
  EXPECT_GT(picture->CountNear(0x00, 0x89, 0x7b, 24), 300u) << "a line, not a dot";
  // The print: a PDF whose text has the provenance, the outage and the evidence (expanded).
  const std::string pdf = dir_.path() + "/report.pdf";
  const auto printed = testing::RunProcess({chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                            "--print-to-pdf=" + pdf, "file://" + report},
                                           slow);
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  const auto text = testing::RunProcess({"/usr/bin/pdftotext", "-layout", pdf, "-"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("foreshock replay: cluster search-prod"), std::string::npos) << text.out.substr(0, 2000);
  EXPECT_NE(text.out.find("foreshock replay --report"), std::string::npos) << "the command line";
  EXPECT_NE(text.out.find("T = outage 03:13"), std::string::npos);
  EXPECT_NE(text.out.find("Trying to create too many scroll contexts"), std::string::npos)
      << "the evidence is printed, not folded away";
  EXPECT_NE(text.out.find("breaker_usage"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
