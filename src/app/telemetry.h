#pragma once

// Telemetry is the once-a-second look foreshock takes at itself: it gathers a
// TelemetrySnapshot from the pipeline, the inputs and the outputs, publishes it to the
// metrics endpoint (when --metrics-listen is set) and lets the SelfMonitor turn trouble into
// `foreshock` alerts, which go out through the pipeline like any other.

#include <functional>
#include <memory>

#include "app/outputs.h"
#include "app/pipeline.h"
#include "app/self_monitor.h"
#include "metrics/metrics_server.h"

namespace foreshock::app {

// Adds what the pipeline counted (hits, alerts, evictions, newest event time).
void AddPipelineCounters(const Pipeline& pipeline, TelemetrySnapshot* snapshot);
// Adds one input's counters under `name`.
void AddInputCounters(const std::string& name, const InputStats& stats, TelemetrySnapshot* snapshot);

class Telemetry {
 public:
  // Starts the metrics endpoint when options.metrics_listen is set.
  static Result<std::unique_ptr<Telemetry>> Start(const OutputOptions& options);

  // Publishes `snapshot` and emits the alerts it calls for through `pipeline`.
  Status Report(const TelemetrySnapshot& snapshot, Pipeline* pipeline);
  // For `watch`: its state goes with the checkpoints.
  SelfMonitor& monitor() { return monitor_; }

 private:
  Telemetry(std::unique_ptr<MetricsServer> server, Duration failing_bound)
      : server_(std::move(server)), monitor_(failing_bound, std::chrono::minutes(10)) {}

  std::unique_ptr<MetricsServer> server_;
  SelfMonitor monitor_;
  std::vector<Alert> alerts_;
};

}  // namespace foreshock::app
