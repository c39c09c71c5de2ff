#include "base/status.h"

#include <cstring>

namespace foreshock {

Status Status::IoError(std::string message, int errno_value) {
  if (errno_value != 0) {
    message += ": ";
    message += std::strerror(errno_value);
  }
  return Status(Code::kIoError, std::move(message));
}

}  // namespace foreshock
