// End-to-end tests of alert delivery: the built binary sends the seed incident's alerts to
// real HTTP receivers on 127.0.0.1 (webhook, Alertmanager), to a command and to a file;
// receivers go down and come back, foreshock is killed and restarted, and every alert
// still arrives exactly once, in order.

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "testing/http_receiver.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using testing::HttpReceiver;
using testing::ReadFile;
using testing::RunForeshock;
using testing::TempDir;
using testing::WaitFor;

std::string SeedNode(int n) {
  return std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-" + std::to_string(n) + ".json";
}

std::vector<json> JsonLines(const std::string& text) {
  std::vector<json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

TEST(DeliveryTest, WebhookGetsEachAlertAsOnStdoutWithSecretsFromFileAndEnvironment) {
  TempDir dir;
  HttpReceiver receiver;
  const std::string headers = dir.Write("headers", "# sent with every alert\nX-Team: search-oncall\n");
  ::setenv("FORESHOCK_TEST_TOKEN", "s3cret-token", 1);
  const auto result = RunForeshock({"scan", "--output", "stdout", "--output", "webhook:" + receiver.url() + "/hook",
                                    "--webhook-headers-file", headers, "--webhook-token-env", "FORESHOCK_TEST_TOKEN",
                                    SeedNode(1), SeedNode(2), SeedNode(3)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::vector<json> printed = JsonLines(result.out);
  ASSERT_EQ(printed.size(), 4u);
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), printed.size()) << result.err;
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].method, "POST");
    EXPECT_EQ(requests[i].path, "/hook");
    EXPECT_EQ(requests[i].headers.at("content-type"), "application/json");
    EXPECT_EQ(requests[i].headers.at("authorization"), "Bearer s3cret-token");
    EXPECT_EQ(requests[i].headers.at("x-team"), "search-oncall");
    const json body = json::parse(requests[i].body);
    EXPECT_EQ(body, printed[i]) << "the webhook body is the alert schema, field by field";
    EXPECT_EQ(requests[i].headers.at("idempotency-key"),
              body["foreshock"]["fingerprint"].get<std::string>() + "-" + body["event"]["action"].get<std::string>() +
                  "-" + body["foreshock"]["stage"].dump() + "-" + body["@timestamp"].get<std::string>());
  }
  EXPECT_EQ(result.err.find("s3cret-token"), std::string::npos) << "secrets never reach the log";
}

// A receiver that refuses every alert (a wrong token: 401) is a failed run, not a quiet one:
// a CI wrapper must see it. scan and replay exit 2 and name the destination and the reason.
TEST(DeliveryTest, AReceiverRefusingTheAlertsFailsTheRunNamingIt) {
  HttpReceiver receiver;
  receiver.set_status(401);
  const std::string output = "webhook:" + receiver.url() + "/hook";
  for (const std::string verb : {"scan", "replay"}) {
    const auto result = RunForeshock({verb, "--output", output, SeedNode(2)});
    EXPECT_EQ(result.exit_code, 2) << verb << "\n" << result.err;
    EXPECT_NE(result.err.find("webhook:http://127.0.0.1:"), std::string::npos) << result.err;
    const size_t refused = result.err.find(" refused 4 alerts (");
    ASSERT_NE(refused, std::string::npos) << verb << "\n" << result.err.substr(result.err.size() - 600);
    EXPECT_NE(result.err.find("HTTP 401", refused), std::string::npos) << result.err.substr(refused);
  }
  EXPECT_EQ(receiver.requests().size(), 8u) << "each alert was tried once: a refusal is not retried";
}

