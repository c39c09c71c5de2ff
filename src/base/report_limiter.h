#pragma once

// ReportLimiter keeps a stream of warnings readable: the first few go through, then at most
// one per interval, and the one that goes says how many were held back since the last.

#include <chrono>
#include <cstdint>
#include <string>

namespace foreshock {

class ReportLimiter {
 public:
  ReportLimiter(uint64_t freely, std::chrono::steady_clock::duration interval)
      : freely_(freely), interval_(interval) {}

  // Whether to report now; then *more is " (N more not shown)" when some were held back, else
  // empty.
  bool Allow(std::string* more) {
    const auto now = std::chrono::steady_clock::now();
    if (reported_ >= freely_ && now < window_end_) {
      ++held_back_;
      return false;
    }
    ++reported_;
    more->clear();
    if (held_back_ > 0) *more = " (" + std::to_string(held_back_) + " more not shown)";
    held_back_ = 0;
    if (reported_ >= freely_) window_end_ = now + interval_;
    return true;
  }

 private:
  uint64_t freely_;
  std::chrono::steady_clock::duration interval_;
  uint64_t reported_ = 0;
  uint64_t held_back_ = 0;
  std::chrono::steady_clock::time_point window_end_{};
};

}  // namespace foreshock
