#include "framing/record_assembler.h"

#include <cstring>

namespace foreshock {

bool RecordAssembler::IsContinuation(std::string_view line) {
  if (line.empty()) return false;
  if (line[0] == ' ' || line[0] == '\t') return true;
  return line.starts_with("Caused by:") || line.starts_with("Suppressed:") ||
         line.starts_with("at ") || line.starts_with("... ");
}

bool RecordAssembler::ContinuesJson(std::string_view line) {
  const char first = line[0];
  return first == '"' || first == '}' || first == ']' || first == ',' || first == ' ' || first == '\t';
}

bool RecordAssembler::Joins(std::string_view line) const {
  // A line that starts a record of its own ends even an unclosed JSON record: broken JSON
  // must not swallow the records after it. A lone "{" under a plain record is pretty-printed
  // JSON it carries (a slow log's source), not a record.
  const bool starts_record = StartsPlainRecord(line) || line.starts_with("{\"") ||
                             (line[0] == '{' && !pending_is_plain_);
  return IsContinuation(line) || (json_depth_ > 0 && ContinuesJson(line)) ||
         (pending_is_plain_ && !starts_record);
}

void RecordAssembler::Start(std::string_view line, bool truncated, uint64_t line_number) {
  buffer_.assign(line.substr(0, limits_.max_record_bytes));
  pending_.first_line = line_number;
  pending_.line_count = 1;
  pending_.truncated = truncated || line.size() > limits_.max_record_bytes;
  pending_is_plain_ = StartsPlainRecord(line);
  if (line[0] == '{') ScanJson(line);
}

void RecordAssembler::ScanJson(std::string_view line) {
  // Strings make up most of a JSON line: jump through them with memchr to the next quote,
  // and look at structural characters one by one only between strings.
  const char* at = line.data();
  const char* const end = at + line.size();
  while (at < end) {
    if (json_in_string_) {
      if (json_escape_) {
        json_escape_ = false;
        ++at;
        continue;
      }
      const void* quote = std::memchr(at, '"', static_cast<size_t>(end - at));
      const char* stop = quote == nullptr ? end : static_cast<const char*>(quote);
      const void* backslash = std::memchr(at, '\\', static_cast<size_t>(stop - at));
      if (backslash != nullptr) {  // an escape comes first: skip it and the character it escapes
        at = static_cast<const char*>(backslash) + 1;
        json_escape_ = true;
        continue;
      }
      if (quote == nullptr) return;  // the string goes on in the next line
      json_in_string_ = false;
      at = stop + 1;
      continue;
    }
    const char c = *at++;
    if (c == '"') {
      json_in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++json_depth_;
    } else if (c == '}' || c == ']') {
      --json_depth_;
    }
  }
}

void RecordAssembler::Append(std::string_view line, bool truncated) {
  const size_t needed = buffer_.size() + 1 + line.size();
  if (pending_.line_count >= limits_.max_record_lines || needed > limits_.max_record_bytes) {
    pending_.truncated = true;
    json_depth_ = 0;  // give up on closing it: the record is cut anyway
    return;
  }
  buffer_.push_back('\n');
  buffer_.append(line);
  if (json_depth_ > 0) ScanJson(line);
  ++pending_.line_count;
  pending_.truncated = pending_.truncated || truncated;
}

}  // namespace foreshock
