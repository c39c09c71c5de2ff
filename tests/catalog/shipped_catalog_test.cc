// The shipped catalog in patterns/: it loads without errors, and every pattern's own
// examples behave, one test per pattern id so a failure names the precursor it breaks.

#include <gtest/gtest.h>

#include "app/catalog_examples.h"
#include "catalog/catalog_loader.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

const Catalog& Shipped() {
  static const std::unique_ptr<const Catalog> catalog = [] {
    LoadReport report;
    auto loaded = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
    for (const Diagnostic& d : report.diagnostics()) ADD_FAILURE() << d.ToString();
    return loaded;
  }();
  return *catalog;
}

TEST(ShippedCatalogTest, LoadsAndKnowsTheSeedIncident) {
  const Catalog& catalog = Shipped();
  for (const char* id : {"es.search.scroll_context_limit", "es.jvm.gc_overhead", "es.breaker.parent"}) {
    EXPECT_GE(catalog.FindPattern(id), 0) << id;
  }
  EXPECT_GE(catalog.FindRule("es.chain.scroll_leak"), 0);
  for (const Pattern& pattern : catalog.patterns()) {
    EXPECT_FALSE(pattern.runbook.empty()) << pattern.id << " has no runbook";
    EXPECT_FALSE(pattern.predicts.empty()) << pattern.id << " does not say what it predicts";
  }
}

// The shipped benign list (what the novelty detector never takes for news) covers each of its
// examples, and the learned patterns its rules count are all there.
TEST(ShippedCatalogTest, BenignEntriesCoverTheirExamplesAndTheNoveltyRulesAreLearned) {
  const Catalog& catalog = Shipped();
  ASSERT_GE(catalog.benign().size(), 2u);
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  const app::ExampleReport report = app::RunCatalogExamples(catalog, **matcher);
  for (const app::ExampleFailure& failure : report.failures) ADD_FAILURE() << failure.pattern_id << ": " << failure.reason;
  for (const char* id : {"foreshock.novel.exception", "foreshock.novel.template", "foreshock.novel.surge"}) {
    const int rule = catalog.FindRule(id);
    ASSERT_GE(rule, 0) << id;
    EXPECT_TRUE(catalog.rules()[static_cast<size_t>(rule)].learned) << id;
  }
  EXPECT_FALSE(catalog.rules()[static_cast<size_t>(catalog.FindRule("es.chain.scroll_leak"))].learned);
  // Learned patterns come after the curated ones: the matcher compiles only those.
  for (size_t p = 0; p < catalog.patterns().size(); ++p) {
    EXPECT_EQ(catalog.patterns()[p].learned, p >= catalog.matched_patterns()) << catalog.patterns()[p].id;
  }
}

class PatternExamplesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PatternExamplesTest, MatchesItsExamplesAndNotItsNearMisses) {
  const Catalog& catalog = Shipped();
  // Only this pattern: a one-pattern catalog keeps the failure message about it alone.
  const Pattern& pattern = catalog.patterns()[static_cast<size_t>(catalog.FindPattern(GetParam()))];
  const Catalog single({pattern}, {});
  auto matcher = Matcher::Create(single, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  const app::ExampleReport report = app::RunCatalogExamples(single, **matcher);
  EXPECT_GE(report.examples, 2);
  for (const app::ExampleFailure& failure : report.failures) {
    ADD_FAILURE() << failure.reason << ": " << failure.line;
  }
}

std::vector<std::string> PatternIds() {
  std::vector<std::string> ids;
  for (const Pattern& pattern : Shipped().patterns()) {
    if (!pattern.learned) ids.push_back(pattern.id);  // learned ones match no text
  }
  return ids;
}

INSTANTIATE_TEST_SUITE_P(Shipped, PatternExamplesTest, ::testing::ValuesIn(PatternIds()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name) c = (c == '.') ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace foreshock
