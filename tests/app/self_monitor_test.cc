// SelfMonitor: foreshock's own trouble becomes alerts of category `foreshock`.

#include "app/self_monitor.h"

#include <gtest/gtest.h>

namespace foreshock::app {
namespace {

std::vector<std::string> Summaries(const std::vector<Alert>& alerts) {
  std::vector<std::string> out;
  for (const Alert& alert : alerts) {
    out.push_back(std::string(ActionName(alert.action)) + " " + alert.rule->id + " " + alert.rule->category + " " +
                  std::string(SeverityName(alert.severity)));
  }
  return out;
}

TEST(SelfMonitorTest, ADestinationFailingLongerThanTheBoundFiresOnceAndResolvesWhenItDelivers) {
  SelfMonitor monitor(std::chrono::seconds(60), std::chrono::minutes(10));
  TelemetrySnapshot snapshot;
  DeliveryStats& stats = snapshot.outputs["webhook:http://hooks"];
  stats.failing_since = std::chrono::system_clock::now() - std::chrono::seconds(30);
  stats.last_error = "connection refused";
  std::vector<Alert> alerts;
  monitor.Check(snapshot, &alerts);
  EXPECT_TRUE(alerts.empty()) << "30 s of failure is within the bound";
  stats.failing_since = std::chrono::system_clock::now() - std::chrono::seconds(90);
  monitor.Check(snapshot, &alerts);
  monitor.Check(snapshot, &alerts);
  ASSERT_EQ(Summaries(alerts), std::vector<std::string>{"firing foreshock.delivery_failing foreshock critical"});
  EXPECT_NE(alerts[0].message.find("connection refused"), std::string::npos) << alerts[0].message;
  EXPECT_EQ(alerts[0].group.at(0).second, "webhook:http://hooks");
  stats.failing_since = {};
  monitor.Check(snapshot, &alerts);
  ASSERT_EQ(alerts.size(), 2u);
  EXPECT_EQ(alerts[1].action, Alert::Action::kResolved);
  EXPECT_EQ(alerts[1].fingerprint, alerts[0].fingerprint);
}

TEST(SelfMonitorTest, LostRotationsAndEvictedWindowsFireAndResolveAfterAQuietPeriod) {
  SelfMonitor monitor(std::chrono::seconds(60), Duration(0));
  TelemetrySnapshot snapshot;
  std::vector<Alert> alerts;
  monitor.Check(snapshot, &alerts);
  EXPECT_TRUE(alerts.empty());
  snapshot.rotations_lost = 1;
  snapshot.windows_evicted = 5;
  monitor.Check(snapshot, &alerts);
  EXPECT_EQ(Summaries(alerts), (std::vector<std::string>{"firing foreshock.data_lost foreshock warning",
                                                         "firing foreshock.window_evicted foreshock warning"}));
  EXPECT_NE(alerts[1].message.find("5 correlation window(s)"), std::string::npos);
  alerts.clear();
  monitor.Check(snapshot, &alerts);  // nothing new, and the quiet period is zero
  EXPECT_EQ(Summaries(alerts), (std::vector<std::string>{"resolved foreshock.data_lost foreshock warning",
                                                         "resolved foreshock.window_evicted foreshock warning"}));
}

// A loss seen but not alerted on when the run was killed is alerted on by the next run; a
// destination failing when it stopped is not alerted on again, and resolves once it delivers.
TEST(SelfMonitorTest, WhatIsOpenAndALossNotYetAlertedOnSurviveARestart) {
  SelfMonitor before(std::chrono::seconds(1), std::chrono::minutes(10));
  TelemetrySnapshot failing;
  failing.outputs["webhook:http://hooks"].failing_since = std::chrono::system_clock::now() - std::chrono::seconds(5);
  std::vector<Alert> alerts;
  before.Check(failing, &alerts);
  ASSERT_EQ(Summaries(alerts), std::vector<std::string>{"firing foreshock.delivery_failing foreshock critical"});
  const std::string fingerprint = alerts[0].fingerprint;
  // A rotated file is found lost; the run is killed before its next look at itself.
  const nlohmann::json saved = nlohmann::json::parse(before.SaveState(/*rotations_lost=*/1).dump());

  SelfMonitor after(std::chrono::seconds(1), std::chrono::minutes(10));
  after.RestoreState(saved);
  alerts.clear();
  after.Check(failing, &alerts);
  EXPECT_EQ(Summaries(alerts), std::vector<std::string>{"firing foreshock.data_lost foreshock warning"})
      << "the loss is alerted on; the failing destination is not alerted on twice";
  alerts.clear();
  TelemetrySnapshot idle;  // a new run, nothing delivered yet: not proof that it works
  idle.outputs["webhook:http://hooks"];
  after.Check(idle, &alerts);
  EXPECT_TRUE(alerts.empty()) << Summaries(alerts).front();
  TelemetrySnapshot delivering;
  delivering.outputs["webhook:http://hooks"].delivered = 1;
  after.Check(delivering, &alerts);
  ASSERT_EQ(Summaries(alerts), std::vector<std::string>{"resolved foreshock.delivery_failing foreshock critical"});
  EXPECT_EQ(alerts[0].fingerprint, fingerprint) << "the same alert, resolved";
  EXPECT_EQ(after.SaveState(0)["lost_unreported"], 0);
}

}  // namespace
}  // namespace foreshock::app
