#pragma once

// HttpEndpoint is the small HTTP server behind --metrics-listen (civetweb): GET /metrics
// serves the Prometheus registry's text exposition; GET /healthz answers 200 while the
// process runs and its pipeline reports (503 when no report came for a minute: it is
// wedged); GET /ready answers 200 once the inputs are open and every output delivers, else
// 503 with the reason, for Kubernetes probes. Idle or slow clients hold a worker only until
// the request timeout. ParseListenAddress() turns what people write (":9745",
// "localhost:9745", "[::1]:9745", "0.0.0.0:9745") into what civetweb binds, or says why not.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "base/result.h"

class CivetServer;

namespace prometheus {
class Registry;
}

namespace foreshock {

// The civetweb listening_ports value for a HOST:PORT: ":9745" is every interface, a host
// name is resolved (localhost -> 127.0.0.1), "[::1]:9745" is kept.
Result<std::string> ParseListenAddress(const std::string& address);

class HttpEndpoint {
 public:
  static Result<std::unique_ptr<HttpEndpoint>> Start(const std::string& address,
                                                     std::shared_ptr<prometheus::Registry> registry);
  ~HttpEndpoint();

  // The pipeline reported; `ready_why_not` is empty when ready.
  void Heartbeat(std::string ready_why_not);

  struct Answer {
    int status = 200;
    std::string body;
  };
  Answer Health() const;
  Answer Readiness() const;
  std::string Metrics() const;

 private:
  explicit HttpEndpoint(std::shared_ptr<prometheus::Registry> registry);

  std::shared_ptr<prometheus::Registry> registry_;
  mutable std::mutex mutex_;
  std::chrono::steady_clock::time_point last_heartbeat_;
  bool reported_ = false;
  std::string ready_why_not_ = "starting";
  struct Handlers;
  std::unique_ptr<Handlers> handlers_;
  std::unique_ptr<CivetServer> server_;  // last: stopped first
};

}  // namespace foreshock
