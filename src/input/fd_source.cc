#include "input/fd_source.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "input/read_placement.h"

namespace foreshock {

Result<std::unique_ptr<FdSource>> FdSource::Open(const std::string& path) {
  int fd = STDIN_FILENO;
  bool owns_fd = false;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::IoError("open " + path, errno);
    owns_fd = true;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    if (owns_fd) ::close(fd);
    return Status::IoError("stat " + path, error);
  }
  if (S_ISDIR(info.st_mode)) {
    if (owns_fd) ::close(fd);
    return Status::InvalidArgument(path + " is a directory");
  }
  const bool pollable = !S_ISREG(info.st_mode) && !S_ISBLK(info.st_mode);
  return std::unique_ptr<FdSource>(new FdSource(fd, owns_fd, pollable, path == "-" ? "stdin" : path));
}

FdSource::FdSource(int fd, bool owns_fd, bool pollable, std::string name)
    : fd_(fd), owns_fd_(owns_fd), pollable_(pollable), name_(std::move(name)) {}

FdSource::~FdSource() {
  if (owns_fd_) ::close(fd_);
}

Result<Source::ReadState> FdSource::ReadInto(char* into, size_t size, Duration wait, size_t* got) {
  *got = 0;
  if (pollable_) {
    struct pollfd waiting {
      fd_, POLLIN, 0
    };
    const int timeout_ms = static_cast<int>(wait.count() / 1000);
    int ready = 0;
    do {
      ready = ::poll(&waiting, 1, timeout_ms);
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) return Status::IoError("poll " + name_, errno);
    if (ready == 0) return ReadState::kIdle;
  }
  ssize_t read = 0;
  do {
    read = ::read(fd_, into, size);
  } while (read < 0 && errno == EINTR);
  if (read < 0) return Status::IoError("read " + name_, errno);
  *got = static_cast<size_t>(read);
  return read == 0 ? ReadState::kEnd : ReadState::kData;
}

Result<Source::ReadState> FdSource::Read(std::string* out, Duration wait) {
  const size_t old_size = out->size();
  out->resize(old_size + kReadChunkBytes);
  size_t got = 0;
  auto state = ReadInto(out->data() + old_size, kReadChunkBytes, wait, &got);
  out->resize(old_size + got);
  return state;
}

Result<Source::ReadState> FdSource::ReadView(std::string* /*scratch*/, std::string_view* view, Duration wait) {
  if (chunk_ == nullptr) {
    chunk_ = std::make_unique<char[]>(kReadChunkBytes + kPageBytes);
    chunk_start_ = chunk_.get() + OffGridPad(chunk_.get());
  }
  size_t got = 0;
  auto state = ReadInto(chunk_start_, kReadChunkBytes, wait, &got);
  *view = std::string_view(chunk_start_, got);
  return state;
}

}  // namespace foreshock
