// End-to-end: a webhook receiver that goes down and comes back, and a foreshock killed with
// SIGKILL while alerts wait for it. Every alert arrives exactly once, in order.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>
#include <thread>

#include <unistd.h>

#include "base/time.h"
#include "testing/http_receiver.h"
#include "testing/precursor_lines.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

using namespace std::chrono_literals;
using testing::HttpReceiver;
using testing::ReadFile;
using testing::WaitFor;

void AppendPrecursor(const std::string& path, int n) {
  std::ofstream(path, std::ios::app) << testing::PrecursorLine(n);
}

// The precursor numbers of the alerts a receiver got, in arrival order.
std::vector<int> Received(const HttpReceiver& receiver) {
  std::vector<int> out;
  for (const auto& request : receiver.requests()) {
    const auto alert = nlohmann::json::parse(request.body);
    if (alert["rule"]["id"] == "test.each") out.push_back(std::stoi(alert["foreshock"]["group"]["n"].get<std::string>()));
  }
  return out;
}

std::vector<int> Range(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(i);
  return out;
}

class DeliveryRestartTest : public ::testing::Test {
 protected:
  DeliveryRestartTest() {
    catalog_ = dir_.Write("catalog.yaml", testing::kOneAlertPerPrecursorCatalog);
    log_ = dir_.path() + "/es.json";
    out_ = dir_.path() + "/out";
    err_ = dir_.path() + "/err";
  }
  pid_t Start() {
    return testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from", "beginning",
                                    "--state-dir", dir_.path() + "/state", "--output", "stdout", "--output",
                                    "webhook:" + receiver_.url(), "--retry-max", "200ms", "--failing-alert-after",
                                    "1s", log_},
                                   out_, err_);
  }

  // `full`: the folder (under the test's) whose disk is full.
  void FullDiskStory(const std::string& full);

  testing::TempDir dir_;
  HttpReceiver receiver_;
  std::string catalog_, log_, out_, err_;
};

TEST_F(DeliveryRestartTest, AReceiverDownForAWhileGetsEveryAlertOnceInOrderAndDownTimeIsAnAlert) {
  receiver_.Stop();
  const pid_t pid = Start();
  for (int n = 0; n < 10; ++n) AppendPrecursor(log_, n);
  // While it is down, foreshock says so on its other outputs.
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("foreshock.delivery_failing") != std::string::npos; }, 15s))
      << ReadFile(err_);
  receiver_.Start();
  ASSERT_TRUE(WaitFor([&] { return Received(receiver_).size() >= 10; }, 15s)) << ReadFile(err_);
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("delivers again") != std::string::npos; }, 10s));
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  std::vector<int> precursors;
  int self_alerts = 0;
  for (const auto& request : receiver_.requests()) {
    const auto alert = nlohmann::json::parse(request.body);
    if (alert["rule"]["id"] == "test.each") {
      precursors.push_back(std::stoi(alert["foreshock"]["group"]["n"].get<std::string>()));
    } else {
      EXPECT_EQ(alert["rule"]["category"], "foreshock");
      ++self_alerts;
    }
  }
  EXPECT_EQ(precursors, Range(10)) << "every alert once, in order";
  EXPECT_GE(self_alerts, 1) << "the failing alert is queued too";
}

// foreshock restarts (cleanly) between raising delivery_failing and the receiver's return:
// the next run knows it is open, does not raise it again, and resolves it on delivery.
TEST_F(DeliveryRestartTest, DeliveryFailingRaisedBeforeARestartIsResolvedAfterIt) {
  receiver_.Stop();
  pid_t pid = Start();
  AppendPrecursor(log_, 0);
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("foreshock.delivery_failing") != std::string::npos; }, 15s))
      << ReadFile(err_);
  ASSERT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  receiver_.Start();
  pid = Start();
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("delivers again") != std::string::npos; }, 15s))
      << ReadFile(out_) << ReadFile(err_);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  std::vector<nlohmann::json> failing;
  std::istringstream lines(ReadFile(out_));
  for (std::string line; std::getline(lines, line);) {
    const auto alert = nlohmann::json::parse(line);
    if (alert["rule"]["id"] == "foreshock.delivery_failing") failing.push_back(alert);
  }
  ASSERT_EQ(failing.size(), 2u) << ReadFile(out_);
  EXPECT_EQ(failing[0]["event"]["action"], "firing");
  EXPECT_EQ(failing[1]["event"]["action"], "resolved");
  EXPECT_EQ(failing[0]["foreshock"]["fingerprint"], failing[1]["foreshock"]["fingerprint"]);
  EXPECT_EQ(Received(receiver_), Range(1));
}

