#include "base/nearest_names.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

const std::vector<std::string> kRules = {"es.chain.scroll_leak", "es.breaker.parent", "es.breaker.request",
                                         "es.disk.flood_stage", "es.node.silent_after_errors"};

TEST(NearestNamesTest, ATypoFindsTheNameItMeant) {
  EXPECT_EQ(NearestNames("es.braker.parent", kRules), (std::vector<std::string>{"es.breaker.parent"}));
  EXPECT_EQ(DidYouMean("es.chain.scrol_leak", kRules), " (did you mean es.chain.scroll_leak?)");
}

TEST(NearestNamesTest, APartOfTheNameListsEveryNameHoldingIt) {
  EXPECT_EQ(NearestNames("breaker", kRules), (std::vector<std::string>{"es.breaker.parent", "es.breaker.request"}));
  EXPECT_EQ(DidYouMean("breaker", kRules), " (did you mean es.breaker.parent or es.breaker.request?)");
}

TEST(NearestNamesTest, NothingNearSaysNothing) {
  EXPECT_TRUE(NearestNames("kafka.lag", kRules).empty());
  EXPECT_EQ(DidYouMean("kafka.lag", kRules), "");
  const std::vector<std::string> nodes = {"order-events-node-1", "order-events-node-2", "order-events-node-3"};
  EXPECT_EQ(NearestNames("node-2", nodes), (std::vector<std::string>{"order-events-node-2"}))
      << "a short name typed for a longer node name";
  EXPECT_EQ(NearestNames("order-events-node-4", nodes), nodes) << "one character off each";
}

}  // namespace
}  // namespace foreshock
