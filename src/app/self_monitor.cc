#include "app/self_monitor.h"

#include <functional>

#include "base/host_name.h"

namespace foreshock::app {
namespace {

Rule MakeRule(std::string id, std::string name, Severity severity, std::string runbook) {
  Rule rule;
  rule.id = std::move(id);
  rule.name = std::move(name);
  rule.category = "foreshock";
  rule.steps.push_back(RuleStep{{}, severity, "", 1});
  rule.runbook = std::move(runbook);
  return rule;
}

TimePoint WallNow() { return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now()); }

}  // namespace

SelfMonitor::SelfMonitor(Duration failing_bound, Duration quiet)
    : failing_bound_(failing_bound),
      quiet_(quiet),
      delivery_failing_(MakeRule("foreshock.delivery_failing", "Alert destination failing", Severity::kCritical,
                                 "Alerts to this destination are spooled and retried, not lost. Check that the "
                                 "receiver is up and reachable from this host (the error is in the message), and "
                                 "watch foreshock_spool_bytes: at the spool bound the oldest non-critical alerts "
                                 "are dropped.")),
      data_lost_(MakeRule("foreshock.data_lost", "Log data lost before foreshock read it", Severity::kWarning,
                          "A rotated log file was gone (deleted or compressed) before foreshock finished "
                          "it, typically while foreshock was stopped. Precursors in the lost part were not seen: "
                          "check the node's logs by hand for that period, and keep more rotated files.")),
      window_evicted_(MakeRule("foreshock.window_evicted", "Correlation windows evicted", Severity::kWarning,
                               "foreshock dropped correlation state to stay within its memory bound: some "
                               "threshold or sequence rules may fire late or not at all. Look for a group_by "
                               "field with unbounded values (e.g. per-index rules on many indices).")) {}

Alert SelfMonitor::Make(const Rule& rule, Alert::Action action, const std::string& subject, const std::string& message,
                        const Open& open, TimePoint now) const {
  Alert alert;
  alert.action = action;
  alert.time = now;
  alert.rule = &rule;
  alert.severity = rule.steps.front().severity;
  alert.message = message;
  alert.node = HostName();
  alert.fingerprint = std::to_string(std::hash<std::string>{}(rule.id + "\x1f" + subject + "\x1f" + alert.node));
  alert.count = open.count;
  alert.first_seen = open.since;
  alert.window_start = open.since;
  alert.window_end = now;
  if (!subject.empty()) alert.group.emplace_back("destination", subject);
  alert.runbook = rule.runbook;
  return alert;
}

void SelfMonitor::Track(const Rule& rule, Open* open, bool grew, const std::string& message, TimePoint now,
                        std::vector<Alert>* alerts) {
  if (grew) {
    if (!open->firing) {
      *open = Open{true, now, now, 0};
    }
    ++open->count;
    open->last = now;
    alerts->push_back(Make(rule, open->count == 1 ? Alert::Action::kFiring : Alert::Action::kEscalated, "", message,
                           *open, now));
    return;
  }
  if (open->firing && now - open->last >= quiet_) {
    open->firing = false;
    alerts->push_back(Make(rule, Alert::Action::kResolved, "", "no new " + rule.name + " for " + FormatDuration(quiet_),
                           *open, now));
  }
}

void SelfMonitor::Check(const TelemetrySnapshot& snapshot, std::vector<Alert>* alerts) {
  const TimePoint now = WallNow();
  for (const auto& [name, stats] : snapshot.outputs) {
    Open& open = failing_[name];
    const bool failing = stats.failing_since != std::chrono::system_clock::time_point{};
    const auto failing_for = std::chrono::system_clock::now() - stats.failing_since;
    if (failing && !open.firing && failing_for >= failing_bound_) {
      open = Open{true, std::chrono::time_point_cast<Duration>(stats.failing_since), now, 1};
      alerts->push_back(Make(delivery_failing_, Alert::Action::kFiring, name,
                             name + " has been failing for " +
                                 FormatDuration(std::chrono::duration_cast<Duration>(failing_for)) + ", " +
                                 std::to_string(stats.depth) + " alerts waiting: " + stats.last_error,
                             open, now));
    } else if (!failing && open.firing) {
      open.firing = false;
      alerts->push_back(Make(delivery_failing_, Alert::Action::kResolved, name, name + " delivers again", open, now));
    }
  }
  const bool lost = snapshot.rotations_lost > last_lost_;
  Track(data_lost_, &data_lost_open_, lost,
        std::to_string(snapshot.rotations_lost - last_lost_) + " rotated file(s) gone before foreshock finished them",
        now, alerts);
  const bool evicted = snapshot.windows_evicted > last_evicted_;
  Track(window_evicted_, &evicted_open_, evicted,
        std::to_string(snapshot.windows_evicted - last_evicted_) + " correlation window(s) evicted", now, alerts);
  last_lost_ = snapshot.rotations_lost;
  last_evicted_ = snapshot.windows_evicted;
}

}  // namespace foreshock::app
