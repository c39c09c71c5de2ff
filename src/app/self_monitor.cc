#include "app/self_monitor.h"

#include <algorithm>

#include "base/counted.h"
#include "base/host_name.h"
#include "correlate/alert_text.h"

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
      spool_unwritable_(MakeRule("foreshock.spool_unwritable", "Alert spool cannot be written", Severity::kCritical,
                                 "foreshock could not write alerts to this destination's spool under --state-dir "
                                 "(the error is in the message: usually a full disk, or a read-only one). They are "
                                 "held in memory, and foreshock reads no further and saves no position until they "
                                 "are written, so nothing is lost, but detection waits: free space there.")),
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
  alert.fingerprint = Fingerprint(rule.id, subject + "\x1f" + alert.node);  // the same in every run
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
      *open = Open{true, now, now, 0, false};
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
    if (open.restored) {
      // Firing when the previous run stopped: resolved by a delivery, not by the quiet of a
      // queue that has had nothing to send yet.
      if (stats.delivered > 0) {
        open.firing = open.restored = false;
        alerts->push_back(Make(delivery_failing_, Alert::Action::kResolved, name, name + " delivers again", open, now));
      }
      continue;
    }
    if (failing && !open.firing && failing_for >= failing_bound_) {
      open = Open{true, std::chrono::time_point_cast<Duration>(stats.failing_since), now, 1, false};
      alerts->push_back(Make(delivery_failing_, Alert::Action::kFiring, name,
                             name + " has been failing for " +
                                 FormatDuration(std::chrono::duration_cast<Duration>(failing_for)) + ", " +
                                 Counted(stats.depth, "alert", "alerts") + " waiting: " + stats.last_error,
                             open, now));
    } else if (!failing && open.firing) {
      open.firing = false;
      alerts->push_back(Make(delivery_failing_, Alert::Action::kResolved, name, name + " delivers again", open, now));
    }
  }
  for (const auto& [name, stats] : snapshot.outputs) {
    Open& open = unwritable_[name];
    if (stats.unspooled > 0 && !open.firing) {
      open = Open{true, now, now, 1, false};
      alerts->push_back(Make(spool_unwritable_, Alert::Action::kFiring, name,
                             Counted(stats.unspooled, "alert", "alerts") + " for " + name +
                                 " could not be written to its spool (" + stats.spool_error +
                                 "); reading waits until they are",
                             open, now));
    } else if (stats.unspooled == 0 && open.firing) {
      open.firing = false;
      alerts->push_back(Make(spool_unwritable_, Alert::Action::kResolved, name,
                             "the spool of " + name + " is written again", open, now));
    }
  }
  const uint64_t rotations_lost =
      (saved_lost_ ? std::min(snapshot.rotations_lost, *saved_lost_) : snapshot.rotations_lost) + carried_lost_;
  const bool lost = rotations_lost > last_lost_;
  Track(data_lost_, &data_lost_open_, lost,
        std::to_string(rotations_lost - last_lost_) + " rotated file(s) gone before foreshock finished them", now,
        alerts);
  const bool evicted = snapshot.windows_evicted > last_evicted_;
  Track(window_evicted_, &evicted_open_, evicted,
        std::to_string(snapshot.windows_evicted - last_evicted_) + " correlation window(s) evicted", now, alerts);
  last_lost_ = rotations_lost;
  last_evicted_ = snapshot.windows_evicted;
}

namespace {

nlohmann::json OpenToJson(const std::string& subject, TimePoint since, TimePoint last, int count) {
  return {{"subject", subject},
          {"since", since.time_since_epoch().count()},
          {"last", last.time_since_epoch().count()},
          {"count", count}};
}

}  // namespace

nlohmann::json SelfMonitor::SaveState(uint64_t rotations_lost) const {
  nlohmann::json open = nlohmann::json::array();
  auto add = [&](const Rule& rule, const std::string& subject, const Open& o) {
    if (!o.firing) return;
    nlohmann::json entry = OpenToJson(subject, o.since, o.last, o.count);
    entry["rule"] = rule.id;
    open.push_back(std::move(entry));
  };
  for (const auto& [name, o] : failing_) add(delivery_failing_, name, o);
  for (const auto& [name, o] : unwritable_) add(spool_unwritable_, name, o);
  add(data_lost_, "", data_lost_open_);
  add(window_evicted_, "", evicted_open_);
  const uint64_t total = rotations_lost + carried_lost_;
  return {{"open", std::move(open)}, {"lost_unreported", total - std::min(last_lost_, total)}};
}

void SelfMonitor::RestoreState(const nlohmann::json& saved) {
  carried_lost_ = saved.at("lost_unreported").get<uint64_t>();
  for (const nlohmann::json& entry : saved.at("open")) {
    const Open o{true, TimePoint(Duration(entry.at("since").get<int64_t>())),
                 TimePoint(Duration(entry.at("last").get<int64_t>())), entry.at("count").get<int>(), true};
    const std::string rule = entry.at("rule").get<std::string>();
    const std::string subject = entry.at("subject").get<std::string>();
    if (rule == delivery_failing_.id) failing_[subject] = o;
    if (rule == spool_unwritable_.id) unwritable_[subject] = o;
    if (rule == data_lost_.id) data_lost_open_ = o;
    if (rule == window_evicted_.id) evicted_open_ = o;
  }
}

}  // namespace foreshock::app
