#include "app/state_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "base/write_all.h"

namespace foreshock::app {

Result<std::unique_ptr<StateLock>> StateLock::Acquire(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Status::InvalidArgument("--state-dir " + dir + ": " + error.message());
  const std::string path = dir + "/lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::InvalidArgument("--state-dir " + dir + ": cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    char pid[32] = {};
    const ssize_t got = ::pread(fd, pid, sizeof pid - 1, 0);
    ::close(fd);
    if (why != EWOULDBLOCK) return Status::InvalidArgument("--state-dir " + dir + ": cannot lock " + path + ": " + std::strerror(why));
    std::string holder(pid, got > 0 ? static_cast<size_t>(got) : 0);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    return Status::InvalidArgument("--state-dir " + dir + " is in use by another foreshock watch" +
                                   (holder.empty() ? "" : " (pid " + holder + ")") +
                                   "; two watchers on one state would send every alert twice. Stop it, or give this "
                                   "one its own --state-dir");
  }
  auto lock = std::unique_ptr<StateLock>(new StateLock(fd));
  if (::ftruncate(fd, 0) != 0) {
    return Status::InvalidArgument("--state-dir " + dir + ": cannot write " + path + ": " + std::strerror(errno));
  }
  FORESHOCK_RETURN_IF_ERROR(WriteAll(fd, std::to_string(::getpid()) + "\n", path));
  return lock;
}

StateLock::~StateLock() { ::close(fd_); }

}  // namespace foreshock::app
