#pragma once

// RecordAssembler joins physical lines into log records. A plain-text Elasticsearch
// record ("[2026-11-29T02:54:11,123][WARN ]...") owns the lines that follow it until the
// next record starts: stack frames, "Caused by:" chains, wrapped node lists. Any record
// also owns lines that can only be continuations (indented lines, "at ...", "Caused by:").
// Records are capped in lines and bytes; what is cut is dropped and the record is marked
// truncated. Empty lines are skipped. Not thread-safe.

#include <cstdint>
#include <string>
#include <string_view>

namespace foreshock {

struct RawRecord {
  std::string_view text;    // lines joined with '\n'; valid only during the callback
  uint64_t first_line = 0;  // 1-based line number in the input
  uint32_t line_count = 0;
  bool truncated = false;
};

struct AssemblerLimits {
  size_t max_record_bytes = 1 << 20;
  uint32_t max_record_lines = 1000;
};

class RecordAssembler {
 public:
  explicit RecordAssembler(AssemblerLimits limits) : limits_(limits) {}

  // Adds the physical line number `line_number`. Calls on_record(const RawRecord&) for
  // the previous record when this line starts a new one.
  template <typename OnRecord>
  void Add(std::string_view line, bool truncated, uint64_t line_number, OnRecord&& on_record);

  // Emits the pending record, if any.
  template <typename OnRecord>
  void Flush(OnRecord&& on_record);

  bool has_pending() const { return pending_.line_count > 0; }

  // True when `line` cannot start a record of its own.
  static bool IsContinuation(std::string_view line);
  // True when `line` starts a plain-text ES record: "[" followed by a date.
  static bool StartsPlainRecord(std::string_view line);

 private:
  void Start(std::string_view line, bool truncated, uint64_t line_number);
  void Append(std::string_view line, bool truncated);

  AssemblerLimits limits_;
  std::string buffer_;
  RawRecord pending_;
  bool pending_is_plain_ = false;
};

template <typename OnRecord>
void RecordAssembler::Add(std::string_view line, bool truncated, uint64_t line_number,
                          OnRecord&& on_record) {
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  if (has_pending()) {
    const bool joins = IsContinuation(line) ||
                       (pending_is_plain_ && !StartsPlainRecord(line) && line[0] != '{');
    if (joins) {
      Append(line, truncated);
      return;
    }
    Flush(on_record);
  }
  Start(line, truncated, line_number);
}

template <typename OnRecord>
void RecordAssembler::Flush(OnRecord&& on_record) {
  if (!has_pending()) return;
  pending_.text = buffer_;
  on_record(static_cast<const RawRecord&>(pending_));
  pending_ = RawRecord{};
  buffer_.clear();
}

}  // namespace foreshock
