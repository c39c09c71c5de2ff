#include "metrics/http_endpoint.h"

#include <CivetServer.h>
#include <netdb.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>
#include <sys/socket.h>

#include <charconv>
#include <functional>

namespace foreshock {
namespace {

constexpr auto kWedgedAfter = std::chrono::minutes(1);

void Reply(mg_connection* connection, int status, const char* type, const std::string& body) {
  mg_printf(connection,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n"
            "Connection: close\r\n\r\n",
            status, status == 200 ? "OK" : "Service Unavailable", type, body.size());
  mg_write(connection, body.data(), body.size());
}

}  // namespace

struct HttpEndpoint::Handlers {
  struct Route : CivetHandler {
    explicit Route(std::function<void(mg_connection*)> serve) : serve_(std::move(serve)) {}
    bool handleGet(CivetServer*, mg_connection* connection) override {
      serve_(connection);
      return true;
    }
    std::function<void(mg_connection*)> serve_;
  };
  Route metrics, health, ready;
};

Result<std::string> ParseListenAddress(const std::string& address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) {
    return Status::InvalidArgument("--metrics-listen " + address + ": expected HOST:PORT, :PORT or [IPv6]:PORT");
  }
  std::string host = address.substr(0, colon);
  const std::string port_text = address.substr(colon + 1);
  int port = 0;
  const auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (error != std::errc() || end != port_text.data() + port_text.size() || port < 1 || port > 65535) {
    return Status::InvalidArgument("--metrics-listen " + address + ": the port must be a number from 1 to 65535");
  }
  if (host.empty()) return "0.0.0.0:" + port_text;  // as Prometheus writes ":9090": every interface
  if (host.front() == '[') {
    if (host.back() != ']') return Status::InvalidArgument("--metrics-listen " + address + ": unclosed [");
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_ADDRCONFIG;
  addrinfo* found = nullptr;
  if (const int failed = ::getaddrinfo(host.c_str(), nullptr, &hints, &found); failed != 0 || found == nullptr) {
    return Status::InvalidArgument("--metrics-listen " + address + ": cannot resolve '" + host +
                                   "': " + ::gai_strerror(failed));
  }
  char numeric[NI_MAXHOST];
  const int family = found->ai_family;
  const int failed = ::getnameinfo(found->ai_addr, found->ai_addrlen, numeric, sizeof numeric, nullptr, 0, NI_NUMERICHOST);
  ::freeaddrinfo(found);
  if (failed != 0) return Status::InvalidArgument("--metrics-listen " + address + ": " + ::gai_strerror(failed));
  return family == AF_INET6 ? "[" + std::string(numeric) + "]:" + port_text : std::string(numeric) + ":" + port_text;
}

HttpEndpoint::HttpEndpoint(std::shared_ptr<prometheus::Registry> registry)
    : registry_(std::move(registry)),
      handlers_(new Handlers{
          Handlers::Route([this](mg_connection* c) {
            Reply(c, 200, "text/plain; version=0.0.4; charset=utf-8", Metrics());
          }),
          Handlers::Route([this](mg_connection* c) {
            const Answer answer = Health();
            Reply(c, answer.status, "text/plain; charset=utf-8", answer.body);
          }),
          Handlers::Route([this](mg_connection* c) {
            const Answer answer = Readiness();
            Reply(c, answer.status, "text/plain; charset=utf-8", answer.body);
          })}) {}

HttpEndpoint::~HttpEndpoint() {
  if (server_ != nullptr) server_->close();
}

Result<std::unique_ptr<HttpEndpoint>> HttpEndpoint::Start(const std::string& address,
                                                         std::shared_ptr<prometheus::Registry> registry) {
  auto listen = ParseListenAddress(address);
  if (!listen.ok()) return listen.status();
  std::unique_ptr<HttpEndpoint> endpoint(new HttpEndpoint(std::move(registry)));
  try {
    // A client that connects and says nothing (or stops half way) holds a worker thread
    // only until the request timeout; with several workers, scrapes go on meanwhile.
    endpoint->server_ = std::make_unique<CivetServer>(std::vector<std::string>{
        "listening_ports", *listen, "num_threads", "8", "request_timeout_ms", "2000", "enable_keep_alive", "no",
        "linger_timeout_ms", "0"});
  } catch (const std::exception& error) {
    return Status::InvalidArgument("--metrics-listen " + address + ": cannot listen on " + *listen +
                                   " (in use, or not an address of this machine)");
  }
  endpoint->server_->addHandler("/metrics", endpoint->handlers_->metrics);
  endpoint->server_->addHandler("/healthz", endpoint->handlers_->health);
  endpoint->server_->addHandler("/ready", endpoint->handlers_->ready);
  return endpoint;
}

void HttpEndpoint::Heartbeat(std::string ready_why_not) {
  std::lock_guard lock(mutex_);
  last_heartbeat_ = std::chrono::steady_clock::now();
  reported_ = true;
  ready_why_not_ = std::move(ready_why_not);
}

HttpEndpoint::Answer HttpEndpoint::Health() const {
  std::lock_guard lock(mutex_);
  if (reported_ && std::chrono::steady_clock::now() - last_heartbeat_ > kWedgedAfter) {
    return {503, "wedged: the pipeline has not reported for over a minute\n"};
  }
  return {200, "ok\n"};
}

HttpEndpoint::Answer HttpEndpoint::Readiness() const {
  std::lock_guard lock(mutex_);
  if (!ready_why_not_.empty()) return {503, "not ready: " + ready_why_not_ + "\n"};
  return {200, "ready\n"};
}

std::string HttpEndpoint::Metrics() const { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

}  // namespace foreshock
