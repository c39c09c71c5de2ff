// Unknown precursors end to end, on the built binary: `baseline build/merge/show`, and
// `--baseline` on scan and replay, `watch --state-dir` learning as it runs. The seed
// incident's warning still comes without its catalog pattern; quiet days, the ordinary
// samples and real logs of others raise no novelty warning; the novel-exception scenario's
// outage is announced through novelty.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "base/timestamp_parser.h"
#include "testing/perturbation.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::RunForeshock;

std::string Sample(const std::string& path) { return std::string(testing::kSamplesDir) + "/" + path; }

std::vector<nlohmann::json> Alerts(const std::string& out) {
  std::vector<nlohmann::json> alerts;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) alerts.push_back(nlohmann::json::parse(line));
  }
  return alerts;
}

bool Learned(const nlohmann::json& alert) { return alert["rule"]["id"].get<std::string>().starts_with("foreshock.novel."); }
int SeverityOf(const nlohmann::json& alert) { return alert["event"]["severity"].get<int>(); }
TimePoint TimeOf(const nlohmann::json& alert) {
  return ParseTimestamp(alert["@timestamp"].get<std::string>(), TimeZone::Utc())->time;
}

std::vector<std::string> Files(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".json") || name.ends_with(".log") || name.ends_with(".ndjson") || name.starts_with("gc.log")) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The middle of the inputs' event times, as `match --show --json` reads them.
std::string MiddleTime(const std::vector<std::string>& files) {
  std::vector<std::string> args = {"match", "--show", "--json"};
  args.insert(args.end(), files.begin(), files.end());
  const auto shown = RunForeshock(args);
  std::vector<std::string> stamps;
  for (const nlohmann::json& record : Alerts(shown.out)) {
    if (record.contains("@timestamp")) stamps.push_back(record["@timestamp"]);
  }
  std::sort(stamps.begin(), stamps.end());
  return stamps.empty() ? "" : stamps[stamps.size() / 2];
}

// A catalog file that takes the seed's scroll-context pattern away: its regex matches no log.
std::string WithoutTheScrollPattern(const testing::TempDir& dir) {
  return dir.Write("no-scroll.yaml", R"(patterns:
  - id: es.search.scroll_context_limit
    title: taken away for the test
    category: search
    regex: 'no log says this (?P<max_scroll_contexts>\d+) xyzzy'
    fields: {max_scroll_contexts: integer}
    examples: {match: ['no log says this 5 xyzzy'], no_match: ['x']}
)");
}

TEST(NoveltyTest, WithoutItsPatternTheSeedsScrollWarningStillComesThroughNovelty) {
  testing::TempDir dir;
  const std::string baseline = dir.path() + "/seed-before-0250.json";
  const auto built = RunForeshock({"baseline", "build", "--output", baseline, "--from", "2026-11-29T01:30:00Z", "--to",
                                   "2026-11-29T02:50:00Z", Sample("seed-incident")});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  EXPECT_NE(built.err.find("1h19m of logs"), std::string::npos) << built.err;
  const std::string no_scroll = WithoutTheScrollPattern(dir);
  std::vector<std::string> scan = {"scan", "--catalog", no_scroll, "--baseline", baseline};
  for (const std::string& file : Files(Sample("seed-incident"))) scan.push_back(file);
  const auto result = RunForeshock(scan);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const TimePoint logged = ParseTimestamp("2026-11-29T02:54:11.482Z", TimeZone::Utc())->time;
  std::optional<TimePoint> warned;
  for (const nlohmann::json& alert : Alerts(result.out)) {
    EXPECT_NE(alert["rule"]["id"], "es.chain.scroll_leak") << "the pattern is gone: " << alert.dump();
    if (!Learned(alert) || SeverityOf(alert) < 2 || alert["event"]["action"] == "resolved") continue;
    EXPECT_EQ(alert["elasticsearch"]["node"]["name"], "order-events-node-2");
    EXPECT_EQ(alert["foreshock"]["fields"]["exception_class"], "TooManyScrollContextsException");
    EXPECT_EQ(alert["foreshock"]["fields"]["baseline_seen"], "never");
    EXPECT_EQ(alert["rule"]["origin"], "learned");
    if (!warned) warned = TimeOf(alert);
  }
  ASSERT_TRUE(warned.has_value()) << result.out;
  EXPECT_GE(*warned, logged);
  EXPECT_LE(*warned - logged, std::chrono::seconds(60));
  // Without --baseline, scan looks for no unknown precursor: the warning is gone with the pattern.
  scan.erase(scan.begin() + 3, scan.begin() + 5);
  for (const nlohmann::json& alert : Alerts(RunForeshock(scan).out)) EXPECT_FALSE(Learned(alert)) << alert.dump();
}

