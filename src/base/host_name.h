#pragma once

// HostName: this machine's name, as gethostname(2) gives it (empty if it cannot), for
// alerts foreshock raises about itself and for links to the log files it read.

#include <unistd.h>

#include <string>

namespace foreshock {

inline std::string HostName() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace foreshock
