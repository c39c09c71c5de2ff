#include "deliver/redacted_url.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(RedactedUrlTest, KeepsSchemeHostAndPortAndHidesEverythingElse) {
  const std::string shown = RedactedUrl("https://user:pw@hooks.example.com:8443/T0/B1/XYZ?token=abc#frag");
  EXPECT_TRUE(shown.starts_with("https://hooks.example.com:8443/<redacted ")) << shown;
  for (const char* secret : {"user", "pw", "T0", "B1", "XYZ", "token", "abc", "frag"}) {
    EXPECT_EQ(shown.find(secret, 8), std::string::npos) << secret << " in " << shown;
  }
}

TEST(RedactedUrlTest, DifferentSecretsOnOneHostStayToldApart) {
  EXPECT_NE(RedactedUrl("https://hooks.slack.com/services/A"), RedactedUrl("https://hooks.slack.com/services/B"));
  EXPECT_EQ(RedactedUrl("https://hooks.slack.com/services/A"), RedactedUrl("https://hooks.slack.com/services/A"))
      << "the same URL is shown the same in every run, so logs and metrics of two runs line up";
}

TEST(RedactedUrlTest, AUrlWithNothingAfterTheHostIsShownAsItIs) {
  EXPECT_EQ(RedactedUrl("http://alertmanager:9093"), "http://alertmanager:9093");
  EXPECT_EQ(RedactedUrl("http://alertmanager:9093/"), "http://alertmanager:9093/");
  EXPECT_TRUE(RedactedUrl("http://admin:secret@alertmanager:9093").starts_with("http://alertmanager:9093/<redacted "));
  EXPECT_TRUE(RedactedUrl("http://alertmanager:9093?token=x").starts_with("http://alertmanager:9093/<redacted "));
}

TEST(RedactedUrlTest, TextThatIsNotAUrlIsHashedWhole) {
  const std::string shown = RedactedUrl("not a url with a secret");
  EXPECT_TRUE(shown.starts_with("<redacted ")) << shown;
  EXPECT_EQ(shown.find("secret"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
