#include "testing/http_receiver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace foreshock::testing {
namespace {

int Listen(int port, int* bound_port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port));
  }
  socklen_t size = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  *bound_port = ntohs(address.sin_port);
  return fd;
}

// Reads until `want` bytes are in *buffer, or the peer closes, or `stopping`.
bool ReadMore(int fd, std::string* buffer, const std::atomic<bool>& stopping) {
  while (!stopping) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, 50) <= 0) continue;
    char chunk[65536];
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got <= 0) return false;
    buffer->append(chunk, static_cast<size_t>(got));
    return true;
  }
  return false;
}

}  // namespace

HttpReceiver::HttpReceiver(int port) {
  listener_ = Listen(port, &port_);
  thread_ = std::thread([this, fd = listener_] { Serve(fd); });
}

HttpReceiver::~HttpReceiver() { Stop(); }

void HttpReceiver::Stop() {
  if (listener_ < 0) return;
  stopping_ = true;
  thread_.join();
  ::close(listener_);
  listener_ = -1;
}

void HttpReceiver::Start() {
  if (listener_ >= 0) return;
  stopping_ = false;
  int port = 0;
  listener_ = Listen(port_, &port);
  thread_ = std::thread([this, fd = listener_] { Serve(fd); });
}

std::vector<HttpRequest> HttpReceiver::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void HttpReceiver::Serve(int listener) {
  while (!stopping_) {
    pollfd ready{listener, POLLIN, 0};
    if (::poll(&ready, 1, 50) <= 0) continue;
    const int connection = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    Handle(connection);
    ::close(connection);
  }
}

void HttpReceiver::Handle(int connection) {
  std::string buffer;
  while (!stopping_) {
    size_t header_end;
    while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
      if (!ReadMore(connection, &buffer, stopping_)) return;
    }
    HttpRequest request;
    const std::string head = buffer.substr(0, header_end);
    size_t line_end = head.find("\r\n");
    const std::string request_line = head.substr(0, line_end);
    request.method = request_line.substr(0, request_line.find(' '));
    request.path = request_line.substr(request.method.size() + 1, request_line.rfind(' ') - request.method.size() - 1);
    size_t length = 0;
    while (line_end != std::string::npos && line_end < head.size()) {
      const size_t next = head.find("\r\n", line_end + 2);
      const std::string line = head.substr(line_end + 2, next == std::string::npos ? std::string::npos : next - line_end - 2);
      const size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        if (name == "content-length") length = std::stoul(value);
        request.headers[name] = value;
      }
      line_end = next;
    }
    while (buffer.size() < header_end + 4 + length) {
      if (!ReadMore(connection, &buffer, stopping_)) return;
    }
    request.body = buffer.substr(header_end + 4, length);
    buffer.erase(0, header_end + 4 + length);
    const int status = status_;
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(std::move(request));
    }
    const std::string response = "HTTP/1.1 " + std::to_string(status) + " Status\r\nContent-Length: 0\r\n\r\n";
    if (::write(connection, response.data(), response.size()) < 0) return;
  }
}

int FreeListenPort() {
  // Drawn at random, so that tests run in parallel rarely try the same one.
  std::mt19937 random(std::random_device{}());
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int port = std::uniform_int_distribution<int>(20000, 32000)(random);
    const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
    if (probe < 0) break;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = ::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(probe);
    if (free) return port;
  }
  throw std::runtime_error("no free port from 20000 to 32000 on 127.0.0.1");
}

std::string HttpGet(int port, const std::string& path) { return HttpFetch(port, path).body; }

HttpResponse HttpFetch(int port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const timeval patience{20, 0};  // a server that never answers fails the test instead of hanging it
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return {};
  }
  const std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (::write(fd, request.data(), request.size()) < 0) {
    ::close(fd);
    return {};
  }
  std::string response;
  char chunk[65536];
  for (ssize_t got; (got = ::read(fd, chunk, sizeof chunk)) > 0;) response.append(chunk, static_cast<size_t>(got));
  ::close(fd);
  const size_t body = response.find("\r\n\r\n");
  if (body == std::string::npos || !response.starts_with("HTTP/1.")) return {};
  return {std::atoi(response.c_str() + response.find(' ') + 1), response.substr(body + 4)};
}

IdleConnection::IdleConnection(int port, const std::string& data) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
               (data.empty() || ::write(fd_, data.data(), data.size()) == static_cast<ssize_t>(data.size()));
}

IdleConnection::~IdleConnection() { ::close(fd_); }

}  // namespace foreshock::testing
