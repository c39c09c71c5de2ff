#pragma once

// MetricsServer serves foreshock's own metrics in the Prometheus exposition format
// (`--metrics-listen 127.0.0.1:9745`, GET /metrics), with prometheus-cpp, and the
// /healthz and /ready probes (http_endpoint.h), readiness judged by WhyNotReady(). The pipeline
// never touches it on its hot path: the app publishes a TelemetrySnapshot about once a
// second and counters advance by the difference. Families: foreshock_input_lines_total,
// _bytes_total, _decode_failures_total, _truncated_lines_total (per input),
// foreshock_pattern_hits_total (per pattern), foreshock_alerts_total (per rule, severity,
// action), foreshock_delivery_* (per destination: delivered, retries, rejected, dropped,
// queue depth, spool bytes, failing), foreshock_files_followed, foreshock_rotations_total,
// foreshock_truncations_total, foreshock_rotations_lost_total,
// foreshock_correlation_evictions_total, foreshock_lag_seconds, foreshock_build_info.

#include <map>
#include <memory>
#include <string>

#include "base/result.h"
#include "metrics/http_endpoint.h"
#include "metrics/snapshot.h"

namespace prometheus {
class Registry;
class Counter;
class Gauge;
template <typename T>
class Family;
}  // namespace prometheus

namespace foreshock {

// Why foreshock is not ready for traffic (/ready): no input open yet, an output failing;
// empty when it is.
std::string WhyNotReady(const TelemetrySnapshot& snapshot);

class MetricsServer {
 public:
  // Listens on `address` ("127.0.0.1:9745", "[::1]:9745"); fails when it cannot bind.
  static Result<std::unique_ptr<MetricsServer>> Start(const std::string& address, const std::string& version);
  ~MetricsServer();

  void Publish(const TelemetrySnapshot& snapshot);

 private:
  MetricsServer();
  // Advances the counter for `labels` in `family` to `value`.
  void Advance(prometheus::Family<prometheus::Counter>& family, const std::map<std::string, std::string>& labels,
               uint64_t value);

  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<HttpEndpoint> endpoint_;  // after registry_: it serves it
  std::map<std::string, uint64_t> published_;  // last value per counter, by family and labels
  prometheus::Family<prometheus::Counter>* lines_;
  prometheus::Family<prometheus::Counter>* bytes_;
  prometheus::Family<prometheus::Counter>* decode_failures_;
  prometheus::Family<prometheus::Counter>* truncated_;
  prometheus::Family<prometheus::Counter>* hits_;
  prometheus::Family<prometheus::Counter>* alerts_;
  prometheus::Family<prometheus::Counter>* delivered_;
  prometheus::Family<prometheus::Counter>* retries_;
  prometheus::Family<prometheus::Counter>* rejected_;
  prometheus::Family<prometheus::Counter>* dropped_;
  prometheus::Family<prometheus::Gauge>* queue_depth_;
  prometheus::Family<prometheus::Gauge>* spool_bytes_;
  prometheus::Family<prometheus::Gauge>* unspooled_;
  prometheus::Family<prometheus::Gauge>* failing_;
  prometheus::Family<prometheus::Gauge>* files_;
  prometheus::Family<prometheus::Counter>* rotations_;
  prometheus::Family<prometheus::Counter>* truncations_;
  prometheus::Family<prometheus::Counter>* rotations_lost_;
  prometheus::Family<prometheus::Counter>* evictions_;
  prometheus::Family<prometheus::Counter>* late_;
  prometheus::Family<prometheus::Counter>* clock_anomalies_;
  prometheus::Family<prometheus::Gauge>* lag_;
};

}  // namespace foreshock
