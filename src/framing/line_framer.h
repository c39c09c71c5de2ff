#pragma once

// LineFramer splits a byte stream into lines ("\n" or "\r\n"). Complete lines inside a
// fed chunk are handed out as views into that chunk, without copying; only a partial
// last line is kept until more bytes arrive or Flush() is called. A line longer than
// max_line_bytes is cut to that length, marked truncated and counted, and the rest of it
// is skipped, so one 10 MB line costs at most max_line_bytes of memory.
// Not thread-safe.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace foreshock {

struct FramerStats {
  uint64_t lines = 0;
  uint64_t truncated_lines = 0;
};

class LineFramer {
 public:
  explicit LineFramer(size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // Calls on_line(std::string_view line, bool truncated) for every line completed by
  // `bytes`. A view passed to on_line is valid only during that call.
  template <typename OnLine>
  void Feed(std::string_view bytes, OnLine&& on_line);

  // The same for one complete line the caller found itself: `line` excludes its newline,
  // which the caller's buffer holds right after it. Only when at_line_start().
  template <typename OnLine>
  void FeedLine(std::string_view line, OnLine&& on_line) {
    fed_ += line.size() + 1;
    line_end_ = fed_;
    const bool truncated = line.size() > max_line_bytes_;
    Emit(truncated ? line.substr(0, max_line_bytes_) : line, truncated, on_line);
  }
  // Counts `lines` complete lines, `bytes` long with their newlines, that the caller read
  // from its own buffer without framing them (none longer than max_line_bytes, none ending
  // in "\r"). Only when at_line_start().
  void SkipLines(uint64_t lines, uint64_t bytes) {
    fed_ += bytes;
    line_end_ = fed_;
    stats_.lines += lines;
  }
  // True when no partial line waits for the rest of its bytes.
  bool at_line_start() const { return partial_.empty() && !skipping_; }

  // Emits the partial last line, if any (end of input, or a quiet stream).
  template <typename OnLine>
  void Flush(OnLine&& on_line);

  const FramerStats& stats() const { return stats_; }

  // During an on_line callback: the stream offset just past the line (its newline included),
  // counting every byte ever fed. Checkpoints store it as "processed up to here".
  uint64_t line_end() const { return line_end_; }

 private:
  template <typename OnLine>
  void Emit(std::string_view line, bool truncated, OnLine& on_line);
  void Keep(std::string_view bytes);

  size_t max_line_bytes_;
  std::string partial_;      // the beginning of a line whose end has not arrived
  bool skipping_ = false;    // past max_line_bytes: drop bytes until the next newline
  uint64_t fed_ = 0;         // bytes fed before the current chunk
  uint64_t line_end_ = 0;
  FramerStats stats_;
};

template <typename OnLine>
void LineFramer::Feed(std::string_view bytes, OnLine&& on_line) {
  const uint64_t chunk_start = fed_;
  fed_ += bytes.size();
  const char* const base = bytes.data();
  while (!bytes.empty()) {
    const void* found = std::memchr(bytes.data(), '\n', bytes.size());
    if (found == nullptr) {
      Keep(bytes);
      return;
    }
    const size_t end = static_cast<size_t>(static_cast<const char*>(found) - bytes.data());
    line_end_ = chunk_start + static_cast<uint64_t>(bytes.data() - base) + end + 1;
    if (partial_.empty() && !skipping_) {
      std::string_view line = bytes.substr(0, end);
      const bool truncated = line.size() > max_line_bytes_;
      Emit(truncated ? line.substr(0, max_line_bytes_) : line, truncated, on_line);
    } else {
      Keep(bytes.substr(0, end));
      Emit(partial_, skipping_, on_line);
      partial_.clear();
      skipping_ = false;
    }
    bytes.remove_prefix(end + 1);
  }
}

template <typename OnLine>
void LineFramer::Flush(OnLine&& on_line) {
  if (partial_.empty() && !skipping_) return;
  line_end_ = fed_;
  Emit(partial_, skipping_, on_line);
  partial_.clear();
  skipping_ = false;
}

template <typename OnLine>
void LineFramer::Emit(std::string_view line, bool truncated, OnLine& on_line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++stats_.lines;
  if (truncated) ++stats_.truncated_lines;
  on_line(line, truncated);
}

inline void LineFramer::Keep(std::string_view bytes) {
  if (skipping_) return;
  const size_t room = max_line_bytes_ - partial_.size();
  if (bytes.size() > room) {
    partial_.append(bytes.substr(0, room));
    skipping_ = true;
  } else {
    partial_.append(bytes);
  }
}

}  // namespace foreshock
