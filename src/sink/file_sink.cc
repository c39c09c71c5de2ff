#include "sink/file_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "base/write_all.h"
#include "sink/alert_json.h"

namespace foreshock {
namespace {

int OpenForAppend(const std::string& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
}

}  // namespace

Result<std::unique_ptr<FileSink>> FileSink::Open(const std::string& path) {
  const int fd = OpenForAppend(path);
  if (fd < 0) return Status::IoError("open " + path, errno);
  return std::unique_ptr<FileSink>(new FileSink(path, fd));
}

FileSink::~FileSink() { ::close(fd_); }

Status FileSink::Emit(const Alert& alert) {
  if (held_.HoldsOrNote(fd_, alert)) return Status();
  return WriteAll(fd_, AlertToJsonLine(alert), path_);
}

Status FileSink::Reopen() {
  const int fd = OpenForAppend(path_);
  if (fd < 0) return Status::IoError("reopen " + path_, errno);
  ::close(fd_);
  fd_ = fd;
  held_.Forget();
  return Status();
}

}  // namespace foreshock
