#include "catalog/catalog_loader.h"

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::TempDir;

constexpr const char* kGoodPattern = R"(patterns:
  - id: test.scroll
    title: Scroll limit
    category: search
    severity: warning
    regex: 'too many scroll contexts \[(?P<limit>\d+)\]'
    fields: {limit: integer}
    runbook: |
      Clear scrolls.
    examples:
      match: ['too many scroll contexts [500]']
      no_match: ['too few']
rules:
  - id: test.scroll_rule
    name: Scroll
    category: search
    pattern: test.scroll
    message: 'limit {limit} on {node}'
)";

std::vector<std::string> Messages(const LoadReport& report) {
  std::vector<std::string> out;
  for (const Diagnostic& d : report.diagnostics()) out.push_back(d.ToString());
  return out;
}

TEST(CatalogLoaderTest, LoadsPatternsAndRulesWithDefaults) {
  TempDir dir;
  LoadReport report;
  auto catalog = LoadCatalog({{dir.Write("good.yaml", kGoodPattern), CatalogSource::Layer::kBuiltin}}, &report);
  ASSERT_NE(catalog, nullptr) << ::testing::PrintToString(Messages(report));
  ASSERT_EQ(catalog->patterns().size(), 1u);
  const Pattern& pattern = catalog->patterns()[0];
  EXPECT_EQ(pattern.fields.at("limit"), FieldType::kInteger);
  EXPECT_EQ(pattern.runbook, "Clear scrolls.\n");
  EXPECT_EQ(pattern.where.line, 2);
  const Rule& rule = catalog->rules()[0];
  EXPECT_EQ(rule.kind, Rule::Kind::kSingle);
  EXPECT_EQ(rule.group_by, std::vector<std::string>{"node"});
  EXPECT_EQ(rule.resolve_after, std::chrono::minutes(15));
  EXPECT_EQ(rule.steps.at(0).patterns, std::vector<std::string>{"test.scroll"});
}

// Every problem of a broken file is reported at once, at its own line and column.
TEST(CatalogLoaderTest, ReportsEveryErrorWithItsLocation) {
  TempDir dir;
  const std::string path = dir.Write("broken.yaml", R"(patterns:
  - id: test.bad_regex
    title: Bad regex
    category: search
    severity: urgent
    regex: 'unclosed (group'
    examples:
      match: ['x']
      no_match: ['y']
  - id: test.bad_regex
    title: Duplicate and typo
    category: search
    regex: 'ok'
    severty: warning
    examples:
      match: ['ok']
      no_match: ['no']
rules:
  - id: test.rule
    name: Rule
    category: search
    kind: sequence
    window: 5 minutes
    steps:
      - pattern: test.missing
        message: m
)");
  LoadReport report;
  EXPECT_EQ(LoadCatalog({{path, CatalogSource::Layer::kBuiltin}}, &report), nullptr);
  const std::vector<std::string> expected = {
      path + ":5:15: error: severity must be info, warning or critical, not 'urgent'",
      path + ":6:12: error: regex does not compile: missing ): unclosed (group",
      path + ":14:5: error: unknown key 'severty' in pattern",
      path + ":23:13: error: 'window' must be a duration like 90s, 5m or 2h, not '5 minutes'",
      path + ":10:5: error: duplicate id 'test.bad_regex'",
      path + ":19:5: error: rule 'test.rule' names unknown pattern 'test.missing'",
  };
  EXPECT_EQ(Messages(report), expected);
}

TEST(CatalogLoaderTest, YamlSyntaxErrorsCarryTheirPosition) {
  TempDir dir;
  const std::string path = dir.Write("syntax.yaml", "patterns:\n  - id: [unclosed\n");
  LoadReport report;
  EXPECT_EQ(LoadCatalog({{path, CatalogSource::Layer::kBuiltin}}, &report), nullptr);
  ASSERT_EQ(report.error_count(), 1);
  EXPECT_EQ(report.diagnostics()[0].where.file, path);
  EXPECT_EQ(report.diagnostics()[0].where.line, 3);
}

TEST(CatalogLoaderTest, UserEntriesOverrideBuiltinOnesAndSaySo) {
  TempDir builtin;
  TempDir user;
  builtin.Write("a.yaml", kGoodPattern);
  std::string override_text = kGoodPattern;
  override_text.replace(override_text.find("title: Scroll limit"), 19, "title: Our own scroll");
  user.Write("mine.yaml", override_text.substr(0, override_text.find("rules:")));
  LoadReport report;
  auto catalog = LoadCatalog({{builtin.path(), CatalogSource::Layer::kBuiltin},
                              {user.path(), CatalogSource::Layer::kUser}},
                             &report);
  ASSERT_NE(catalog, nullptr) << ::testing::PrintToString(Messages(report));
  ASSERT_EQ(catalog->patterns().size(), 1u);
  EXPECT_EQ(catalog->patterns()[0].title, "Our own scroll");
  EXPECT_EQ(catalog->patterns()[0].overrides, builtin.path() + "/a.yaml:2");
  ASSERT_EQ(report.diagnostics().size(), 1u);
  EXPECT_EQ(report.diagnostics()[0].kind, Diagnostic::Kind::kNote);
}

