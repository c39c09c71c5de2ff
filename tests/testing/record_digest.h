#pragma once

// What a reader hands out, as text to compare: one line per record with what a header-only
// record keeps (line number, time, node, cluster, truncation), then the input's counts.
// The input arrives in reads of random sizes, as from a pipe or a growing file. Used to
// check the reader's quiet lane against full decoding (tests and the reader fuzz target).

#include <random>
#include <sstream>
#include <string>

#include "app/record_reader.h"
#include "base/time.h"

namespace foreshock::testing {

// Hands out a text in chunks of 1 to `largest` bytes.
class ChunkedSource final : public Source {
 public:
  ChunkedSource(std::string text, uint32_t seed, size_t largest)
      : text_(std::move(text)), random_(seed), largest_(largest) {}
  Result<ReadState> Read(std::string* out, Duration /*wait*/) override {
    if (at_ == text_.size()) return ReadState::kEnd;
    const size_t size = std::min(text_.size() - at_, 1 + random_() % largest_);
    out->append(text_, at_, size);
    at_ += size;
    return ReadState::kData;
  }
  const std::string& name() const override { return name_; }

 private:
  std::string text_;
  std::mt19937 random_;
  size_t largest_;
  size_t at_ = 0;
  std::string name_ = "chunked";
};

// `prefilter` null: every record decoded in full. *quiet: records on the quiet lane.
inline std::string RecordDigest(const std::string& text, const Matcher* prefilter, uint32_t seed,
                                size_t largest_read, uint64_t* quiet = nullptr) {
  RecordReaderOptions options;
  options.prefilter = prefilter;
  options.max_line_bytes = 4096;
  options.default_node = "default";
  auto reader = RecordReader::Create(std::make_unique<ChunkedSource>(text, seed, largest_read), options);
  if (!reader.ok()) return reader.status().message();
  std::ostringstream out;
  LogRecord record;
  while (true) {
    auto next = (*reader)->Read(&record, std::chrono::milliseconds(0));
    if (!next.ok()) return out.str() + next.status().message();
    if (*next == RecordReader::Next::kEnd) break;
    if (*next != RecordReader::Next::kRecord) continue;
    const std::string when = record.time_inherited ? "inherited" : FormatTimestamp(record.time);
    out << record.line_number << ' ' << when << ' ' << record.node << ' ' << record.cluster << ' '
        << record.truncated << '\n';
  }
  const InputStats& stats = (*reader)->stats();
  out << "lines " << stats.lines << " records " << stats.records << " malformed " << stats.malformed
      << " unreadable " << stats.unreadable << " truncated " << stats.truncated << " no_time " << stats.no_time;
  for (const auto& [format, count] : stats.formats) out << ' ' << format << '=' << count;
  if (quiet != nullptr) *quiet = stats.quiet_lane;
  return out.str();
}

}  // namespace foreshock::testing
