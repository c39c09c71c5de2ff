#pragma once

// Outputs builds where alerts go from the repeatable `--output` option: `stdout` (JSON
// lines, the default), `stdout:text` (one readable line, coloured on a TTY),
// `file:PATH`, `alertmanager:URL`, `webhook:URL` and `exec:COMMAND`. The remote ones each
// get a DeliveryQueue with its own spool (under --state-dir when given, else in memory),
// so none of them can hold up the others or the reading of logs. All of them sit behind one
// FanOutSink, which the pipeline owns; Outputs keeps a view of them for SIGHUP (files are
// reopened), draining at exit and the delivery metrics, and must not outlive that sink.

#include <boost/program_options.hpp>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "deliver/delivery_queue.h"
#include "metrics/snapshot.h"
#include "sink/file_sink.h"
#include "sink/sink.h"

namespace foreshock::app {

struct OutputOptions {
  std::vector<std::string> outputs;
  std::string webhook_headers_file;
  std::string webhook_token_file;
  std::string webhook_token_env;
  std::string ca_file;
  std::string connect_timeout = "5s";
  std::string request_timeout = "15s";
  std::string exec_timeout = "30s";
  std::string alertmanager_resend = "1m";
  std::string retry_max = "30s";
  std::string failing_alert_after = "5m";
  size_t spool_max_mb = 64;
  std::string metrics_listen;
  bool verbose = false;  // stdout:text also shows each alert's evidence and runbook
  // The verb has --state-dir (watch): its messages point there. scan and replay keep alerts
  // for a destination that is down only until --drain-timeout ends the run.
  bool has_state_dir = false;
};

void AddOutputOptions(boost::program_options::options_description* description, OutputOptions* options);
// Whether alerts are written to standard output (the default, or an --output stdout*).
bool AlertsGoToStdout(const OutputOptions& options);

class Outputs {
 public:
  // `state_dir` empty: spools live in memory.
  static Result<std::unique_ptr<Outputs>> Build(const OutputOptions& options, const std::string& state_dir);

  // The fan-out of every output; call once and hand it to the pipeline.
  std::unique_ptr<Sink> TakeSink();
  // SIGHUP: file outputs are opened again (logrotate moved them).
  void ReopenFiles();
  // Gives the remote destinations up to `at_most` to deliver what is queued; logs and
  // returns how many alerts are still waiting (kept in durable spools, else lost).
  size_t Drain(Duration at_most);
  // Retries writing the spools that could not be written (a full disk); returns how many
  // alerts are still held in memory only. While any are, `watch` neither checkpoints past
  // them nor reads on.
  size_t SyncSpools();
  // How many alerts the receivers refused for good (a 4xx: a wrong token, a wrong URL); logs
  // each destination that refused any, with the last reason. A run that ends with refused
  // alerts did not deliver what it found.
  uint64_t Refused() const;
  // How many alerts are held in memory only, without retrying.
  size_t Unspooled() const;
  // Adds each destination's delivery counters to *snapshot.
  void Collect(TelemetrySnapshot* snapshot) const;
  bool any_remote() const { return !queues_.empty(); }

 private:
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<DeliveryQueue*> queues_;
  std::vector<FileSink*> files_;
  bool has_state_dir_ = false;  // OutputOptions::has_state_dir
};

}  // namespace foreshock::app
