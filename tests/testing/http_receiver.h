#pragma once

// A real HTTP/1.1 server on 127.0.0.1 for delivery tests: it records every request it is
// sent (method, path, headers, body) and answers with a status the test chooses. It can be
// stopped and started again on the same port, like a receiver that restarts. HttpGet is the
// matching minimal client, for scraping the metrics endpoint.

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace foreshock::testing {

struct HttpRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

class HttpReceiver {
 public:
  // Listens at once, on `port` (0: any free port).
  explicit HttpReceiver(int port = 0);
  ~HttpReceiver();
  HttpReceiver(const HttpReceiver&) = delete;
  HttpReceiver& operator=(const HttpReceiver&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Stops listening and drops open connections: clients get "connection refused".
  void Stop();
  // Listens again on the same port.
  void Start();
  void set_status(int status) { status_ = status; }
  std::vector<HttpRequest> requests() const;

 private:
  void Serve(int listener);
  void Handle(int connection);

  int port_ = 0;
  std::atomic<int> status_{200};
  std::atomic<bool> stopping_{false};
  int listener_ = -1;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<HttpRequest> requests_;
};

// A port free on 127.0.0.1 for a child process to listen on, below Linux's range of
// ephemeral ports (32768-60999): a server of another test binding port 0 (an HttpReceiver)
// cannot take it between this call and the child's bind, as it could a port from that range.
int FreeListenPort();

// GET http://127.0.0.1:port/path; returns the body (empty on failure, or after 20 s without an answer).
std::string HttpGet(int port, const std::string& path);
struct HttpResponse {
  int status = 0;  // 0: no answer
  std::string body;
};
HttpResponse HttpFetch(int port, const std::string& path);

// A TCP connection to 127.0.0.1:port that sends `data` (maybe nothing) and then idles until
// destroyed: a slow or stuck client.
class IdleConnection {
 public:
  IdleConnection(int port, const std::string& data);
  ~IdleConnection();
  IdleConnection(const IdleConnection&) = delete;
  IdleConnection& operator=(const IdleConnection&) = delete;
  bool connected() const { return connected_; }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

}  // namespace foreshock::testing
