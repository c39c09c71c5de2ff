#include "sink/json_lines_sink.h"

#include <unistd.h>

#include <cerrno>

#include "sink/alert_json.h"

namespace foreshock {

Status JsonLinesSink::Emit(const Alert& alert) {
  // Invalid UTF-8 from a log line is replaced, never allowed to abort the output.
  std::string line = AlertToJson(alert).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  std::string_view rest = line;
  while (!rest.empty()) {
    const ssize_t wrote = ::write(fd_, rest.data(), rest.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) return Status::Closed("stdout was closed");
      return Status::IoError("write alert", errno);
    }
    rest.remove_prefix(static_cast<size_t>(wrote));
  }
  return Status();
}

}  // namespace foreshock
