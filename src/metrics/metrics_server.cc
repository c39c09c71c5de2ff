#include "metrics/metrics_server.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

namespace foreshock {
namespace {

using prometheus::BuildCounter;
using prometheus::BuildGauge;

std::string KeyOf(const void* family, const std::map<std::string, std::string>& labels) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(family));
  for (const auto& [name, value] : labels) key += "\x1f" + name + "=" + value;
  return key;
}

}  // namespace

MetricsServer::MetricsServer() : registry_(std::make_shared<prometheus::Registry>()) {
  prometheus::Registry& r = *registry_;
  lines_ = &BuildCounter().Name("foreshock_input_lines_total").Help("Lines read, per input").Register(r);
  bytes_ = &BuildCounter().Name("foreshock_input_bytes_total").Help("Bytes read, per input").Register(r);
  decode_failures_ = &BuildCounter()
                          .Name("foreshock_decode_failures_total")
                          .Help("Records that could not be decoded (kind: malformed or unreadable), per input")
                          .Register(r);
  truncated_ = &BuildCounter()
                    .Name("foreshock_truncated_lines_total")
                    .Help("Lines or records cut to --max-line-bytes or the record caps, per input")
                    .Register(r);
  hits_ = &BuildCounter().Name("foreshock_pattern_hits_total").Help("Lines matching each pattern").Register(r);
  alerts_ = &BuildCounter().Name("foreshock_alerts_total").Help("Alerts emitted, per rule, severity and action").Register(r);
  delivered_ = &BuildCounter().Name("foreshock_delivery_delivered_total").Help("Alerts delivered, per destination").Register(r);
  retries_ = &BuildCounter().Name("foreshock_delivery_retries_total").Help("Failed delivery attempts, per destination").Register(r);
  rejected_ = &BuildCounter()
                   .Name("foreshock_delivery_rejected_total")
                   .Help("Alerts a receiver refused for good (set aside in rejected.jsonl), per destination")
                   .Register(r);
  dropped_ = &BuildCounter()
                  .Name("foreshock_spool_dropped_total")
                  .Help("Alerts dropped because the spool hit its size bound, per destination")
                  .Register(r);
  queue_depth_ = &BuildGauge().Name("foreshock_delivery_queue_depth").Help("Alerts waiting, per destination").Register(r);
  spool_bytes_ = &BuildGauge().Name("foreshock_spool_bytes").Help("Bytes of alerts spooled, per destination").Register(r);
  unspooled_ = &BuildGauge()
                    .Name("foreshock_spool_unwritten_alerts")
                    .Help("Alerts held in memory because the spool could not be written (reading waits), per "
                          "destination")
                    .Register(r);
  failing_ = &BuildGauge()
                  .Name("foreshock_delivery_failing_seconds")
                  .Help("How long a destination has been failing (0 when fine)")
                  .Register(r);
  files_ = &BuildGauge().Name("foreshock_files_followed").Help("Log files followed by watch").Register(r);
  rotations_ = &BuildCounter().Name("foreshock_rotations_total").Help("Log file rotations followed").Register(r);
  truncations_ = &BuildCounter().Name("foreshock_truncations_total").Help("Copytruncate rotations seen").Register(r);
  rotations_lost_ = &BuildCounter()
                         .Name("foreshock_rotations_lost_total")
                         .Help("Rotated files that were gone before they could be finished")
                         .Register(r);
  evictions_ = &BuildCounter()
                    .Name("foreshock_correlation_evictions_total")
                    .Help("Correlation windows dropped to stay within the memory bound")
                    .Register(r);
  late_ = &BuildCounter()
               .Name("foreshock_late_records_total")
               .Help("Hit records older than what was already correlated")
               .Register(r);
  clock_anomalies_ = &BuildCounter()
                         .Name("foreshock_clock_anomalies_total")
                         .Help("Records whose stamp their node's clock refuted (a jump no later record "
                               "confirmed): correlated at the node's time instead")
                         .Register(r);
  lag_ = &BuildGauge().Name("foreshock_lag_seconds").Help("Wall clock minus the newest event time seen").Register(r);
}

