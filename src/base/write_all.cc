#include "base/write_all.h"

#include <unistd.h>

#include <cerrno>

namespace foreshock {

Status WriteAll(int fd, std::string_view data, const std::string& what) {
  while (!data.empty()) {
    const ssize_t wrote = ::write(fd, data.data(), data.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) return Status::Closed(what + " was closed");
      return Status::IoError("write " + what, errno);
    }
    data.remove_prefix(static_cast<size_t>(wrote));
  }
  return Status();
}

}  // namespace foreshock
