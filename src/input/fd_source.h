#pragma once

// FdSource reads a regular file or a pipe through a file descriptor it owns, in large
// chunks. For pipes and terminals it waits with poll() so an idle stream (journalctl -f
// at 3 a.m.) returns kIdle instead of blocking, which lets the pipeline flush a pending
// multi-line record after a quiet time.

#include <memory>
#include <string>

#include "input/source.h"

namespace foreshock {

class FdSource final : public Source {
 public:
  // Opens `path` for reading; "-" means standard input (which is not closed afterwards).
  static Result<std::unique_ptr<FdSource>> Open(const std::string& path);
  ~FdSource() override;

  Result<ReadState> Read(std::string* out, Duration wait) override;
  const std::string& name() const override { return name_; }
  bool live() const override { return pollable_; }

 private:
  FdSource(int fd, bool owns_fd, bool pollable, std::string name);

  int fd_;
  bool owns_fd_;
  bool pollable_;  // a pipe, socket or terminal: wait with poll() before reading
  std::string name_;
};

}  // namespace foreshock
