#pragma once

// FdSource reads a regular file or a pipe through a file descriptor it owns, in large
// chunks. For pipes and terminals it waits with poll() so an idle stream (journalctl -f
// at 3 a.m.) returns kIdle instead of blocking, which lets the pipeline flush a pending
// multi-line record after a quiet time. ReadView() maps a regular file in windows
// (MappedWindow) instead of copying it, and reads it like a pipe when it cannot be mapped.

#include <memory>
#include <string>
#include <string_view>

#include "input/mapped_window.h"
#include "input/source.h"

namespace foreshock {

class FdSource final : public Source {
 public:
  // Opens `path` for reading; "-" means standard input (which is not closed afterwards).
  static Result<std::unique_ptr<FdSource>> Open(const std::string& path);
  ~FdSource() override;

  Result<ReadState> Read(std::string* out, Duration wait) override;
  // A regular file: the next window of it, mapped; otherwise read into a chunk buffer of its
  // own, allocated once.
  Result<ReadState> ReadView(std::string* scratch, std::string_view* view, Duration wait) override;
  const std::string& name() const override { return name_; }
  bool live() const override { return pollable_; }

 private:
  FdSource(int fd, bool owns_fd, bool pollable, bool regular, std::string name);
  // Maps the file's next window from the descriptor's offset, and moves the offset past it.
  // False when the file cannot be mapped (or reports no size: /proc's files); *view is
  // empty at the file's end.
  bool MapNext(std::string_view* view);
  // Waits (pipes) and reads at most `size` bytes into `into`; *got: how many.
  Result<ReadState> ReadInto(char* into, size_t size, Duration wait, size_t* got);

  int fd_;
  bool owns_fd_;
  bool pollable_;  // a pipe, socket or terminal: wait with poll() before reading
  bool regular_;   // a regular file: ReadView() maps it
  MappedWindow window_;
  std::string name_;
  std::unique_ptr<char[]> chunk_;  // ReadView()'s buffer, allocated on first use
};

}  // namespace foreshock