// A baseline learned from the first half of a log, then the whole log scanned with it: an
// ordinary day's warnings are known; nothing new is raised at warning.
void ExpectNoNoveltyWarning(const std::vector<std::string>& files, const std::string& what) {
  testing::TempDir dir;
  const std::string middle = MiddleTime(files);
  ASSERT_FALSE(middle.empty()) << what;
  std::vector<std::string> build = {"baseline", "build", "--output", dir.path() + "/b.json", "--to", middle};
  build.insert(build.end(), files.begin(), files.end());
  const auto built = RunForeshock(build);
  ASSERT_EQ(built.exit_code, 0) << what << ": " << built.err;
  std::vector<std::string> scan = {"scan", "--baseline", dir.path() + "/b.json"};
  scan.insert(scan.end(), files.begin(), files.end());
  const auto result = RunForeshock(scan);
  ASSERT_EQ(result.exit_code, 0) << what << ": " << result.err;
  for (const nlohmann::json& alert : Alerts(result.out)) {
    if (Learned(alert)) {
      EXPECT_LT(SeverityOf(alert), 2) << what << ": " << alert.dump();
    }
  }
}

TEST(NoveltyTest, QuietDaysAndOrdinarySamplesRaiseNoNoveltyWarning) {
  ExpectNoNoveltyWarning(Files(Sample("scenarios/quiet-day")), "quiet-day");
  ExpectNoNoveltyWarning(Files(Sample("gc-log/es-data-1")), "gc-log");
  for (const std::string& file : Files(Sample("formats"))) ExpectNoNoveltyWarning({file}, file);
  // The novel-exception scenario's first day is an ordinary day with ordinary warnings.
  std::vector<std::string> day_one;
  testing::TempDir dir;
  for (const std::string& file : Files(Sample("scenarios/novel-exception"))) {
    std::istringstream lines(testing::ReadFile(file));
    std::string line, kept;
    while (std::getline(lines, line)) {
      if (line.find("\"@timestamp\":\"2026-11-28") != std::string::npos) kept += line + "\n";
    }
    day_one.push_back(dir.Write(fs::path(file).filename().string(), kept));
  }
  ExpectNoNoveltyWarning(day_one, "novel-exception day one");
}

TEST(NoveltyTest, RealLogsOfOthersRaiseNoNoveltyWarningOnAnOrdinaryDay) {
  const fs::path corpus = testing::kCorpusDir;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no shared corpus at " << corpus;
  for (const char* name : {"es8-ecs-beats-server.json", "es8-ecs-beats-server-mixed-with-deprecation.json",
                           "es8-ecs-beats-deprecation.json", "es7-json-beats-server.json", "es6-plain-beats-server-6.2.4.log",
                           "es6-plain-beats-deprecation.log", "es6-plain-beats-slowlog.log", "es7-json-beats-search-slowlog.json",
                           "es8-ecs-beats-search-slowlog.json", "es8-ecs-beats-indexing-slowlog.json", "jdk8-gc-beats.log"}) {
    ExpectNoNoveltyWarning({(corpus / name).string()}, name);
  }
}

