// End-to-end test of `foreshock match`, the fail2ban-regex of the catalog.

#include <gtest/gtest.h>

#include "testing/subprocess.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

TEST(MatchCommandTest, ShowsEachHitWithItsCapturesAndCountsPerPattern) {
  const std::string sample = std::string(testing::kSamplesDir) + "/formats/es-plain.log";
  const testing::ProcessResult result = testing::RunForeshock({"match", sample});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(sample + ":3  es.search.scroll_context_limit [warning] max_scroll_contexts=500 (500"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(":10  es.breaker.parent [critical] breaker_label=<http_request>"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("6 records, 3 matched"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("       1  es.search.scroll_context_limit"), std::string::npos);
}

TEST(MatchCommandTest, ReadsStdinAndUserCatalogs) {
  testing::ProcessOptions options;
  options.stdin_data = "[2026-11-29T02:54:11,123][WARN ][o.e.x.Y] [n1] the frobnicator is on fire\n";
  const testing::ProcessResult none = testing::RunForeshock({"match", "--summary-only"}, options);
  EXPECT_NE(none.out.find("1 records, 0 matched"), std::string::npos) << none.out;
}

}  // namespace
}  // namespace foreshock
