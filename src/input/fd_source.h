#pragma once

// FdSource reads a regular file or a pipe through a file descriptor it owns, in large
// chunks. For pipes and terminals it waits with poll() so an idle stream (journalctl -f
// at 3 a.m.) returns kIdle instead of blocking, which lets the pipeline flush a pending
// multi-line record after a quiet time. ReadView() reads into one buffer of its own, reused
// from read to read and placed half a page off the page grid (read_placement.h). (A regular
// file is read, not mapped: on the virtual machines measured, mapping the page cache,
// populated or faulted in, cost three times read()'s copy; and a file truncated under a read
// is only shorter, where under a mapping it raises SIGBUS.)

#include <memory>
#include <string>
#include <string_view>

#include "input/source.h"

namespace foreshock {

class FdSource final : public Source {
 public:
  // Opens `path` for reading; "-" means standard input (which is not closed afterwards).
  static Result<std::unique_ptr<FdSource>> Open(const std::string& path);
  ~FdSource() override;

  Result<ReadState> Read(std::string* out, Duration wait) override;
  // Read into a chunk buffer of its own, allocated once.
  Result<ReadState> ReadView(std::string* scratch, std::string_view* view, Duration wait) override;
  const std::string& name() const override { return name_; }
  bool live() const override { return pollable_; }

 private:
  FdSource(int fd, bool owns_fd, bool pollable, std::string name);
  // Waits (pipes) and reads at most `size` bytes into `into`; *got: how many.
  Result<ReadState> ReadInto(char* into, size_t size, Duration wait, size_t* got);

  int fd_;
  bool owns_fd_;
  bool pollable_;  // a pipe, socket or terminal: wait with poll() before reading
  std::string name_;
  std::unique_ptr<char[]> chunk_;  // ReadView()'s buffer, allocated on first use
  char* chunk_start_ = nullptr;    // where in it reads land (read_placement.h)
};

}  // namespace foreshock
