#include "framing/record_assembler.h"

namespace foreshock {

bool RecordAssembler::IsContinuation(std::string_view line) {
  if (line.empty()) return false;
  if (line[0] == ' ' || line[0] == '\t') return true;
  return line.starts_with("Caused by:") || line.starts_with("Suppressed:") ||
         line.starts_with("at ") || line.starts_with("... ");
}

bool RecordAssembler::StartsPlainRecord(std::string_view line) {
  return line.size() > 5 && line[0] == '[' && line[1] >= '0' && line[1] <= '9' &&
         line[2] >= '0' && line[2] <= '9' && line[3] >= '0' && line[3] <= '9' &&
         line[4] >= '0' && line[4] <= '9' && line[5] == '-';
}

void RecordAssembler::Start(std::string_view line, bool truncated, uint64_t line_number) {
  buffer_.assign(line.substr(0, limits_.max_record_bytes));
  pending_.first_line = line_number;
  pending_.line_count = 1;
  pending_.truncated = truncated || line.size() > limits_.max_record_bytes;
  pending_is_plain_ = StartsPlainRecord(line);
}

void RecordAssembler::Append(std::string_view line, bool truncated) {
  const size_t needed = buffer_.size() + 1 + line.size();
  if (pending_.line_count >= limits_.max_record_lines || needed > limits_.max_record_bytes) {
    pending_.truncated = true;
    return;
  }
  buffer_.push_back('\n');
  buffer_.append(line);
  ++pending_.line_count;
  pending_.truncated = pending_.truncated || truncated;
}

}  // namespace foreshock
