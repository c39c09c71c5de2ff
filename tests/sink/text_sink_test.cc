// TextSink: readable alert lines for terminals; nothing from a log line may reach the TTY as
// a control sequence.

#include "sink/text_sink.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(TextSinkTest, OneLineWithSeverityRuleNodeMessageAndLeadTime) {
  Rule rule;
  rule.id = "es.chain.scroll_leak";
  Alert alert;
  alert.rule = &rule;
  alert.action = Alert::Action::kEscalated;
  alert.severity = Severity::kCritical;
  alert.time = TimePoint(std::chrono::seconds(1795921982));
  alert.node = "node-2";
  alert.message = "breaker tripped\x1b[2J";
  alert.lead_time = std::chrono::seconds(1130);
  const std::string plain = FormatAlertText(alert, /*colour=*/false);
  EXPECT_EQ(plain, "2026-11-29T03:13:02.000Z CRITICAL escalated es.chain.scroll_leak [node-2] breaker "
                   "tripped\\x1b[2J (lead time 18m50s)\n");
  const std::string coloured = FormatAlertText(alert, /*colour=*/true);
  EXPECT_NE(coloured.find("\x1b[1;31mCRITICAL"), std::string::npos);
  EXPECT_EQ(coloured.find("\x1b[2J"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
