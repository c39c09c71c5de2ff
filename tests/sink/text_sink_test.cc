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

TEST(TextSinkTest, TheGroupAndWithVerboseTheEvidenceAndRunbook) {
  Rule rule;
  rule.id = "es.threadpool.rejection_storm";
  Alert alert;
  alert.rule = &rule;
  alert.action = Alert::Action::kFiring;
  alert.severity = Severity::kWarning;
  alert.time = TimePoint(std::chrono::seconds(1795921982));
  alert.node = "es-data-1";
  alert.group = {{"node", "es-data-1"}, {"pool", "search"}};
  alert.message = "rejections";
  alert.evidence.push_back({TimePoint(std::chrono::seconds(1795921980)), "es.threadpool.rejected", "es.log:12",
                            "rejected execution\n\tat org.Foo\x1b[2J", "es-data-1"});
  alert.runbook = "1. GET _cat/thread_pool\n2. slow the clients";
  EXPECT_EQ(FormatAlertText(alert, false),
            "2026-11-29T03:13:02.000Z WARNING  firing    es.threadpool.rejection_storm [es-data-1] {pool=search} "
            "rejections\n");
  EXPECT_EQ(FormatAlertText(alert, false, /*verbose=*/true),
            "2026-11-29T03:13:02.000Z WARNING  firing    es.threadpool.rejection_storm [es-data-1] {pool=search} "
            "rejections\n"
            "    evidence 2026-11-29T03:13:00.000Z es.log:12 [es.threadpool.rejected] rejected execution\n"
            "    runbook  1. GET _cat/thread_pool\n"
            "             2. slow the clients\n");
  alert.action = Alert::Action::kResolved;
  EXPECT_EQ(FormatAlertText(alert, false, true).find("evidence"), std::string::npos) << "a resolution is one line";
}

}  // namespace
}  // namespace foreshock