TEST(DeliveryTest, AlertmanagerGetsLabelsAnnotationsAndTimesOfTheAlertmanagerApi) {
  HttpReceiver receiver;
  const auto result = RunForeshock({"scan", "--output", "alertmanager:" + receiver.url(), SeedNode(1), SeedNode(2),
                                    SeedNode(3)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "") << "stdout is not an output unless asked for";
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 4u) << result.err;
  for (const auto& request : requests) EXPECT_EQ(request.path, "/api/v2/alerts");
  const json firing = json::parse(requests[0].body);
  ASSERT_TRUE(firing.is_array());
  ASSERT_EQ(firing.size(), 1u);
  const json& alert = firing[0];
  EXPECT_EQ(alert["labels"]["alertname"], "es.chain.scroll_leak");
  EXPECT_EQ(alert["labels"]["severity"], "warning");
  EXPECT_EQ(alert["labels"]["category"], "search");
  EXPECT_EQ(alert["labels"]["node"], "order-events-node-2");
  EXPECT_TRUE(alert["labels"].contains("cluster"));
  EXPECT_TRUE(alert["labels"].contains("fingerprint"));
  EXPECT_NE(alert["annotations"]["summary"].get<std::string>().find("scroll"), std::string::npos);
  EXPECT_NE(alert["annotations"]["description"].get<std::string>().find("too many scroll contexts"), std::string::npos);
  EXPECT_FALSE(alert["annotations"]["runbook"].get<std::string>().empty());
  EXPECT_EQ(alert["startsAt"], "2026-11-29T02:54:11.482Z");
  EXPECT_GT(alert["endsAt"].get<std::string>(), "2026-11-29T04:00:00.000Z") << "firing: ends in the future";
  EXPECT_EQ(alert["generatorURL"].get<std::string>().rfind("file://", 0), 0u);
  EXPECT_NE(alert["generatorURL"].get<std::string>().find("order-events-node-2.json"), std::string::npos);
  // A relative input gives the same absolute link.
  HttpReceiver relative_receiver;
  testing::ProcessOptions from_samples;
  from_samples.cwd = std::string(testing::kSamplesDir) + "/seed-incident";
  const auto relative = RunForeshock({"scan", "--output", "alertmanager:" + relative_receiver.url(),
                                      "order-events-node-2.json"},
                                     from_samples);
  ASSERT_EQ(relative.exit_code, 0) << relative.err;
  ASSERT_FALSE(relative_receiver.requests().empty());
  EXPECT_EQ(json::parse(relative_receiver.requests()[0].body)[0]["generatorURL"], alert["generatorURL"]);
  const json stage2 = json::parse(requests[1].body);
  ASSERT_EQ(stage2.size(), 2u) << "the escalation replaces the warning: " << stage2;
  EXPECT_EQ(stage2[0]["labels"]["severity"], "critical");
  EXPECT_EQ(stage2[1]["labels"], alert["labels"]) << "the warning's own labels, now ended";
  EXPECT_EQ(stage2[1]["endsAt"], "2026-11-29T03:04:18.201Z");
  const json stage3 = json::parse(requests[2].body)[0];
  EXPECT_EQ(stage3["labels"]["severity"], "critical");
  EXPECT_EQ(stage3["annotations"]["lead_time_s"], "1130.635");
  const json resolved = json::parse(requests[3].body)[0];
  EXPECT_EQ(resolved["endsAt"], "2026-11-29T04:06:22.735Z");
  EXPECT_EQ(resolved["labels"], stage3["labels"]) << "the same labels identify the same alert to Alertmanager";
}

