#include "app/outputs.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <filesystem>
#include <functional>

#include "base/command_words.h"
#include "base/counted.h"
#include "base/fnv1a.h"
#include "deliver/alertmanager.h"
#include "deliver/curl_library.h"
#include "deliver/exec_command.h"
#include "deliver/redacted_url.h"
#include "deliver/webhook.h"
#include "sink/fan_out_sink.h"
#include "sink/json_lines_sink.h"
#include "sink/text_sink.h"

namespace foreshock::app {
namespace {

namespace po = boost::program_options;

// An --output as it may be shown: a URL's secrets redacted.
std::string ShownSpec(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos || spec.find("://", colon) == std::string::npos) return spec;
  return spec.substr(0, colon + 1) + RedactedUrl(std::string_view(spec).substr(colon + 1));
}

// A destination's spool folder: its kind and a hash of the full --output, so no part of a
// URL (which may hold a secret) is written in a folder name.
std::string SpoolFolder(const std::string& state_dir, const std::string& kind, const std::string& spec) {
  char hash[20];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, Fnv1a(spec));
  return state_dir + "/spool/" + kind + "-" + hash;
}

// Earlier builds named spool folders after the URL itself; a folder left by one is
// renamed, so the alerts waiting in it are still delivered (and the secret leaves the disk).
void AdoptOldSpoolFolder(const std::string& state_dir, const std::string& spec, const std::string& folder) {
  std::string old_name;
  for (char c : spec.substr(0, 48)) old_name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  char hash[24];
  std::snprintf(hash, sizeof hash, "-%016zx", std::hash<std::string>{}(spec));
  const std::filesystem::path old_folder = state_dir + "/spool/" + old_name + hash;
  std::error_code error;
  if (!std::filesystem::is_directory(old_folder, error) || std::filesystem::exists(folder, error)) return;
  std::filesystem::rename(old_folder, folder, error);
  if (error) spdlog::error("cannot rename the spool folder {}: {}", old_folder.string(), error.message());
}

bool IsHttpUrl(const std::string& url) { return url.starts_with("http://") || url.starts_with("https://"); }

}  // namespace

void AddOutputOptions(po::options_description* description, OutputOptions* o) {
  description->add_options()
      ("output,o", po::value(&o->outputs)->composing(),
       "where alerts go, repeatable: stdout (JSON lines, default), stdout:text, file:PATH, alertmanager:URL, "
       "webhook:URL, exec:COMMAND")
      ("webhook-headers-file", po::value(&o->webhook_headers_file), "extra webhook headers, 'Name: value' per line")
      ("webhook-token-file", po::value(&o->webhook_token_file), "file holding a bearer token for webhooks")
      ("webhook-token-env", po::value(&o->webhook_token_env), "environment variable holding a bearer token for webhooks")
      ("ca-file", po::value(&o->ca_file), "CA bundle to verify HTTPS receivers against (default: the system store)")
      ("connect-timeout", po::value(&o->connect_timeout)->default_value("5s"), "HTTP connect timeout")
      ("request-timeout", po::value(&o->request_timeout)->default_value("15s"), "HTTP request timeout, in all")
      ("exec-timeout", po::value(&o->exec_timeout)->default_value("30s"), "exec: kill the command after this long")
      ("alertmanager-resend", po::value(&o->alertmanager_resend)->default_value("1m"),
       "re-send firing alerts to Alertmanager this often")
      ("retry-max", po::value(&o->retry_max)->default_value("30s"), "longest wait between delivery retries")
      ("failing-alert-after", po::value(&o->failing_alert_after)->default_value("5m"),
       "raise foreshock.delivery_failing when a destination has failed this long")
      ("spool-max-mb", po::value(&o->spool_max_mb)->default_value(64), "size bound of each destination's spool")
      ("metrics-listen", po::value(&o->metrics_listen),
       "serve Prometheus metrics, /healthz and /ready on HOST:PORT or :PORT (off by default)")
      ("verbose", po::bool_switch(&o->verbose), "stdout:text: show each alert's evidence lines and runbook too");
}

bool AlertsGoToStdout(const OutputOptions& options) {
  return options.outputs.empty() ||
         std::any_of(options.outputs.begin(), options.outputs.end(),
                     [](const std::string& spec) { return spec == "stdout" || spec.starts_with("stdout:"); });
}

