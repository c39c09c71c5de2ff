#include "app/telemetry.h"

namespace foreshock::app {

void AddPipelineCounters(const Pipeline& pipeline, TelemetrySnapshot* snapshot) {
  snapshot->pattern_hits = pipeline.pattern_hits();
  snapshot->alerts = pipeline.alert_counts();
  snapshot->windows_evicted = pipeline.correlator_stats().evicted;
  snapshot->late_records = pipeline.summary().late;
  snapshot->clock_anomalies = pipeline.summary().clock_anomalies;
  snapshot->newest_event = pipeline.newest_event();
}

void AddInputCounters(const std::string& name, const InputStats& stats, TelemetrySnapshot* snapshot) {
  InputCounters& counters = snapshot->inputs[name];
  counters.lines += stats.lines;
  counters.bytes += stats.bytes;
  counters.malformed += stats.malformed;
  counters.unreadable += stats.unreadable;
  counters.truncated += stats.truncated;
}

Result<std::unique_ptr<Telemetry>> Telemetry::Start(const OutputOptions& options) {
  const auto failing_bound = ParseDuration(options.failing_alert_after);
  if (!failing_bound) return Status::InvalidArgument("--failing-alert-after is a duration like 5m");
  std::unique_ptr<MetricsServer> server;
  if (!options.metrics_listen.empty()) {
    auto started = MetricsServer::Start(options.metrics_listen, FORESHOCK_VERSION);
    if (!started.ok()) return started.status();
    server = std::move(started).value();
  }
  return std::unique_ptr<Telemetry>(new Telemetry(std::move(server), *failing_bound));
}

Status Telemetry::Report(const TelemetrySnapshot& snapshot, Pipeline* pipeline) {
  if (server_ != nullptr) server_->Publish(snapshot);
  alerts_.clear();
  monitor_.Check(snapshot, &alerts_);
  return alerts_.empty() ? Status() : pipeline->EmitOwn(&alerts_);
}

}  // namespace foreshock::app