// A warning-or-above pattern no rule uses alerts on its own; one a rule uses, or an info or
// recovery pattern, does not.
TEST(CatalogLoaderTest, UnusedWarningPatternsGetAnImplicitSingleRule) {
  TempDir dir;
  std::string text = kGoodPattern;
  text.replace(text.find("rules:"), std::string::npos, "");
  text += R"(  - id: test.unused
    title: Disk on fire
    category: disk
    severity: critical
    regex: 'on fire'
    predicts: smoke
    runbook: call the fire brigade
    examples: {match: ['on fire'], no_match: ['cold']}
  - id: test.quiet
    title: Mere info
    category: disk
    severity: info
    regex: 'info'
    examples: {match: ['info'], no_match: ['x']}
  - id: test.cooled
    title: Fire out
    category: disk
    severity: info
    marker: recovery
    resolves: [test.unused]
    regex: 'fire out'
    examples: {match: ['fire out'], no_match: ['x']}
rules:
  - id: test.scroll_rule
    name: Scroll
    category: search
    pattern: test.scroll
    message: 'limit {limit} on {node}'
)";
  LoadReport report;
  auto catalog = LoadCatalog({{dir.Write("c.yaml", text), CatalogSource::Layer::kBuiltin}}, &report);
  ASSERT_NE(catalog, nullptr) << ::testing::PrintToString(Messages(report));
  ASSERT_EQ(catalog->rules().size(), 2u);
  const Rule& implicit = catalog->rules()[1];
  EXPECT_EQ(implicit.id, "test.unused");
  EXPECT_TRUE(implicit.implicit);
  EXPECT_EQ(implicit.steps[0].severity, Severity::kCritical);
  EXPECT_EQ(implicit.steps[0].message, "Disk on fire on {node}. smoke");
  EXPECT_EQ(implicit.runbook, "call the fire brigade");
  EXPECT_EQ(catalog->patterns()[3].resolves, std::vector<std::string>{"test.unused"});
}

TEST(CatalogLoaderTest, OnlyRecoveryPatternsResolveAndOnlyKnownOnes) {
  TempDir dir;
  const std::string path = dir.Write("r.yaml", R"(patterns:
  - id: test.a
    title: a
    category: disk
    regex: 'a'
    resolves: [test.b]
    examples: {match: ['a'], no_match: ['x']}
  - id: test.c
    title: c
    category: disk
    marker: recovery
    resolves: [test.nothing]
    regex: 'c'
    examples: {match: ['c'], no_match: ['x']}
)");
  LoadReport report;
  EXPECT_EQ(LoadCatalog({{path, CatalogSource::Layer::kBuiltin}}, &report), nullptr);
  const auto messages = Messages(report);
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_NE(messages[0].find(":6:15: error: only a 'marker: recovery' pattern can resolve others"), std::string::npos)
      << messages[0];
  EXPECT_NE(messages[1].find(":2:5: error: pattern 'test.a' resolves unknown pattern 'test.b'"), std::string::npos);
  EXPECT_NE(messages[2].find(":8:5: error: pattern 'test.c' resolves unknown pattern 'test.nothing'"), std::string::npos);
}

TEST(CatalogLoaderTest, FieldsMustNameCapturesAndMissingPathsAreErrors) {
  TempDir dir;
  std::string text = kGoodPattern;
  text.replace(text.find("fields: {limit: integer}"), 24, "fields: {limt: integer}");
  LoadReport report;
  EXPECT_EQ(LoadCatalog({{dir.Write("f.yaml", text), CatalogSource::Layer::kBuiltin},
                         {dir.path() + "/absent.yaml", CatalogSource::Layer::kUser}},
                        &report),
            nullptr);
  const auto messages = Messages(report);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE(messages[0].find("field 'limt' is not a named capture of the regex"), std::string::npos);
  EXPECT_NE(messages[1].find("absent.yaml: error: no such file or folder"), std::string::npos);
}

// A placeholder the alert cannot fill is a catalog error naming file, line and what it
// could use; JSON braces in a runbook are plain text.
TEST(CatalogLoaderTest, UnknownPlaceholdersInMessagesAndRunbooksAreErrors) {
  TempDir dir;
  std::string text = kGoodPattern;
  text.replace(text.find("message: 'limit {limit} on {node}'"), 35, "message: 'limit {limt} on {node} of {cluster}'");
  text.replace(text.find("Clear scrolls."), 14, "Clear scrolls on {nod}: DELETE _search/scroll {\"scroll_id\": \"_all\"}");
  LoadReport report;
  EXPECT_EQ(LoadCatalog({{dir.Write("f.yaml", text), CatalogSource::Layer::kUser}}, &report), nullptr);
  const auto messages = Messages(report);
  ASSERT_EQ(messages.size(), 2u) << ::testing::PrintToString(messages);
  EXPECT_NE(messages[0].find("f.yaml:2:"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("the runbook of pattern 'test.scroll' uses unknown placeholder '{nod}' (it can use "
                             "cluster, count, limit, node)"),
            std::string::npos)
      << messages[0];
  EXPECT_NE(messages[1].find("f.yaml:14:"), std::string::npos) << messages[1];
  EXPECT_NE(messages[1].find("rule 'test.scroll_rule' message uses unknown placeholder '{limt}'"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