MetricsServer::~MetricsServer() = default;

Result<std::unique_ptr<MetricsServer>> MetricsServer::Start(const std::string& address, const std::string& version) {
  std::unique_ptr<MetricsServer> server(new MetricsServer());
  BuildGauge()
      .Name("foreshock_build_info")
      .Help("foreshock's version")
      .Register(*server->registry_)
      .Add({{"version", version}})
      .Set(1);
  auto endpoint = HttpEndpoint::Start(address, server->registry_);
  if (!endpoint.ok()) return endpoint.status();
  server->endpoint_ = std::move(endpoint).value();
  return server;
}

void MetricsServer::Advance(prometheus::Family<prometheus::Counter>& family,
                            const std::map<std::string, std::string>& labels, uint64_t value) {
  uint64_t& published = published_[KeyOf(&family, labels)];
  prometheus::Counter& counter = family.Add(labels);
  if (value > published) counter.Increment(static_cast<double>(value - published));
  published = std::max(published, value);
}

void MetricsServer::Publish(const TelemetrySnapshot& s) {
  for (const auto& [input, c] : s.inputs) {
    Advance(*lines_, {{"input", input}}, c.lines);
    Advance(*bytes_, {{"input", input}}, c.bytes);
    Advance(*decode_failures_, {{"input", input}, {"kind", "malformed"}}, c.malformed);
    Advance(*decode_failures_, {{"input", input}, {"kind", "unreadable"}}, c.unreadable);
    Advance(*truncated_, {{"input", input}}, c.truncated);
  }
  for (const auto& [pattern, count] : s.pattern_hits) Advance(*hits_, {{"pattern", pattern}}, count);
  for (const auto& [key, count] : s.alerts) {
    const auto& [rule, severity, action] = key;
    Advance(*alerts_, {{"rule", rule}, {"severity", severity}, {"action", action}}, count);
  }
  const auto now = std::chrono::system_clock::now();
  for (const auto& [name, d] : s.outputs) {
    const std::map<std::string, std::string> labels = {{"destination", name}};
    Advance(*delivered_, labels, d.delivered);
    Advance(*retries_, labels, d.retries);
    Advance(*rejected_, labels, d.rejected);
    Advance(*dropped_, labels, d.dropped);
    queue_depth_->Add(labels).Set(static_cast<double>(d.depth));
    spool_bytes_->Add(labels).Set(static_cast<double>(d.spool_bytes));
    unspooled_->Add(labels).Set(static_cast<double>(d.unspooled));
    const bool failing = d.failing_since != std::chrono::system_clock::time_point{};
    failing_->Add(labels).Set(failing ? std::chrono::duration<double>(now - d.failing_since).count() : 0.0);
  }
  files_->Add({}).Set(static_cast<double>(s.files_followed));
  Advance(*rotations_, {}, s.rotations);
  Advance(*truncations_, {}, s.truncations);
  Advance(*rotations_lost_, {}, s.rotations_lost);
  Advance(*evictions_, {}, s.windows_evicted);
  Advance(*late_, {}, s.late_records);
  Advance(*clock_anomalies_, {}, s.clock_anomalies);
  if (s.newest_event != TimePoint{}) {
    lag_->Add({}).Set(std::chrono::duration<double>(now - s.newest_event).count());
  }
  endpoint_->Heartbeat(WhyNotReady(s));
}

std::string WhyNotReady(const TelemetrySnapshot& snapshot) {
  std::string why;
  if (snapshot.inputs.empty() && snapshot.files_followed == 0) why = "no input open yet";
  for (const auto& [name, delivery] : snapshot.outputs) {
    if (delivery.failing_since == std::chrono::system_clock::time_point{}) continue;
    why += (why.empty() ? "" : "; ") + name + " is failing";
  }
  return why;
}

}  // namespace foreshock
