#pragma once

// RecordAssembler joins lines into log records. A plain-text Elasticsearch record
// ("[2026-11-29T02:54:11,123][WARN ]...") owns the lines that follow it until the next
// record starts: stack frames, "Caused by:" chains, wrapped node lists. A JSON record whose
// braces are still open at the end of a line (pretty-printed, or a stacktrace array spilling
// over lines) owns the following lines until they close. Any record also owns lines that can
// only be continuations (indented lines, "at ...", "Caused by:"); a complete one-line JSON
// record is emitted at once. Lines arrive already
// unwrapped from their envelopes; a record keeps the hints of its first line, so a stack
// trace journald split into one entry per frame is joined again. Records are capped in lines
// and bytes; what is cut is dropped and the record is marked truncated. Empty lines are
// skipped. Not thread-safe.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "framing/envelope.h"

namespace foreshock {

struct RawRecord {
  std::string_view text;    // lines joined with '\n'; valid only during the callback
  // The string holding `text`. A callback that keeps the text may swap it out instead of
  // copying it (then `text` no longer applies); whatever it leaves there is cleared.
  std::string* text_storage = nullptr;
  uint64_t first_line = 0;  // 1-based line number in the input
  uint32_t line_count = 0;
  bool truncated = false;
  uint64_t end_offset = 0;  // stream offset just past its last line
  const EnvelopeHints* hints = nullptr;  // of the first line; valid only during the callback
  std::string_view envelope;             // "" when the lines came unwrapped
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
  void Add(std::string_view line, bool truncated, uint64_t line_number, OnRecord&& on_record) {
    static const EnvelopeHints kNoHints;
    Add(line, truncated, line_number, 0, kNoHints, std::string_view(), on_record);
  }
  // `end_offset`: the stream offset just past the line, for checkpoints.
  template <typename OnRecord>
  void Add(std::string_view line, bool truncated, uint64_t line_number, uint64_t end_offset,
           const EnvelopeHints& hints, std::string_view envelope, OnRecord&& on_record);

  // Emits the pending record, if any.
  template <typename OnRecord>
  void Flush(OnRecord&& on_record);

  bool has_pending() const { return pending_.line_count > 0; }
  uint64_t pending_first_line() const { return pending_.first_line; }
  // True when the pending record would take the non-blank `line` as its next line; false
  // when `line` ends it (and starts a record of its own).
  bool Joins(std::string_view line) const;
  // Stream offset past the last blank line skipped while nothing was pending.
  uint64_t skipped_end() const { return skipped_end_; }
  uint64_t skipped_end_line() const { return skipped_end_line_; }  // that blank line's number

  // True when `line` cannot start a record of its own.
  static bool IsContinuation(std::string_view line);
  // True when `line` starts a plain-text ES record: "[" followed by a date. Asked twice of
  // nearly every line of a plain log, so the year's four digits are tested at once (each
  // byte's high nibble 3, and no carry out of its low one when 6 is added).
  [[gnu::always_inline]] static bool StartsPlainRecord(std::string_view line) {
    if (line.size() <= 5 || line[0] != '[' || line[5] != '-') return false;
    uint32_t year;
    std::memcpy(&year, line.data() + 1, sizeof(year));
    return (year & 0xF0F0F0F0u) == 0x30303030u && ((year + 0x06060606u) & 0xF0F0F0F0u) == 0x30303030u;
  }
  // True when `line` can be the next line of an open JSON record (a member, a value, a
  // closing bracket) rather than something else that follows a cut record.
  static bool ContinuesJson(std::string_view line);

 private:
  void Start(std::string_view line, bool truncated, uint64_t line_number);
  void Append(std::string_view line, bool truncated);
  // Tracks the brace depth of a pending JSON record through `line`.
  void ScanJson(std::string_view line);

  AssemblerLimits limits_;
  std::string buffer_;
  RawRecord pending_;
  EnvelopeHints pending_hints_;
  std::string pending_envelope_;
  bool pending_is_plain_ = false;
  uint64_t skipped_end_ = 0;
  uint64_t skipped_end_line_ = 0;
  int json_depth_ = 0;  // > 0: a JSON record whose braces are still open
  bool json_in_string_ = false;
  bool json_escape_ = false;
};

template <typename OnRecord>
void RecordAssembler::Add(std::string_view line, bool truncated, uint64_t line_number,
                          uint64_t end_offset, const EnvelopeHints& hints,
                          std::string_view envelope, OnRecord&& on_record) {
  if (line.find_first_not_of(" \t") == std::string_view::npos) {
    if (!has_pending()) {  // a blank line alone is processed at once
      skipped_end_ = end_offset;
      skipped_end_line_ = line_number;
    }
    return;
  }
  if (has_pending()) {
    if (Joins(line)) {
      Append(line, truncated);
      pending_.end_offset = end_offset;
      return;
    }
    Flush(on_record);
  }
  if (!hints.empty() || !pending_hints_.empty()) pending_hints_ = hints;
  pending_envelope_.assign(envelope);
  Start(line, truncated, line_number);
  pending_.end_offset = end_offset;
  // A JSON record whose braces are closed is complete: on a live stream it must not wait for
  // the next line to learn that.
  if (line[0] == '{' && json_depth_ == 0) Flush(on_record);
}

template <typename OnRecord>
void RecordAssembler::Flush(OnRecord&& on_record) {
  if (!has_pending()) return;
  pending_.text = buffer_;
  pending_.text_storage = &buffer_;
  pending_.hints = &pending_hints_;
  pending_.envelope = pending_envelope_;
  on_record(static_cast<const RawRecord&>(pending_));
  pending_ = RawRecord{};
  buffer_.clear();
  json_depth_ = 0;
  json_in_string_ = false;
  json_escape_ = false;
}

}  // namespace foreshock