TEST(DeliveryTest, ExecRunsTheCommandWithTheAlertOnStdinAndNoShell) {
  TempDir dir;
  const auto result = RunForeshock({"scan", "--output", "exec:/usr/bin/tee -a '" + dir.path() + "/got.jsonl'",
                                    "--output", "exec:/bin/echo \"not-expanded:\" $HOME", SeedNode(2)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::vector<json> got = JsonLines(ReadFile(dir.path() + "/got.jsonl"));
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[2]["foreshock"]["lead_time_s"], 1130.635);
  EXPECT_EQ(result.out, "") << "the command's stdout goes to stderr, never among the alerts";
  size_t literal = 0;
  for (size_t at = 0; (at = result.err.find("not-expanded: $HOME\n", at)) != std::string::npos; ++at) ++literal;
  EXPECT_EQ(literal, 4u) << "no shell expands anything: " << result.err;
  const auto unclosed = RunForeshock({"scan", "--output", "exec:/bin/echo 'oops", SeedNode(2)});
  EXPECT_EQ(unclosed.exit_code, 2);
  EXPECT_NE(unclosed.err.find("--output 'exec:/bin/echo 'oops': the ' at character 11 is never closed"),
            std::string::npos)
      << unclosed.err;
}

TEST(DeliveryTest, ACommandThatHangsIsKilledAfterTheTimeoutAndTheAlertIsNotCountedDelivered) {
  const auto result = RunForeshock({"scan", "--output", "exec:/bin/sleep 30", "--exec-timeout", "200ms",
                                    "--drain-timeout", "1s", SeedNode(2)});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("killed after 200ms"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("4 alerts not delivered"), std::string::npos) << result.err;
  // scan has no --state-dir: it points at the verb that keeps alerts on disk, not at a flag it
  // does not take.
  EXPECT_NE(result.err.find("until --drain-timeout at the end of the run"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("LOST when this run ends (watch --state-dir keeps alerts on disk until delivered)"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("(--state-dir keeps them"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("(no --state-dir"), std::string::npos) << result.err;
}

TEST(DeliveryTest, ARunawayCommandsOutputIsCappedAndSaidSoAndItsAlertsStillCount) {
  // Each run writes 10 MB; stderr gets at most 64 KiB of each.
  const auto result = RunForeshock({"scan", "--output", "exec:/usr/bin/head -c 10000000 /dev/zero", SeedNode(2)});
  ASSERT_EQ(result.exit_code, 0) << result.err.substr(0, 2000);
  EXPECT_LT(result.err.size(), 4u * 70 * 1024) << "four runs, 64 KiB shown of each";
  EXPECT_GE(result.err.size(), 4u * 64 * 1024);
  size_t said = 0;
  for (size_t at = 0; (at = result.err.find("9934464 more bytes of its output not shown", at)) != std::string::npos;
       ++at) {
    ++said;
  }
  EXPECT_EQ(said, 4u);
}

TEST(DeliveryTest, TextOutputIsOneReadableLinePerAlertWithoutColourOffATty) {
  const auto result = RunForeshock({"scan", "--output", "stdout:text", SeedNode(2)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 4);
  EXPECT_NE(result.out.find("2026-11-29T03:13:02.117Z CRITICAL escalated es.chain.scroll_leak [order-events-node-2]"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("(lead time 18m51s)"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find('\x1b'), std::string::npos);
}

TEST(DeliveryTest, AnUnknownOutputIsAUsageError) {
  const auto result = RunForeshock({"scan", "--output", "smtp:oncall@example.com", SeedNode(2)});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("smtp:oncall@example.com"), std::string::npos) << result.err;
}

TEST(DeliveryTest, ARefusedAlertIsSetAsideLoudlyAndTheOthersStillGo) {
  HttpReceiver receiver;
  receiver.set_status(400);
  TempDir dir;
  // watch with a state dir: the refused alert is kept in rejected.jsonl.
  const std::string log = dir.path() + "/es.json";
  std::filesystem::copy_file(SeedNode(2), log);
  const std::string out = dir.path() + "/out";
  const std::string err = dir.path() + "/err";
  const pid_t pid = testing::StartForeshock({"watch", "--from", "beginning", "--state-dir", dir.path() + "/state",
                                             "--no-novelty", "--output", "webhook:" + receiver.url(), log},
                                            out, err);
  ASSERT_TRUE(WaitFor([&] { return receiver.requests().size() >= 4; }, 20s)) << ReadFile(err);
  EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
  EXPECT_EQ(receiver.requests().size(), 4u) << "a refusal is not retried";
  EXPECT_NE(ReadFile(err).find("refused an alert for good"), std::string::npos);
  size_t rejected = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path() + "/state")) {
    if (entry.path().filename() == "rejected.jsonl") rejected += JsonLines(ReadFile(entry.path())).size();
  }
  EXPECT_EQ(rejected, 4u);
}

// libcurl and the thirty libraries it brings cost about 20 ms at every start: they are
// loaded only by a run that posts alerts over HTTP.
TEST(DeliveryTest, LibcurlIsLoadedOnlyWhenAnHttpDestinationIsConfigured) {
  HttpReceiver receiver;
  TempDir dir;
  const std::string log = dir.path() + "/es.json";
  std::filesystem::copy_file(SeedNode(2), log);
  auto mapped_libraries = [&](const std::vector<std::string>& outputs) {
    std::vector<std::string> args = {"watch", "--from", "beginning", "--state-dir", dir.path() + "/state"};
    args.insert(args.end(), outputs.begin(), outputs.end());
    args.push_back(log);
    const std::string err = dir.path() + "/err";
    const pid_t pid = testing::StartForeshock(args, dir.path() + "/out", err);
    EXPECT_TRUE(WaitFor([&] { return testing::ReadFileIfExists(err).find("following") != std::string::npos; }, 10s))
        << testing::ReadFileIfExists(err);
    const std::string maps = ReadFile("/proc/" + std::to_string(pid) + "/maps");
    EXPECT_EQ(testing::StopProcess(pid, SIGTERM), 0);
    std::filesystem::remove_all(dir.path() + "/state");
    std::filesystem::remove(err);
    return maps;
  };
  EXPECT_EQ(mapped_libraries({"--output", "stdout", "--output", "exec:/bin/true"}).find("libcurl"), std::string::npos);
  EXPECT_NE(mapped_libraries({"--output", "webhook:" + receiver.url()}).find("libcurl"), std::string::npos);
}

// An HTTPS receiver (Python's http.server over TLS) that appends each POST body to a file
// and prints its port.
constexpr const char* kHttpsReceiver = R"(
import http.server, ssl, sys
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers['Content-Length']))
        with open(sys.argv[3], 'ab') as out:
            out.write(body + b'\n')
        self.send_response(200)
        self.send_header('Content-Length', '0')
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
)";

TEST(DeliveryTest, HttpsReceiversAreVerifiedAgainstTheSystemStoreOrACustomCa) {
  if (!std::filesystem::exists("/usr/bin/openssl")) GTEST_SKIP() << "openssl absent: no certificate to test with";
  TempDir dir;
  const std::string cert = dir.path() + "/cert.pem";
  const std::string key = dir.path() + "/key.pem";
  const auto made = testing::RunProcess({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                                         "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                         "-keyout", key, "-out", cert});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string got = dir.path() + "/got.jsonl";
  testing::ChildProcess receiver({"python3", "-c", kHttpsReceiver, cert, key, got});
  const auto port = receiver.ReadLine(std::chrono::seconds(10));
  ASSERT_TRUE(port.has_value());
  const std::string url = "webhook:https://127.0.0.1:" + *port + "/hook";
  // Self-signed: the system store does not vouch for it, so nothing is delivered, loudly.
  const auto untrusted = RunForeshock({"scan", "--output", url, "--drain-timeout", "1s", SeedNode(2)});
  EXPECT_EQ(untrusted.exit_code, 2) << "undelivered alerts are an error";
  EXPECT_NE(untrusted.err.find("certificate"), std::string::npos) << untrusted.err;
  EXPECT_NE(untrusted.err.find("4 alerts not delivered"), std::string::npos) << untrusted.err;
  EXPECT_FALSE(std::filesystem::exists(got));
  // With the CA given, every alert arrives over TLS.
  const auto trusted = RunForeshock({"scan", "--output", url, "--ca-file", cert, SeedNode(2)});
  ASSERT_EQ(trusted.exit_code, 0) << trusted.err;
  const std::vector<json> bodies = JsonLines(ReadFile(got));
  ASSERT_EQ(bodies.size(), 4u);
  EXPECT_EQ(bodies[2]["foreshock"]["lead_time_s"], 1130.635);
}

}  // namespace
}  // namespace foreshock
