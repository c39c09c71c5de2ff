#pragma once

// MappedWindow maps a stretch of a regular file read-only, so that a reader scans the page
// cache in place instead of having read() copy it first (on an ordinary line the copy costs
// as much as the scan). One stretch at a time: mapping the next unmaps the last, so what is
// mapped stays under kWindowBytes whatever the file's size. Touching a page of a file that
// was truncated under its mapping raises SIGBUS; a handler installed on first use maps zero
// pages over the rest of the window instead and notes that the window was cut, so the
// reader sees zeros (which it passes over as binary data) where read() would have found the
// file's end, and goes on. A SIGBUS anywhere else keeps the action it had. At most
// kMaxWindows are mapped at once in the process (Map() fails beyond, and the caller reads
// instead): a replay of hundreds of files maps a few of them, and its memory stays bounded.
// Not thread-safe; windows on different threads are independent.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace foreshock {

class MappedWindow {
 public:
  static constexpr size_t kWindowBytes = size_t{4} << 20;
  static constexpr size_t kMaxWindows = 8;

  MappedWindow() = default;
  ~MappedWindow() { Unmap(); }
  MappedWindow(const MappedWindow&) = delete;
  MappedWindow& operator=(const MappedWindow&) = delete;

  // Maps file[offset, min(offset + kWindowBytes, file_size)) of the open file `fd`, in
  // place of what was mapped before. False when it cannot be mapped (nothing is mapped then).
  bool Map(int fd, uint64_t offset, uint64_t file_size);
  void Unmap();

  // The bytes mapped last; valid until the next Map() or Unmap().
  std::string_view view() const { return view_; }
  // True when the file was cut under view(): from some page on, it read as zeros.
  bool cut() const;

 private:
  void* mapping_ = nullptr;
  size_t mapped_bytes_ = 0;  // whole pages from mapping_
  std::string_view view_;
  int slot_ = -1;  // in the table the SIGBUS handler consults
};

}  // namespace foreshock