Result<std::unique_ptr<Outputs>> Outputs::Build(const OutputOptions& options, const std::string& state_dir) {
  auto outputs = std::make_unique<Outputs>();
  outputs->has_state_dir_ = options.has_state_dir;
  const auto connect = ParseDuration(options.connect_timeout);
  const auto request = ParseDuration(options.request_timeout);
  const auto exec_timeout = ParseDuration(options.exec_timeout);
  const auto resend = ParseDuration(options.alertmanager_resend);
  const auto retry_max = ParseDuration(options.retry_max);
  if (!connect || !request || !exec_timeout || !resend || !retry_max || *resend <= Duration(0)) {
    return Status::InvalidArgument("delivery durations are written like 500ms, 5s or 1m");
  }
  HttpOptions http;
  http.connect_timeout = *connect;
  http.total_timeout = *request;
  http.ca_file = options.ca_file;
  std::vector<std::string> specs = options.outputs;
  if (specs.empty()) specs.push_back("stdout");
  bool webhook_secrets_loaded = false;
  for (const std::string& spec : specs) {
    const size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    const std::string target = colon == std::string::npos ? "" : spec.substr(colon + 1);
    std::unique_ptr<Destination> destination;
    if (spec == "stdout" || spec == "stdout:json") {
      outputs->sinks_.push_back(std::make_unique<JsonLinesSink>(STDOUT_FILENO));
    } else if (spec == "stdout:text") {
      outputs->sinks_.push_back(std::make_unique<TextSink>(STDOUT_FILENO, options.verbose));
    } else if (kind == "file" && !target.empty()) {
      auto file = FileSink::Open(target);
      if (!file.ok()) return Status::InvalidArgument("--output " + spec + ": " + file.status().message());
      outputs->files_.push_back(file.value().get());
      outputs->sinks_.push_back(std::move(file).value());
    } else if ((kind == "alertmanager" || kind == "webhook") && IsHttpUrl(target)) {
      if (const auto curl = CurlLibrary::Get(); !curl.ok()) {
        return Status::InvalidArgument("--output " + ShownSpec(spec) + ": " + curl.status().message());
      }
      if (kind == "alertmanager") {
        AlertmanagerOptions am{target, http, *resend, ""};
        if (!state_dir.empty()) am.active_file = SpoolFolder(state_dir, kind, spec) + "/active.json";
        destination = std::make_unique<AlertmanagerDestination>(am);
      } else {
        if (!webhook_secrets_loaded) {
          FORESHOCK_RETURN_IF_ERROR(LoadWebhookSecrets(options.webhook_headers_file, options.webhook_token_file,
                                                       options.webhook_token_env, &http.headers));
          webhook_secrets_loaded = true;
        }
        destination = std::make_unique<WebhookDestination>(WebhookOptions{target, http});
      }
    } else if (kind == "exec" && !target.empty()) {
      auto words = CommandWords(target);
      if (!words.ok()) return Status::InvalidArgument("--output '" + ShownSpec(spec) + "': " + words.status().message());
      if (words->empty()) return Status::InvalidArgument("--output '" + ShownSpec(spec) + "': no command");
      destination = std::make_unique<ExecDestination>(target, *exec_timeout);
    } else {
      return Status::InvalidArgument("--output '" + ShownSpec(spec) +
                                     "': expected stdout, stdout:text, file:PATH, alertmanager:http(s)://..., "
                                     "webhook:http(s)://... or exec:COMMAND");
    }
    if (destination == nullptr) continue;
    const std::string folder = state_dir.empty() ? "" : SpoolFolder(state_dir, kind, spec);
    if (!folder.empty()) AdoptOldSpoolFolder(state_dir, spec, folder);
    auto spool = Spool::Open(folder, options.spool_max_mb << 20);
    if (!spool.ok()) return spool.status();
    if (folder.empty()) {
      spdlog::info("{}: alerts wait in memory while it is down ({})", ShownSpec(spec),
                   options.has_state_dir ? "--state-dir keeps them on disk"
                                         : "until --drain-timeout at the end of the run");
    }
    auto queue = std::make_unique<DeliveryQueue>(std::move(destination), std::move(spool).value(),
                                                 RetryPolicy{std::chrono::milliseconds(250), *retry_max},
                                                 folder.empty() ? "" : folder + "/rejected.jsonl");
    outputs->queues_.push_back(queue.get());
    outputs->sinks_.push_back(std::move(queue));
  }
  return outputs;
}

std::unique_ptr<Sink> Outputs::TakeSink() { return std::make_unique<FanOutSink>(std::move(sinks_)); }

void Outputs::ReopenFiles() {
  for (FileSink* file : files_) {
    if (Status status = file->Reopen(); !status.ok()) spdlog::error("{}", status.message());
  }
}

size_t Outputs::Drain(Duration at_most) {
  const auto deadline = std::chrono::steady_clock::now() + at_most;
  size_t left = 0;
  for (DeliveryQueue* queue : queues_) {
    const auto remaining = std::chrono::duration_cast<Duration>(deadline - std::chrono::steady_clock::now());
    const size_t waiting = queue->Drain(std::max(remaining, Duration(0)));
    if (waiting > 0) {
      spdlog::error("{}: {} not delivered yet; {}", queue->name(), Counted(waiting, "alert", "alerts"),
                    queue->durable()   ? "kept in the spool for the next run"
                    : has_state_dir_   ? "LOST (no --state-dir to keep them)"
                                       : "LOST when this run ends (watch --state-dir keeps alerts on disk until delivered)");
    }
    left += waiting;
  }
  return left;
}

size_t Outputs::SyncSpools() {
  size_t unwritten = 0;
  for (DeliveryQueue* queue : queues_) unwritten += queue->Sync();
  return unwritten;
}

size_t Outputs::Unspooled() const {
  size_t unwritten = 0;
  for (const DeliveryQueue* queue : queues_) unwritten += queue->unspooled();
  return unwritten;
}

uint64_t Outputs::Refused() const {
  uint64_t refused = 0;
  for (const DeliveryQueue* queue : queues_) {
    const DeliveryStats stats = queue->stats();
    if (stats.rejected == 0) continue;
    spdlog::error("{} refused {} ({})", queue->name(), Counted(stats.rejected, "alert", "alerts"), stats.last_refusal);
    refused += stats.rejected;
  }
  return refused;
}

void Outputs::Collect(TelemetrySnapshot* snapshot) const {
  for (const DeliveryQueue* queue : queues_) snapshot->outputs[std::string(queue->name())] = queue->stats();
}

}  // namespace foreshock::app
