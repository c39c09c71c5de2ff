#include "sink/alert_json.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(AlertJsonTest, WritesTheDocumentedSchemaWithSortedKeys) {
  Rule rule;
  rule.id = "es.chain.scroll_leak";
  rule.name = "Scroll-context leak";
  rule.category = "search";
  const TimePoint t = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29) + std::chrono::hours(3) +
                      std::chrono::minutes(13) + std::chrono::milliseconds(2117);
  Alert alert;
  alert.action = Alert::Action::kEscalated;
  alert.time = t;
  alert.rule = &rule;
  alert.severity = Severity::kCritical;
  alert.stage = 3;
  alert.message = "breaker on node-2";
  alert.node = "node-2";
  alert.cluster = "prod";
  alert.fingerprint = "00ff";
  alert.count = 7;
  alert.first_seen = t - std::chrono::minutes(19);
  alert.window_start = alert.first_seen;
  alert.window_end = t;
  alert.group = {{"node", "node-2"}};
  alert.fields["max_scroll_contexts"] = Capture{"max_scroll_contexts", "500", 500.0};
  alert.fields["breaker_limit"] = Capture{"breaker_limit", "17072495001/15.9gb", 17072495001.0};
  alert.fields["gc_spent"] = Capture{"gc_spent", "4.1s", 4.1};
  alert.fields["label"] = Capture{"label", "<http_request>", std::nullopt};
  alert.evidence.push_back({t, "es.breaker.parent", "node-2.json:834", "Data too large", "node-2", true});
  alert.observer = "node-2";
  alert.lead_time = std::chrono::milliseconds(1130635);
  alert.runbook = "clear scrolls";
  EXPECT_EQ(AlertToJson(alert).dump(),
            R"({"@timestamp":"2026-11-29T03:13:02.117Z",)"
            R"("elasticsearch":{"cluster":{"name":"prod"},"node":{"name":"node-2"}},)"
            R"("event":{"action":"escalated","kind":"alert","severity":3},)"
            R"("foreshock":{"count":7,"evidence":[{"@timestamp":"2026-11-29T03:13:02.117Z",)"
            R"("message":"Data too large","observer":"node-2","pattern":"es.breaker.parent","source":"node-2.json:834"}],)"
            R"("fields":{"breaker_limit":17072495001,"gc_spent":4.1,"label":"<http_request>",)"
            R"("max_scroll_contexts":500},"fingerprint":"00ff","first_seen":"2026-11-29T02:54:02.117Z",)"
            R"("group":{"node":"node-2"},"lead_time_s":1130.635,"observer":"node-2","runbook":"clear scrolls","stage":3,)"
            R"("window":{"end":"2026-11-29T03:13:02.117Z","start":"2026-11-29T02:54:02.117Z"}},)"
            R"("log":{"level":"critical"},"message":"breaker on node-2",)"
            R"("rule":{"category":"search","id":"es.chain.scroll_leak","name":"Scroll-context leak","origin":"curated"}})");
}

TEST(AlertJsonTest, LeavesOutWhatIsNotKnown) {
  Rule rule;
  rule.id = "r";
  Alert alert;
  alert.rule = &rule;
  const nlohmann::json json = AlertToJson(alert);
  EXPECT_FALSE(json.contains("elasticsearch"));
  EXPECT_FALSE(json["foreshock"].contains("lead_time_s"));
  EXPECT_TRUE(json["foreshock"]["group"].is_object());
}

}  // namespace
}  // namespace foreshock
