#pragma once

// WriteAll writes a whole buffer to a file descriptor, retrying short writes and EINTR.
// A reader that went away (EPIPE) is reported as Status kClosed. WriteFileDurably replaces a
// file whole: a crash leaves the old content or the new, never a torn one.

#include <string>
#include <string_view>

#include "base/status.h"

namespace foreshock {

Status WriteAll(int fd, std::string_view data, const std::string& what);

// Writes `content` to path + ".tmp", syncs it, and renames it over `path` (created with `mode`).
Status WriteFileDurably(const std::string& path, std::string_view content, int mode = 0640);

}  // namespace foreshock