TEST_F(DeliveryRestartTest, KilledWhileAlertsWaitForTheReceiverLosesNone) {
  receiver_.Stop();
  pid_t pid = Start();
  for (int n = 0; n < 6; ++n) AppendPrecursor(log_, n);
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("PRECURSOR-5") != std::string::npos; }, 15s)) << ReadFile(err_);
  testing::StopProcess(pid, SIGKILL);  // six alerts spooled, none delivered
  for (int n = 6; n < 9; ++n) AppendPrecursor(log_, n);  // written while foreshock is down
  receiver_.Start();
  pid = Start();
  ASSERT_TRUE(WaitFor([&] { return Received(receiver_).size() >= 9; }, 15s)) << ReadFile(err_);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  EXPECT_EQ(Received(receiver_), Range(9)) << ReadFile(err_);
}

TEST_F(DeliveryRestartTest, AlertsSpooledByAnEarlierBuildUnderTheOldFolderNameAreStillDelivered) {
  receiver_.Stop();
  pid_t pid = Start();
  for (int n = 0; n < 4; ++n) AppendPrecursor(log_, n);
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("PRECURSOR-3") != std::string::npos; }, 15s)) << ReadFile(err_);
  testing::StopProcess(pid, SIGKILL);
  // Earlier builds named the folder after the --output itself (and a hash of it).
  const std::string spec = "webhook:" + receiver_.url();
  std::string old_name;
  for (char c : spec) old_name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  char hash[24];
  std::snprintf(hash, sizeof hash, "-%016zx", std::hash<std::string>{}(spec));
  const std::string spool = dir_.path() + "/state/spool";
  std::vector<std::filesystem::path> folders(std::filesystem::directory_iterator(spool), {});
  ASSERT_EQ(folders.size(), 1u);
  std::filesystem::rename(folders[0], spool + "/" + old_name + hash);
  receiver_.Start();
  pid = Start();
  ASSERT_TRUE(WaitFor([&] { return Received(receiver_).size() >= 4; }, 15s)) << ReadFile(err_);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  EXPECT_EQ(Received(receiver_), Range(4));
  EXPECT_FALSE(std::filesystem::exists(spool + "/" + old_name + hash));
}

// The reproduction: the state dir's disk fills (an LD_PRELOAD shim makes every write
// there fail with ENOSPC) while the receiver is down and alerts pour in. foreshock holds the
// alerts in memory, stops reading and saving positions, says so once (a self-alert, a metric,
// a few log lines), and a kill -9 then loses nothing: once space is back, the restart reads
// those lines again and the receiver gets every alert once; the file output none twice.
// First only the spools cannot be written (the state file still can: the case where old
// builds saved positions past alerts held in memory), then nothing under --state-dir.
void DeliveryRestartTest::FullDiskStory(const std::string& full) {
  const std::string flag = dir_.path() + "/disk-full";
  const std::string alerts_file = dir_.path() + "/alerts.jsonl";
  ::setenv("LD_PRELOAD", testing::kFullDiskShim, 1);
  ::setenv("FORESHOCK_FULL_DISK_DIR", (dir_.path() + "/" + full).c_str(), 1);
  ::setenv("FORESHOCK_FULL_DISK_FLAG", flag.c_str(), 1);
  const int metrics_port = testing::FreeListenPort();
  auto start = [&] {
    return testing::StartForeshock(
        {"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from", "beginning", "--state-dir",
         dir_.path() + "/state", "--output", "stdout", "--output", "file:" + alerts_file, "--output",
         "webhook:" + receiver_.url(), "--retry-max", "200ms", "--metrics-listen",
         "127.0.0.1:" + std::to_string(metrics_port), log_},
        out_, err_);
  };
  receiver_.Stop();
  std::ofstream(log_).close();
  pid_t pid = start();
  ASSERT_TRUE(WaitFor([&] { return ReadFile(err_).find("following") != std::string::npos; }, 10s)) << ReadFile(err_);
  std::ofstream(flag).close();  // the disk is full from now on
  constexpr int kAlerts = 300;
  for (int n = 0; n < kAlerts; ++n) AppendPrecursor(log_, n);
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("foreshock.spool_unwritable") != std::string::npos; }, 15s))
      << ReadFile(err_);
  std::string metrics;
  EXPECT_TRUE(WaitFor([&] {
    metrics = testing::HttpGet(metrics_port, "/metrics");
    return metrics.find("foreshock_spool_unwritten_alerts{destination=\"webhook:") != std::string::npos &&
           metrics.find("foreshock_spool_unwritten_alerts{destination=\"webhook:" + receiver_.url() + "\"} 0") ==
               std::string::npos;
  }, 10s)) << metrics;
  std::this_thread::sleep_for(1500ms);  // errors pile up for a while
  testing::StopProcess(pid, SIGKILL);
  const std::string said = ReadFile(err_);
  size_t spool_errors = 0;
  for (size_t at = 0; (at = said.find("cannot spool an alert", at)) != std::string::npos; ++at) ++spool_errors;
  EXPECT_GE(spool_errors, 1u);
  EXPECT_LE(spool_errors, 4u) << "errors are rate-limited:\n" << said.substr(0, 4000);
  EXPECT_NE(said.find("reading waits"), std::string::npos);

  std::filesystem::remove(flag);  // space is back
  receiver_.Start();
  pid = start();
  ASSERT_TRUE(WaitFor([&] { return Received(receiver_).size() >= kAlerts; }, 30s))
      << Received(receiver_).size() << "\n" << ReadFile(err_);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  ::unsetenv("LD_PRELOAD");
  EXPECT_EQ(Received(receiver_), Range(kAlerts)) << "every alert once, in order";
  std::map<int, int> in_file;
  std::istringstream lines(ReadFile(alerts_file));
  for (std::string line; std::getline(lines, line);) {
    const auto alert = nlohmann::json::parse(line);
    if (alert["rule"]["id"] == "test.each") ++in_file[std::stoi(alert["foreshock"]["group"]["n"].get<std::string>())];
  }
  EXPECT_EQ(in_file.size(), static_cast<size_t>(kAlerts));
  for (const auto& [n, count] : in_file) EXPECT_EQ(count, 1) << "precursor " << n << " in the file output";
}