TEST(NoveltyTest, TheNovelExceptionScenarioIsAnnouncedBeforeTheIndexTurnsRed) {
  testing::TempDir dir;
  const std::vector<std::string> files = Files(Sample("scenarios/novel-exception"));
  std::vector<std::string> build = {"baseline", "build", "-o", dir.path() + "/day1.json", "--to", "2026-11-29T00:00:00Z"};
  build.insert(build.end(), files.begin(), files.end());
  ASSERT_EQ(RunForeshock(build).exit_code, 0);
  std::vector<std::string> replay = {"replay", "--baseline", dir.path() + "/day1.json", "--from", "2026-11-29T00:00:00Z",
                                     "--report", dir.path() + "/report.html"};
  replay.insert(replay.end(), files.begin(), files.end());
  const auto result = RunForeshock(replay);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The report and the catalog's tools say which alerts were learned, not curated.
  const std::string report = testing::ReadFile(dir.path() + "/report.html");
  EXPECT_NE(report.find("foreshock.novel.exception <span class=\"learned\""), std::string::npos);
  EXPECT_EQ(report.find("es.cluster.health_red <span class=\"learned\""), std::string::npos);
  const auto listed = RunForeshock({"catalog", "list", "foreshock.novel"});
  EXPECT_NE(listed.out.find("foreshock.novel.exception                novelty   sequence"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("(learned, not curated)"), std::string::npos) << listed.out;
  std::optional<TimePoint> warned, red;
  for (const nlohmann::json& alert : Alerts(result.out)) {
    const std::string rule = alert["rule"]["id"];
    EXPECT_NE(rule, "es.chain.fd_exhaustion") << "a corrupt shard is not a file-descriptor story";
    if (rule == "es.cluster.health_red" && alert["event"]["action"] == "firing") red = TimeOf(alert);
    if (!Learned(alert) || alert["event"]["action"] == "resolved") continue;
    // Nothing of the ordinary day two, only the corruption.
    EXPECT_EQ(alert["foreshock"]["fields"]["exception_class"], "CorruptIndexException") << alert.dump();
    if (SeverityOf(alert) >= 2 && !warned) {
      warned = TimeOf(alert);
      EXPECT_EQ(alert["elasticsearch"]["node"]["name"], "es-data-2");
    }
  }
  ASSERT_TRUE(warned && red) << result.out;
  EXPECT_GE(*red - *warned, std::chrono::minutes(5)) << "lead time";
}

// `-o -` writes the baseline to standard output (to pipe it to ssh or a config store), the
// same bytes a file gets; no file named "-" appears.
TEST(NoveltyTest, ABaselineGoesToStdoutForDash) {
  testing::TempDir dir;
  const std::vector<std::string> files = Files(Sample("scenarios/novel-exception"));
  std::vector<std::string> to_file = {"baseline", "build", "-o", dir.path() + "/day1.json", "--to", "2026-11-29T00:00:00Z"};
  to_file.insert(to_file.end(), files.begin(), files.end());
  ASSERT_EQ(RunForeshock(to_file).exit_code, 0);
  std::vector<std::string> to_stdout = {"baseline", "build", "-o", "-", "--to", "2026-11-29T00:00:00Z"};
  to_stdout.insert(to_stdout.end(), files.begin(), files.end());
  testing::ProcessOptions in_dir;
  in_dir.cwd = dir.path();
  const auto built = RunForeshock(to_stdout, in_dir);
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const std::string saved = testing::ReadFile(dir.path() + "/day1.json");
  EXPECT_GT(saved.size(), 100u);
  EXPECT_EQ(built.out, saved);
  EXPECT_NE(built.err.find("standard output: "), std::string::npos) << built.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/-"));
  const auto merged = RunForeshock({"baseline", "merge", "-o", "-", dir.path() + "/day1.json"}, in_dir);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(merged.out, saved);
  EXPECT_FALSE(fs::exists(dir.path() + "/-"));
}

// What each alert is, for comparing runs: time, rule, group, action, stage, severity.
std::vector<std::string> Identities(const std::string& out) {
  std::vector<std::string> identities;
  for (const nlohmann::json& alert : Alerts(out)) {
    identities.push_back(alert["@timestamp"].get<std::string>() + " " + alert["rule"]["id"].get<std::string>() + " " +
                         alert["foreshock"]["group"].dump() + " " + alert["event"]["action"].get<std::string>() +
                         " stage " + alert["foreshock"]["stage"].dump() + " severity " + alert["event"]["severity"].dump());
  }
  std::sort(identities.begin(), identities.end());
  return identities;
}

// Junk before the first line, a stray stamp years off, records twice, neighbours swapped,
// CRLF, rotated files, one merged stream on stdin: the novelty alerts (and the others) are
// those of the clean logs.
TEST(NoveltyTest, JunkStraysRepeatsSwapsAndRotationsDoNotChangeTheNoveltyAlerts) {
  testing::TempDir dir;
  const std::vector<std::string> files = Files(Sample("scenarios/novel-exception"));
  std::vector<std::string> build = {"baseline", "build", "-o", dir.path() + "/day1.json", "--to", "2026-11-29T00:00:00Z"};
  build.insert(build.end(), files.begin(), files.end());
  ASSERT_EQ(RunForeshock(build).exit_code, 0);
  std::vector<testing::LogFile> clean;
  for (const std::string& file : files) {
    std::string kept;
    for (const testing::RawRecord& record : testing::SplitRecords(testing::ReadFile(file))) {
      if (record.text.find("\"@timestamp\":\"2026-11-29T1") != std::string::npos) kept += record.text;
    }
    clean.push_back({fs::path(file).filename().string(), kept});
  }
  auto scan = [&](const std::vector<testing::LogFile>& logs, const std::string& name) {
    const std::string folder = dir.path() + "/" + name;
    fs::create_directories(folder);
    std::vector<std::string> args = {"scan", "--baseline", dir.path() + "/day1.json"};
    for (const testing::LogFile& log : logs) args.push_back(dir.Write(name + "/" + log.name, log.bytes));
    const auto result = RunForeshock(args);
    EXPECT_EQ(result.exit_code, 0) << name << ": " << result.err;
    return Identities(result.out);
  };
  const std::vector<std::string> expected = scan(clean, "clean");
  ASSERT_TRUE(std::any_of(expected.begin(), expected.end(), [](const std::string& a) {
    return a.find("foreshock.novel.exception") != std::string::npos && a.find("severity 2") != std::string::npos;
  })) << ::testing::PrintToString(expected);
  std::mt19937 random(33);
  int tried = 0;
  for (const testing::Perturbation& perturbation : testing::Perturbations()) {
    if (perturbation.for_streams_only || perturbation.expect_files != testing::Expectation::kSameAlerts) continue;
    ++tried;
    EXPECT_EQ(scan(perturbation.apply(clean, &random), perturbation.name), expected) << perturbation.name;
  }
  EXPECT_GE(tried, 8);
  testing::ProcessOptions stdin_options;
  stdin_options.stdin_data = testing::MergedByTime(clean);
  const auto merged = RunForeshock({"scan", "--baseline", dir.path() + "/day1.json"}, stdin_options);
  EXPECT_EQ(Identities(merged.out), expected) << "one merged stream on stdin";
}

// Warnings the quiet lane hands out by their shape (decoded only when what the detector knows
// of the shape does not settle them) give the alerts of every line decoded in full: a known
// warning surging, with its evidence, and the scenario's new exception.
TEST(NoveltyTest, LinesJudgedByTheirShapeGiveTheAlertsOfFullDecoding) {
  testing::TempDir dir;
  auto line = [](int hour, int minute, int second, int port, int day = 28, int millis = 120) {
    char text[1024];
    std::snprintf(text, sizeof text,
                  "{\"@timestamp\":\"2026-11-%02dT%02d:%02d:%02d.%03dZ\", \"log.level\": \"WARN\", "
                  "\"message\":\"caught exception while handling client http traffic, closing connection "
                  "Netty4HttpChannel{localAddress=/10.0.0.1:9200, remoteAddress=/10.0.7.9:%d}\", \"ecs.version\": \"1.2.0\","
                  "\"service.name\":\"ES_ECS\",\"event.dataset\":\"elasticsearch.server\","
                  "\"process.thread.name\":\"elasticsearch[es-1][http_server_worker][T#1]\","
                  "\"log.logger\":\"org.elasticsearch.http.AbstractHttpServerTransport\","
                  "\"elasticsearch.node.name\":\"es-1\",\"elasticsearch.cluster.name\":\"prod\"}\n",
                  day, hour, minute, second, millis, port);
    return std::string(text);
  };
  // A day with the warning every two hours (and a quiet line every ten minutes), then twenty
  // in two seconds.
  std::string day, surge;
  for (int minute = 0; minute < 24 * 60; minute += 10) {
    char quiet[512];
    std::snprintf(quiet, sizeof quiet,
                  "{\"@timestamp\":\"2026-11-28T%02d:%02d:00.000Z\", \"log.level\": \"INFO\", \"message\":\"cluster "
                  "state updated, version [%d]\", \"log.logger\":\"org.elasticsearch.cluster.service.ClusterApplierService\","
                  "\"elasticsearch.node.name\":\"es-1\",\"elasticsearch.cluster.name\":\"prod\"}\n",
                  minute / 60, minute % 60, minute);
    day += quiet;
    if (minute % 120 == 0) day += line(minute / 60, 0, 3, 40000 + minute);
  }
  for (int i = 0; i < 20; ++i) surge += line(12, 30, i / 10, 50000 + i, 29, (i % 10) * 100);
  const std::string baseline = dir.path() + "/day.json";
  ASSERT_EQ(RunForeshock({"baseline", "build", "-o", baseline, dir.Write("day.json", day)}).exit_code, 0);
  const std::string next = dir.Write("next.json", surge);
  const auto shaped = RunForeshock({"scan", "--baseline", baseline, next});
  const auto full = RunForeshock({"scan", "--baseline", baseline, "--exhaustive", next});
  ASSERT_EQ(shaped.exit_code, 0) << shaped.err;
  EXPECT_EQ(Identities(shaped.out), Identities(full.out));
  const std::vector<nlohmann::json> alerts = Alerts(shaped.out);
  ASSERT_FALSE(alerts.empty()) << shaped.err;
  EXPECT_EQ(alerts[0]["rule"]["id"], "foreshock.novel.surge");
  EXPECT_EQ(alerts[0]["foreshock"]["fields"]["observed"], 10);
  EXPECT_NE(alerts[0]["foreshock"]["evidence"][0]["message"].get<std::string>().find("remoteAddress=/10.0.7.9:50009"),
            std::string::npos)
      << "the line that surged, decoded: " << alerts[0].dump();
  EXPECT_NE(shaped.err.find("0 new warnings, 11 surges"), std::string::npos) << shaped.err;  // the 10th to the 20th
  // The 2nd to the 9th were settled inside the reader's quiet runs, never handed out.
  const auto debug = RunForeshock({"scan", "--log-level", "debug", "--baseline", baseline, next});
  EXPECT_NE(debug.err.find("of those settled by their shape"), std::string::npos) << debug.err;
  EXPECT_EQ(debug.err.find(" 0 of those settled by their shape"), std::string::npos) << debug.err;
  // The scenario's day two, every line decoded, against the lines judged by shape.
  const std::vector<std::string> files = Files(Sample("scenarios/novel-exception"));
  std::vector<std::string> build = {"baseline", "build", "-o", dir.path() + "/day1.json", "--to", "2026-11-29T00:00:00Z"};
  build.insert(build.end(), files.begin(), files.end());
  ASSERT_EQ(RunForeshock(build).exit_code, 0);
  std::vector<std::string> replay = {"replay", "--baseline", dir.path() + "/day1.json", "--from", "2026-11-29T00:00:00Z"};
  replay.insert(replay.end(), files.begin(), files.end());
  std::vector<std::string> exhaustive = replay;
  exhaustive.push_back("--exhaustive");
  EXPECT_EQ(Identities(RunForeshock(replay).out), Identities(RunForeshock(exhaustive).out));
  // scan merges the three nodes' files, settling known warnings inside quiet runs.
  std::vector<std::string> scan = {"scan", "--baseline", dir.path() + "/day1.json"};
  scan.insert(scan.end(), files.begin(), files.end());
  std::vector<std::string> scan_exhaustive = scan;
  scan_exhaustive.push_back("--exhaustive");
  const auto scanned = RunForeshock(scan);
  EXPECT_FALSE(Alerts(scanned.out).empty()) << scanned.err;
  EXPECT_EQ(Identities(scanned.out), Identities(RunForeshock(scan_exhaustive).out));
}

TEST(NoveltyTest, BaselinesMergeAcrossDaysAndShowWhatTheyHold) {
  testing::TempDir dir;
  const std::vector<std::string> files = Files(Sample("scenarios/novel-exception"));
  auto build = [&](const std::string& name, const char* from, const char* to) {
    std::vector<std::string> args = {"baseline", "build", "-o", dir.path() + "/" + name, "--from", from, "--to", to};
    args.insert(args.end(), files.begin(), files.end());
    const auto result = RunForeshock(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
  };
  build("am.json", "2026-11-28T00:00:00Z", "2026-11-28T12:00:00Z");
  build("pm.json", "2026-11-28T12:00:00Z", "2026-11-29T00:00:00Z");
  build("day.json", "2026-11-28T00:00:00Z", "2026-11-29T00:00:00Z");
  const auto merged = RunForeshock({"baseline", "merge", "-o", dir.path() + "/merged.json", dir.path() + "/am.json",
                                    dir.path() + "/pm.json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  auto counts = [&](const std::string& name) {
    const nlohmann::json json = nlohmann::json::parse(testing::ReadFile(dir.path() + "/" + name));
    std::map<std::string, uint64_t> by;
    for (const auto& t : json["clusters"][0]["templates"]) by[t["logger"].get<std::string>() + t["template"].get<std::string>()] = t["count"];
    for (const auto& e : json["clusters"][0]["exceptions"]) by[e["class"]] = e["count"];
    return by;
  };
  EXPECT_EQ(counts("merged.json"), counts("day.json"));
  const auto shown = RunForeshock({"baseline", "show", dir.path() + "/merged.json"});
  ASSERT_EQ(shown.exit_code, 0);
  EXPECT_NE(shown.out.find("cluster prod: 3 nodes"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("exception IndexNotFoundException"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("org.elasticsearch.transport.TcpTransport: exception caught on transport layer [<*>"),
            std::string::npos)
      << shown.out;
  // A damaged baseline is refused with what is wrong, not used half.
  dir.Write("broken.json", R"({"format":"foreshock-baseline","version":1,"clusters":[{"cluster":"p","exceptions":[{"class":"X","count":-1}]}]})");
  const auto refused = RunForeshock({"scan", "--baseline", dir.path() + "/broken.json", files[0]});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("clusters[0].exceptions[0].count"), std::string::npos) << refused.err;
}

// watch --state-dir learns from scratch: what it has not seen for a day is info, and what it
// learned is kept in baseline.json across a restart.
TEST(NoveltyTest, WatchLearnsAsItRunsWarnsOnlyAtInfoBeforeADayAndKeepsWhatItLearned) {
  testing::TempDir dir;
  const std::string log = dir.path() + "/es-data-2.json";
  const std::string state = dir.path() + "/state";
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const std::vector<std::string> files = Files(Sample("scenarios/novel-exception"));
  std::string day2;
  {
    std::istringstream lines(testing::ReadFile(Sample("scenarios/novel-exception/es-data-2.json")));
    std::string line;
    while (std::getline(lines, line)) {
      if (line.find("\"@timestamp\":\"2026-11-29T14:0") != std::string::npos) day2 += line + "\n";
    }
  }
  ASSERT_FALSE(day2.empty());
  dir.Write("es-data-2.json", day2);
  pid_t pid = testing::StartForeshock({"watch", "--from", "beginning", "--state-dir", state, log}, out, err);
  ASSERT_TRUE(testing::WaitFor([&] { return testing::ReadFileIfExists(out).find("CorruptIndexException") != std::string::npos; },
                               20s))
      << testing::ReadFileIfExists(err);
  std::this_thread::sleep_for(500ms);
  ASSERT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  int capped = 0;  // the repeats would have warned: they say why they do not
  for (const nlohmann::json& alert : Alerts(testing::ReadFile(out))) {
    if (!Learned(alert)) continue;
    EXPECT_EQ(SeverityOf(alert), 1) << "less than a day learned: " << alert.dump();
    if (alert["message"].get<std::string>().find("info while learning") != std::string::npos) ++capped;
  }
  EXPECT_GE(capped, 1);
  const nlohmann::json learned = nlohmann::json::parse(testing::ReadFile(state + "/baseline.json"));
  bool kept = false;
  for (const auto& e : learned["clusters"][0]["exceptions"]) kept = kept || e["class"] == "CorruptIndexException";
  EXPECT_TRUE(kept) << learned.dump(1);
  // --no-novelty: nothing learned is raised.
  testing::TempDir quiet;
  const std::string quiet_log = quiet.Write("es-data-2.json", day2);
  const std::string quiet_out = quiet.path() + "/out";
  pid = testing::StartForeshock({"watch", "--from", "beginning", "--state-dir", quiet.path() + "/state", "--no-novelty", quiet_log},
                                quiet_out, quiet.path() + "/err");
  std::this_thread::sleep_for(2s);
  ASSERT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  for (const nlohmann::json& alert : Alerts(testing::ReadFileIfExists(quiet_out))) EXPECT_FALSE(Learned(alert));
  EXPECT_FALSE(fs::exists(quiet.path() + "/state/baseline.json"));
}

}  // namespace
}  // namespace foreshock
