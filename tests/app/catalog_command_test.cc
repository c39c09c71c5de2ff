// End-to-end tests of `foreshock catalog`, run on the built binary.

#include <gtest/gtest.h>

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "testing/subprocess.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::ProcessResult;
using testing::RunForeshock;
using testing::TempDir;

TEST(CatalogCommandTest, LintPrintsEveryErrorWithFileLineAndColumn) {
  TempDir dir;
  const std::string path = dir.Write("broken.yaml",
                                     "patterns:\n"
                                     "  - id: t.one\n"
                                     "    title: t\n"
                                     "    category: search\n"
                                     "    regex: '(unclosed'\n"
                                     "    examples: {match: [a], no_match: [b]}\n"
                                     "rules:\n"
                                     "  - id: t.rule\n"
                                     "    name: r\n"
                                     "    category: search\n"
                                     "    pattern: t.nothing\n"
                                     "    message: m\n");
  const ProcessResult result = RunForeshock({"catalog", "lint", path});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find(path + ":5:12: error: regex does not compile: missing ): (unclosed"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find(path + ":8:5: error: rule 't.rule' names unknown pattern 't.nothing'"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("2 error(s)"), std::string::npos);
}

TEST(CatalogCommandTest, ACatalogWhoseAliasesExpandToGigabytesIsRefusedAtTheLineThatCrossesTheBound) {
  TempDir dir;
  // 1.5 MB on disk; 3 GB if every alias of the runbook were copied out.
  std::string text = "patterns:\n  - id: p0\n    runbook: &book \"" + std::string(1 << 20, 'r') + "\"\n";
  for (int i = 1; i < 3000; ++i) text += "  - id: p" + std::to_string(i) + "\n    runbook: *book\n";
  const std::string path = dir.Write("amplified.yaml", text);
  const ProcessResult result = RunForeshock({"catalog", "lint", path});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find(path + ":32:5: error: the document, with its aliases expanded, grows past 16 MiB"),
            std::string::npos)
      << result.err.substr(0, 2000);
}

TEST(CatalogCommandTest, TestFailsOnAnExampleThatDoesNotBehave) {
  TempDir dir;
  const std::string path = dir.Write("wrong.yaml",
                                     "patterns:\n"
                                     "  - id: t.limit\n"
                                     "    title: t\n"
                                     "    category: search\n"
                                     "    regex: 'limit \\[(?P<n>\\d+)\\]'\n"
                                     "    examples:\n"
                                     "      match:\n"
                                     "        - {line: 'limit [500]', captures: {n: '400'}}\n"
                                     "      no_match: ['limit [12]']\n");
  const ProcessResult result = RunForeshock({"catalog", "test", path});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.out.find("FAIL t.limit: capture 'n' is '500', expected '400'"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("FAIL t.limit: matched a no_match line"), std::string::npos);
  EXPECT_NE(result.out.find("0 passed, 2 failed"), std::string::npos);
}

// A user's file is checked as scan --catalog loads it: on top of the built-in catalog, so it
// may use and override built-in entries; test tries that file's examples only.
TEST(CatalogCommandTest, AUsersFileIsCheckedAgainstTheBuiltInCatalog) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/mine");
  dir.Write("mine/breakers.yaml",
            "patterns:\n"
            "  - id: my.fielddata_evictions\n"
            "    title: Fielddata evicted\n"
            "    category: memory\n"
            "    severity: warning\n"
            "    regex: 'fielddata evicted \\[(?P<evictions>\\d+)\\]'\n"
            "    examples: {match: ['fielddata evicted [12]'], no_match: ['fielddata loaded']}\n"
            "rules:\n"
            "  - id: my.breaker_storm\n"
            "    name: Breaker storm\n"
            "    category: memory\n"
            "    kind: threshold\n"
            "    patterns: [es.breaker.parent, my.fielddata_evictions]\n"
            "    count: 3\n"
            "    window: 5m\n"
            "    group_by: [node]\n"
            "    severity: critical\n"
            "    message: '{node} breaker storm'\n");
  const std::string folder = dir.path() + "/mine";
  const ProcessResult lint = RunForeshock({"catalog", "lint", folder});
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  EXPECT_NE(lint.out.find("no errors"), std::string::npos) << lint.out;
  const ProcessResult test = RunForeshock({"catalog", "test", folder});
  EXPECT_EQ(test.exit_code, 0) << test.out << test.err;
  EXPECT_NE(test.out.find(": 2 passed, 0 failed"), std::string::npos) << test.out;
  // Alone, the file names a pattern it does not have.
  const ProcessResult alone = RunForeshock({"catalog", "lint", "--no-builtin-catalog", folder});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("names unknown pattern 'es.breaker.parent'"), std::string::npos) << alone.err;
}