TEST_F(DeliveryRestartTest, AnUnwritableSpoolHoldsReadingAndSavingBackAndAKillThenLosesNoAlert) {
  FullDiskStory("state/spool");
}

TEST_F(DeliveryRestartTest, AFullStateDiskHoldsReadingBackAndAKillThenLosesNoAlert) { FullDiskStory("state"); }

TEST_F(DeliveryRestartTest, AFileOutputIsReopenedOnSighupSoLogrotateWorks) {
  const std::string file = dir_.path() + "/alerts.jsonl";
  const pid_t pid = testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from",
                                             "beginning", "--output", "file:" + file, log_},
                                            out_, err_);
  AppendPrecursor(log_, 0);
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(file).find("PRECURSOR-0") != std::string::npos; }, 10s))
      << ReadFile(err_);
  std::filesystem::rename(file, file + ".1");
  ::kill(pid, SIGHUP);
  ASSERT_TRUE(WaitFor([&] { return std::filesystem::exists(file); }, 10s)) << ReadFile(err_);
  AppendPrecursor(log_, 1);
  ASSERT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(file).find("PRECURSOR-1") != std::string::npos; }, 10s));
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  EXPECT_EQ(ReadFile(file + ".1").find("PRECURSOR-1"), std::string::npos);
  EXPECT_EQ(ReadFile(file).find("PRECURSOR-0"), std::string::npos);
  EXPECT_EQ(ReadFile(out_), "") << "stdout is not an output unless asked for";
}

// How often a receiver was told, since request `from`, that the test alert is still firing
// (endsAt in the future).
int RequestsWithFiringAlert(const HttpReceiver& receiver, size_t from) {
  int count = 0;
  const std::string now = FormatTimestamp(std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now()));
  const auto requests = receiver.requests();
  for (size_t i = from; i < requests.size(); ++i) {
    for (const auto& alert : nlohmann::json::parse(requests[i].body)) {
      if (alert["labels"]["alertname"] == "test.each" && alert["endsAt"].get<std::string>() > now) ++count;
    }
  }
  return count;
}

TEST_F(DeliveryRestartTest, AlertmanagerIsRemindedOfFiringAlertsAcrossItsRestartsAndOurs) {
  auto start = [&] {
    return testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from", "beginning",
                                    "--state-dir", dir_.path() + "/state", "--output",
                                    "alertmanager:" + receiver_.url(), "--alertmanager-resend", "300ms", log_},
                                   out_, err_);
  };
  pid_t pid = start();
  AppendPrecursor(log_, 0);
  ASSERT_TRUE(WaitFor([&] { return RequestsWithFiringAlert(receiver_, 0) >= 3; }, 10s)) << ReadFile(err_);
  receiver_.Stop();  // Alertmanager restarts and forgets
  receiver_.Start();
  size_t seen = receiver_.requests().size();
  ASSERT_TRUE(WaitFor([&] { return RequestsWithFiringAlert(receiver_, seen) >= 1; }, 10s)) << ReadFile(err_);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  seen = receiver_.requests().size();
  pid = start();  // foreshock restarts: it still knows what is firing
  ASSERT_TRUE(WaitFor([&] { return RequestsWithFiringAlert(receiver_, seen) >= 1; }, 10s)) << ReadFile(err_);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
}

