#include "sink/held_alerts.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>

#include "sink/alert_json.h"

namespace foreshock {
namespace {

// Calls `visit` with the identity of each JSON-line alert in the last kTailBytes of the file
// open as `fd`; false when it is no regular file (nothing can be read back).
template <typename Visit>
bool ReadTail(int fd, Visit visit) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return false;
  if (info.st_size == 0) return true;
  const off_t tail_bytes = static_cast<off_t>(HeldAlerts::kTailBytes);
  const off_t start = info.st_size > tail_bytes ? info.st_size - tail_bytes : 0;
  std::string tail(static_cast<size_t>(info.st_size - start), '\0');
  // Outputs are open write-only; the same file is read through /proc/self/fd.
  const int reader = ::open(("/proc/self/fd/" + std::to_string(fd)).c_str(), O_RDONLY | O_CLOEXEC);
  if (reader < 0) return false;
  const ssize_t got = ::pread(reader, tail.data(), tail.size(), start);
  ::close(reader);
  tail.resize(static_cast<size_t>(std::max<ssize_t>(got, 0)));
  std::string_view rest(tail);
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    const auto json = nlohmann::json::parse(line, nullptr, false);
    if (!json.is_discarded() && json.is_object()) visit(AlertIdentity(json));
  }
  return true;
}

}  // namespace

bool HeldAlerts::HoldsOrNote(int fd, const Alert& alert) {
  if (!read_) read_ = ReadTail(fd, [this](std::string identity) { Remember(std::move(identity)); });
  if (!*read_) return false;
  std::string identity = AlertIdentity(alert);
  if (identities_.contains(identity)) return true;
  Remember(std::move(identity));
  return false;
}

void HeldAlerts::Remember(std::string identity) {
  if (!identities_.insert(identity).second) return;
  order_.push_back(std::move(identity));
  if (order_.size() > kMaxRemembered) {
    identities_.erase(order_.front());
    order_.pop_front();
  }
}

}  // namespace foreshock
