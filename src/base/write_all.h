#pragma once

// WriteAll writes a whole buffer to a file descriptor, retrying short writes and EINTR.
// A reader that went away (EPIPE) is reported as Status kClosed.

#include <string>
#include <string_view>

#include "base/status.h"

namespace foreshock {

Status WriteAll(int fd, std::string_view data, const std::string& what);

}  // namespace foreshock