TEST_F(DeliveryRestartTest, SecretsInAWebhookUrlReachNoLogMetricFolderOrAlert) {
  receiver_.Stop();
  const int metrics_port = testing::FreeListenPort();
  const std::string url = "http://ops:hunter2@127.0.0.1:" + std::to_string(receiver_.port()) +
                          "/services/T0SECRET/B0SECRET/XyzPathSecret?token=tok3nSecret";
  const pid_t pid = testing::StartForeshock(
      {"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from", "beginning", "--state-dir",
       dir_.path() + "/state", "--metrics-listen", "127.0.0.1:" + std::to_string(metrics_port), "--output", "stdout",
       "--output", "webhook:" + url, "--retry-max", "200ms", "--failing-alert-after", "1s", "--log-level", "debug",
       log_},
      out_, err_);
  for (int n = 0; n < 3; ++n) AppendPrecursor(log_, n);
  ASSERT_TRUE(WaitFor([&] { return ReadFile(out_).find("foreshock.delivery_failing") != std::string::npos; }, 15s))
      << ReadFile(err_);
  const std::string metrics = testing::HttpGet(metrics_port, "/metrics");
  receiver_.Start();
  ASSERT_TRUE(WaitFor([&] { return Received(receiver_).size() >= 3; }, 15s)) << ReadFile(err_);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);

  std::string folders;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_.path() + "/state")) {
    folders += entry.path().string() + "\n";
  }
  const std::string shown = "webhook:http://127.0.0.1:" + std::to_string(receiver_.port()) + "/<redacted ";
  EXPECT_NE(ReadFile(err_).find(shown), std::string::npos) << "the log still says which destination: " << ReadFile(err_);
  EXPECT_NE(metrics.find("destination=\"" + shown), std::string::npos) << metrics;
  for (const std::string secret : {"hunter2", "SECRET", "XyzPathSecret", "tok3nSecret"}) {
    EXPECT_EQ(ReadFile(err_).find(secret), std::string::npos) << secret << " in stderr:\n" << ReadFile(err_);
    EXPECT_EQ(ReadFile(out_).find(secret), std::string::npos) << secret << " in the alerts:\n" << ReadFile(out_);
    EXPECT_EQ(metrics.find(secret), std::string::npos) << secret << " in the metrics";
    EXPECT_EQ(folders.find(secret), std::string::npos) << secret << " in a folder name:\n" << folders;
  }
  const auto requests = receiver_.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests[0].path, "/services/T0SECRET/B0SECRET/XyzPathSecret?token=tok3nSecret")
      << "the receiver still gets the whole URL";
  EXPECT_EQ(requests[0].headers.at("authorization"), "Basic b3BzOmh1bnRlcjI=");
}

// Kubernetes probes: /healthz while the process runs; /ready once an input is open and every
// output delivers, 503 with the reason otherwise. "localhost:PORT" is resolved.
TEST_F(DeliveryRestartTest, HealthAndReadinessProbesSayWhatIsMissing) {
  const int port = testing::FreeListenPort();
  const std::string logs = dir_.path() + "/logs";
  const pid_t pid = testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from",
                                             "beginning", "--metrics-listen", "localhost:" + std::to_string(port),
                                             "--output", "webhook:" + receiver_.url(), "--retry-max", "200ms",
                                             logs + "/*.json"},
                                            out_, err_);
  testing::HttpResponse ready;
  ASSERT_TRUE(WaitFor([&] { return (ready = testing::HttpFetch(port, "/ready")).status != 0; }, 10s)) << ReadFile(err_);
  EXPECT_EQ(testing::HttpFetch(port, "/healthz").status, 200);
  EXPECT_EQ(testing::HttpFetch(port, "/healthz").body, "ok\n");
  ASSERT_TRUE(WaitFor([&] { return (ready = testing::HttpFetch(port, "/ready")).body != "not ready: starting\n"; }, 10s));
  EXPECT_EQ(ready.status, 503);
  EXPECT_EQ(ready.body, "not ready: no input open yet\n");
  std::filesystem::create_directories(logs);
  AppendPrecursor(logs + "/es.json", 0);
  ASSERT_TRUE(WaitFor([&] { return (ready = testing::HttpFetch(port, "/ready")).status == 200; }, 10s)) << ready.body;
  EXPECT_EQ(ready.body, "ready\n");
  receiver_.Stop();
  AppendPrecursor(logs + "/es.json", 1);
  ASSERT_TRUE(WaitFor([&] { return (ready = testing::HttpFetch(port, "/ready")).status == 503; }, 10s)) << ready.body;
  EXPECT_EQ(ready.body, "not ready: webhook:" + receiver_.url() + " is failing\n");
  receiver_.Start();
  EXPECT_TRUE(WaitFor([&] { return testing::HttpFetch(port, "/ready").status == 200; }, 10s)) << "it delivers again";
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  const auto taken = testing::RunForeshock({"scan", "--metrics-listen", ":99999", "/dev/null"});
  EXPECT_EQ(taken.exit_code, 2);
  EXPECT_NE(taken.err.find("--metrics-listen :99999: the port must be a number from 1 to 65535"), std::string::npos)
      << taken.err;
}

