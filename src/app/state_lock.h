#pragma once

// StateLock keeps a second `foreshock watch` off a --state-dir that one already uses: two
// watchers on one state would each send every alert and overwrite each other's positions. It
// holds an exclusive flock(2) on `lock` in the directory for the life of the process (the
// kernel drops it when the process dies, even by SIGKILL, so a crash leaves no stale lock)
// and writes its pid there, so that the refusal can name the holder.

#include <memory>
#include <string>

#include "base/result.h"

namespace foreshock::app {

class StateLock {
 public:
  // Creates the directory if needed. Fails, naming the holder's pid, when another process
  // holds the lock, and with the reason when the lock file cannot be opened.
  static Result<std::unique_ptr<StateLock>> Acquire(const std::string& dir);
  ~StateLock();
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

 private:
  explicit StateLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace foreshock::app
