// End-to-end test of `foreshock match`, the fail2ban-regex of the catalog.

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

TEST(MatchCommandTest, ShowsEachHitWithItsCapturesAndCountsPerPattern) {
  const std::string sample = std::string(testing::kSamplesDir) + "/formats/es-plain.log";
  const testing::ProcessResult result = testing::RunForeshock({"match", sample});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The hit, the record's node and level, the captures as written, the line that matched.
  EXPECT_NE(result.out.find(sample + ":3  es.search.scroll_context_limit [warning]  node es-data-1, warn  "
                                     "max_scroll_contexts=500\n  | "),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("(500.000000)"), std::string::npos) << "numbers as written";
  EXPECT_NE(result.out.find(":10  es.breaker.parent [critical]  node es-data-1, debug  "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("breaker_label=<http_request>"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("6 records, 3 matched"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("       1  es.search.scroll_context_limit"), std::string::npos);
}

TEST(MatchCommandTest, ReadsStdinAndUserCatalogs) {
  testing::ProcessOptions options;
  options.stdin_data = "[2026-11-29T02:54:11,123][WARN ][o.e.x.Y] [n1] the frobnicator is on fire\n";
  const testing::ProcessResult none = testing::RunForeshock({"match", "--summary-only"}, options);
  EXPECT_NE(none.out.find("1 record, 0 matched"), std::string::npos) << none.out;
}

// --show tells what foreshock understood of each record: the journald envelope around an ES
// plain line, the time, level, node and logger from inside it, the exception text, the hits.
TEST(MatchCommandTest, ShowPrintsEveryRecordAsUnderstoodInTextAndJson) {
  const std::string sample = std::string(testing::kSamplesDir) + "/formats/journald.json";
  const testing::ProcessResult json = testing::RunForeshock({"match", "--show", "--json", sample});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::vector<nlohmann::json> records;
  std::istringstream lines(json.out);
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_GE(records.size(), 3u) << json.out;
  const nlohmann::json& first = records[0];
  EXPECT_EQ(first["source"], sample);
  EXPECT_EQ(first["line"], 1);
  EXPECT_EQ(first["envelope"], "journald-json");
  EXPECT_EQ(first["format"], "es-plain");
  EXPECT_EQ(first["@timestamp"], "2026-11-29T02:00:01.500Z");
  EXPECT_EQ(first["level"], "info");
  EXPECT_EQ(first["node"], "es-data-1");
  EXPECT_EQ(first["logger"], "o.e.c.s.ClusterApplierService");
  EXPECT_EQ(first["message"], "cluster state updated, version [4411], source [ApplyCommitRequest{term=7, version=4411}]");
  EXPECT_TRUE(first["hits"].empty());
  const auto scroll = std::find_if(records.begin(), records.end(), [](const nlohmann::json& record) {
    return !record["hits"].empty() && record["hits"][0]["pattern"] == "es.search.scroll_context_limit";
  });
  ASSERT_NE(scroll, records.end()) << json.out;
  EXPECT_EQ((*scroll)["level"], "warn");
  EXPECT_NE((*scroll)["exception"].get<std::string>().find("TooManyScrollContextsException"), std::string::npos);
  EXPECT_EQ((*scroll)["hits"][0]["captures"]["max_scroll_contexts"], "500");

  const testing::ProcessResult text = testing::RunForeshock({"match", "--show", sample});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(sample + ":1  es-plain in journald-json\n  time       2026-11-29T02:00:01.500Z\n"
                                    "  level      info\n  node       es-data-1\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  hit        es.search.scroll_context_limit [warning] max_scroll_contexts=500"),
            std::string::npos)
      << text.out;
}

// A hit on a line about another node says which: the node field is the one that logged it.
TEST(MatchCommandTest, ShowSaysWhichNodeAHitIsAbout) {
  testing::ProcessOptions options;
  options.stdin_data =
      "[2026-11-29T03:23:35,402][WARN ][o.e.c.c.LagDetector      ] [es-master-1] node [{es-data-2}{Qm1wT2hD}"
      "{10.20.1.12}{10.20.1.12:9300}{cdfhilmrstw}] is lagging at cluster state version [90210], although "
      "publication of cluster state version [90211] completed [1.5m] ago\n";
  const testing::ProcessResult json = testing::RunForeshock({"match", "--show", "--json"}, options);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json shown = nlohmann::json::parse(json.out.substr(0, json.out.find('\n')));
  EXPECT_EQ(shown["node"], "es-master-1");
  EXPECT_EQ(shown["hits"][0]["about"], "es-data-2");
  const testing::ProcessResult text = testing::RunForeshock({"match", "--show"}, options);
  EXPECT_NE(text.out.find("es.cluster.lagging_node [warning] about es-data-2 (node is the observer)"),
            std::string::npos)
      << text.out;
}

// Control characters in a decoded field never reach the terminal raw; the JSON escapes them.
TEST(MatchCommandTest, ShowEscapesWhatCameFromTheLog) {
  testing::ProcessOptions options;
  options.stdin_data = "[2026-11-29T02:54:11,123][WARN ][o.e.x.Y] [n1\x1b[2J] hello \xe2\x80\xae" "dlrow\n";
  const testing::ProcessResult text = testing::RunForeshock({"match", "--show"}, options);
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  node       n1\\x1b[2J\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("hello \\u202edlrow"), std::string::npos) << text.out;
  const testing::ProcessResult json = testing::RunForeshock({"match", "--show", "--json"}, options);
  EXPECT_EQ(nlohmann::json::parse(json.out)["node"], "n1\x1b[2J");
}

// --regex tries a pattern before it goes into a catalog, like fail2ban-regex; --missed shows
// the lines a pattern's regex was meant for but does not match.
TEST(MatchCommandTest, AnAdHocRegexAndTheNearMissesOfAPattern) {
  testing::ProcessOptions options;
  options.stdin_data =
      "[2026-11-29T02:54:11,123][WARN ][o.e.x.Y] [n1] heap warning at 95%\n"
      "[2026-11-29T02:54:12,123][WARN ][o.e.x.Y] [n1] Heap warning at ninety-five percent\n"
      "[2026-11-29T02:54:13,123][INFO ][o.e.x.Y] [n1] all is well\n";
  const auto adhoc = testing::RunForeshock({"match", "--regex", "heap warning at (?P<heap>\\d+%)"}, options);
  ASSERT_EQ(adhoc.exit_code, 0) << adhoc.err;
  EXPECT_NE(adhoc.out.find("stdin:1  regex [warning]  node n1, warn  heap=95%\n  | heap warning at 95%\n"), std::string::npos)
      << adhoc.out;
  EXPECT_NE(adhoc.out.find("3 records, 1 matched"), std::string::npos);
  const auto bad = testing::RunForeshock({"match", "--regex", "(unclosed"}, options);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--regex '(unclosed': missing )"), std::string::npos) << bad.err;

  testing::TempDir dir;
  const std::string catalog = dir.Write("c.yaml", R"(patterns:
  - id: test.heap
    title: Heap warning
    category: memory
    severity: warning
    regex: 'heap warning at (?P<heap>\d+%)'
    examples: {match: ['heap warning at 95%'], no_match: ['heap fine']}
)");
  const auto missed = testing::RunForeshock(
      {"match", "--no-builtin-catalog", "--catalog", catalog, "--missed", "test.heap"}, options);
  ASSERT_EQ(missed.exit_code, 0) << missed.err;
  EXPECT_NE(missed.out.find("lines holding \"heap warning at \" that test.heap did not match:\n"), std::string::npos)
      << missed.out;
  EXPECT_NE(missed.out.find("stdin:2  node n1, warn\n  | Heap warning at ninety-five percent\n"), std::string::npos)
      << missed.out;
  EXPECT_EQ(missed.out.find("stdin:1 "), std::string::npos) << "the line it matched is no near miss";
  EXPECT_NE(missed.out.find("3 records, 1 record holding \"heap warning at \" not matched by test.heap"),
            std::string::npos);
  const auto typo = testing::RunForeshock({"match", "--missed", "es.braker.parent"}, options);
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("did you mean es.breaker.parent"), std::string::npos) << typo.err;
}

}  // namespace
}  // namespace foreshock