TEST_F(DeliveryRestartTest, MetricsAreServedInThePrometheusFormat) {
  const int port = testing::FreeListenPort();
  const pid_t pid = testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog_, "--from",
                                             "beginning", "--metrics-listen", "127.0.0.1:" + std::to_string(port),
                                             "--output", "webhook:" + receiver_.url(), log_},
                                            out_, err_);
  for (int n = 0; n < 3; ++n) AppendPrecursor(log_, n);
  std::string metrics;
  ASSERT_TRUE(WaitFor([&] {
    metrics = testing::HttpGet(port, "/metrics");
    return metrics.find("foreshock_delivery_delivered_total{destination=\"webhook:" + receiver_.url() + "\"} 3") !=
           std::string::npos;
  }, 15s)) << metrics << ReadFile(err_);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  for (const std::string& expected : std::vector<std::string>{
           "foreshock_input_lines_total{input=\"" + log_ + "\"} 3", "foreshock_input_bytes_total{input=",
        "foreshock_pattern_hits_total{pattern=\"test.precursor\"} 3",
        "foreshock_alerts_total{action=\"firing\",rule=\"test.each\",severity=\"warning\"} 3",
        "foreshock_delivery_queue_depth{destination=", "foreshock_spool_bytes{destination=",
        "foreshock_delivery_retries_total{destination=", "foreshock_files_followed 1", "foreshock_lag_seconds ",
        "foreshock_build_info{version=", "foreshock_decode_failures_total{", "foreshock_rotations_total 0"}) {
    EXPECT_NE(metrics.find(expected), std::string::npos) << expected;
  }
  if (!std::filesystem::exists("/usr/bin/promtool")) GTEST_SKIP() << "promtool absent: exposition not linted";
  testing::ProcessOptions options;
  options.stdin_data = metrics;
  const auto lint = testing::RunProcess({"/usr/bin/promtool", "check", "metrics"}, options);
  EXPECT_EQ(lint.exit_code, 0) << lint.out << lint.err;
}

TEST_F(DeliveryRestartTest, IdleOrSlowClientsOfTheMetricsEndpointDoNotStopScrapes) {
  const int port = testing::FreeListenPort();
  const pid_t pid = testing::StartForeshock({"watch", "--no-builtin-catalog", "--catalog", catalog_, "--metrics-listen",
                                             "127.0.0.1:" + std::to_string(port), log_},
                                            out_, err_);
  ASSERT_TRUE(WaitFor([&] { return !testing::HttpGet(port, "/metrics").empty(); }, 10s)) << ReadFile(err_);
  std::vector<std::unique_ptr<testing::IdleConnection>> stuck;
  for (int i = 0; i < 8; ++i) {
    // Some say nothing, some stop half way through a request.
    stuck.push_back(std::make_unique<testing::IdleConnection>(port, i % 2 == 0 ? "" : "GET /metrics HTTP/1.1\r\nHo"));
    ASSERT_TRUE(stuck.back()->connected());
  }
  std::this_thread::sleep_for(200ms);
  for (int scrape = 0; scrape < 3; ++scrape) {
    const auto start = std::chrono::steady_clock::now();
    const std::string metrics = testing::HttpGet(port, "/metrics");
    EXPECT_NE(metrics.find("foreshock_build_info"), std::string::npos) << "scrape " << scrape << " got nothing";
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "Prometheus gives up on a scrape after 10 s";
  }
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0) << "stuck clients do not hold up shutdown either";
}

}  // namespace
}  // namespace foreshock