TEST(CatalogCommandTest, ShippedCatalogPassesItsOwnTests) {
  const ProcessResult result = RunForeshock({"catalog", "test"});
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find(" 0 failed"), std::string::npos);
}

// `catalog export` feeds `grep -E -f` and `rg -f` (bench/throughput.sh): one regex a line,
// each curated pattern's, and no empty line (which would match every line of their input).
TEST(CatalogCommandTest, ExportGivesEachCuratedRegexAndNoEmptyLine) {
  for (const bool ere : {false, true}) {
    std::vector<std::string> args = {"catalog", "export"};
    if (ere) args.push_back("--ere");
    const ProcessResult result = RunForeshock(args);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::string> regexes;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) regexes.push_back(line);
    ASSERT_GE(regexes.size(), 40u) << result.out;
    for (const std::string& regex : regexes) EXPECT_FALSE(regex.empty()) << (ere ? "--ere" : "plain");
    if (!ere) {
      // The seed incident's breaker line matches an exported regex; an ordinary line none.
      const std::string breaker =
          "[parent] Data too large, data for [<http_request>] would be [16.2gb], which is larger than the limit "
          "of [15.8gb]";
      const std::string ordinary = "[o.e.c.m.MetadataMappingService] [node-1] [logs-2026.11] update_mapping [_doc]";
      const auto matched = [&](const std::string& text) {
        return std::any_of(regexes.begin(), regexes.end(),
                           [&](const std::string& regex) { return RE2::PartialMatch(text, RE2(regex)); });
      };
      EXPECT_TRUE(matched(breaker));
      EXPECT_FALSE(matched(ordinary));
    }
  }
}

TEST(CatalogCommandTest, ListShowsOverridesAndExplainShowsTheRunbook) {
  TempDir dir;
  const std::string path = dir.Write("mine.yaml",
                                     "patterns:\n"
                                     "  - id: es.breaker.parent\n"
                                     "    title: Our breaker\n"
                                     "    category: memory\n"
                                     "    regex: 'Data too large'\n"
                                     "    predicts: outage\n"
                                     "    runbook: call the database team\n"
                                     "    examples: {match: ['Data too large'], no_match: ['fine']}\n");
  const ProcessResult list = RunForeshock({"catalog", "list", "--catalog", path});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find(path + ":2 (overrides "), std::string::npos) << list.out;
  const ProcessResult explain = RunForeshock({"catalog", "explain", "es.search.scroll_context_limit"});
  EXPECT_EQ(explain.exit_code, 0);
  EXPECT_NE(explain.out.find("DELETE _search/scroll/_all"), std::string::npos);
  const ProcessResult unknown = RunForeshock({"catalog", "explain", "es.nothing"});
  EXPECT_EQ(unknown.exit_code, 2);
}

TEST(CatalogCommandTest, ListFiltersByPrefixAndExplainTellsHowEachEntryWorks) {
  const ProcessResult breakers = RunForeshock({"catalog", "list", "es.breaker."});
  ASSERT_EQ(breakers.exit_code, 0) << breakers.err;
  EXPECT_NE(breakers.out.find("es.breaker.parent                        memory    critical  outage   "
                              "Parent circuit breaker rejected a request"),
            std::string::npos)
      << breakers.out;
  EXPECT_EQ(breakers.out.find("es.search."), std::string::npos) << "only the prefix";
  const ProcessResult nothing = RunForeshock({"catalog", "list", "es.braker"});
  EXPECT_NE(nothing.err.find("no pattern or rule id starts with 'es.braker'"), std::string::npos) << nothing.err;

  const ProcessResult pattern = RunForeshock({"catalog", "explain", "es.breaker.parent"});
  ASSERT_EQ(pattern.exit_code, 0) << pattern.err;
  EXPECT_NE(pattern.out.find("\nFields:\n  breaker_limit: bytes\n  breaker_usage: bytes\n"), std::string::npos)
      << pattern.out;
  EXPECT_NE(pattern.out.find("  es.chain.scroll_leak stage 3 (sequence: stages within 1h)\n"), std::string::npos);
  EXPECT_NE(pattern.out.find("  es.node.silent_after_errors (absence: fires when the node logs nothing for 5m)\n"),
            std::string::npos);
  const ProcessResult filtered = RunForeshock({"catalog", "explain", "es.breaker.child"});
  EXPECT_NE(filtered.out.find("\nFilters:\n"), std::string::npos);

  const ProcessResult rule = RunForeshock({"catalog", "explain", "es.chain.scroll_leak"});
  ASSERT_EQ(rule.exit_code, 0) << rule.err;
  EXPECT_NE(rule.out.find("  sequence: stages within 1h\n  realert after 1h, resolved after 15m without a hit"),
            std::string::npos)
      << rule.out;
  EXPECT_NE(rule.out.find("\nStages:\n  1. [warning] on es.search.scroll_context_limit\n"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
