#include "base/write_all.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

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

Status WriteFileDurably(const std::string& path, std::string_view content, int mode) {
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return Status::IoError("open " + temp, errno);
  Status status = WriteAll(fd, content, temp);
  if (status.ok() && ::fdatasync(fd) != 0) status = Status::IoError("fdatasync " + temp, errno);
  ::close(fd);
  if (status.ok() && ::rename(temp.c_str(), path.c_str()) != 0) status = Status::IoError("rename " + temp, errno);
  return status;
}

}  // namespace foreshock
