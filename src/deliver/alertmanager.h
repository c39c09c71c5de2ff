#pragma once

// AlertmanagerDestination posts alerts to Prometheus Alertmanager's API (`POST
// /api/v2/alerts`). Labels: alertname (the rule id), severity, category, cluster, node,
// the group's own fields, and fingerprint; annotations: summary, description, runbook;
// startsAt is the alert's first hit, endsAt its resolution, generatorURL the log file it
// was found in. Alertmanager forgets alerts that are not repeated, so the ones still firing
// are re-sent every refresh interval with endsAt a few intervals ahead; that set is kept in
// `active_file` (when given) so a restart of foreshock goes on reminding a restarted
// Alertmanager.

#include <map>
#include <string>

#include "deliver/destination.h"
#include "deliver/http_client.h"

namespace foreshock {

struct AlertmanagerOptions {
  std::string url;  // the base URL; /api/v2/alerts is appended unless already there
  HttpOptions http;
  Duration resend = std::chrono::minutes(1);
  std::string active_file;  // empty: not kept across restarts
};

// The Alertmanager alert for one alert of the schema; `ends_at` is used while firing.
nlohmann::json ToAlertmanager(const nlohmann::json& alert, TimePoint ends_at);

class AlertmanagerDestination final : public Destination {
 public:
  explicit AlertmanagerDestination(AlertmanagerOptions options);

  std::string_view name() const override { return name_; }
  SendResult Send(const nlohmann::json& alert) override;
  Duration refresh_interval() const override { return options_.resend; }
  SendResult Refresh() override;

 private:
  SendResult Post(const nlohmann::json& alerts);
  void SaveActive() const;

  AlertmanagerOptions options_;
  std::string name_;
  std::string endpoint_;
  HttpClient http_;
  std::map<std::string, nlohmann::json> active_;  // fingerprint -> the schema's alert
};

}  // namespace foreshock
