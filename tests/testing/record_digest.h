#pragma once

// What a reader hands out, as text to compare: one line per record with what a header-only
// record keeps (line number, time, node, cluster, truncation), then the input's counts.
// The input arrives in reads of random sizes, as from a pipe or a growing file. Used to
// check the reader's quiet lane and quiet runs against full decoding (tests and the reader
// fuzz target).

#include <random>
#include <sstream>
#include <vector>
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

// One record as a header-only record keeps it: line number, time, node, cluster, truncation.
inline std::string RecordRow(const LogRecord& record) {
  const std::string when = record.time_inherited ? "inherited" : FormatTimestamp(record.time);
  std::ostringstream out;
  out << record.line_number << ' ' << when << ' ' << record.node << ' ' << record.cluster << ' ' << record.truncated;
  return out.str();
}

inline std::string StatsRow(const InputStats& stats) {
  std::ostringstream out;
  out << "lines " << stats.lines << " records " << stats.records << " malformed " << stats.malformed
      << " unreadable " << stats.unreadable << " truncated " << stats.truncated << " no_time " << stats.no_time;
  for (const auto& [format, count] : stats.formats) out << ' ' << format << '=' << count;
  return out.str();
}

inline Result<std::unique_ptr<RecordReader>> ChunkedReader(const std::string& text, const Matcher* prefilter,
                                                           uint32_t seed, size_t largest_read, bool keep_notable = false) {
  RecordReaderOptions options;
  options.prefilter = prefilter;
  options.keep_notable = keep_notable;
  options.max_line_bytes = 4096;
  options.default_node = "default";
  return RecordReader::Create(std::make_unique<ChunkedSource>(text, seed, largest_read), options);
}

// Reads `reader` to its end in reads that wait for nothing, calling `each` with every record;
// false, with the error appended to *out, when the input fails.
template <typename Each>
bool ReadEveryRecord(RecordReader* reader, std::ostringstream* out, Each each) {
  LogRecord record;
  while (true) {
    auto next = reader->Read(&record, std::chrono::milliseconds(0));
    if (!next.ok()) {
      *out << next.status().message();
      return false;
    }
    if (*next == RecordReader::Next::kEnd) return true;
    if (*next == RecordReader::Next::kRecord) each(&record);
  }
}

// The records the novelty detector looks at (WARN and above, or with exception text), with
// level and text, as a reader with novelty on hands them out (keep_notable): the quiet lane
// must pass over none of them, and a line it hands out by its shape must decode to the record.
inline std::string NotableDigest(const std::string& text, const Matcher* prefilter, uint32_t seed, size_t largest_read) {
  auto reader = ChunkedReader(text, prefilter, seed, largest_read, /*keep_notable=*/true);
  if (!reader.ok()) return reader.status().message();
  std::ostringstream out;
  ReadEveryRecord(reader->get(), &out, [&](LogRecord* record) {
    if (record->shape != 0) {
      // Handed out by its shape: the line it kept, decoded as the detector would.
      if (record->raw.empty()) {
        out << RecordRow(*record) << " shaped without its line\n";
        return;
      }
      auto decoders = DecoderSet::Create(record->format);
      LogRecord decoded;
      std::string why;
      std::string_view format;
      (*decoders)->Decode(record->raw, DecodeOptions{}, &decoded, &why, &format);
      record->level = decoded.level;
      record->text = decoded.text;
      record->message_length = decoded.message_length;
    }
    if (record->level >= Level::kWarn || record->text.size() > record->message_length) {
      out << RecordRow(*record) << ' ' << LevelName(record->level) << ' ' << record->text << '\n';
    }
  });
  return out.str();
}

// `prefilter` null: every record decoded in full. *quiet: records on the quiet lane.
inline std::string RecordDigest(const std::string& text, const Matcher* prefilter, uint32_t seed,
                                size_t largest_read, uint64_t* quiet = nullptr) {
  auto reader = ChunkedReader(text, prefilter, seed, largest_read);
  if (!reader.ok()) return reader.status().message();
  std::ostringstream out;
  if (!ReadEveryRecord(reader->get(), &out, [&](LogRecord* record) { out << RecordRow(*record) << '\n'; })) {
    return out.str();
  }
  out << StatsRow((*reader)->stats());
  if (quiet != nullptr) *quiet = (*reader)->stats().quiet_lane;
  return out.str();
}

// Reads `text` with the prefilter, calling SkipQuietRun() before every record with bounds
// drawn from `seed` (none, or a few seconds past the last record handed out), and holds it
// against full decoding: each record handed out is the next one full decoding gives, each
// run passes over exactly the next records (each with a time of its own, before the
// bound, the newest as reported), and the counts are the same. Returns what differs, or ""
// when nothing does; *passed_over: records the runs passed over.
inline std::string CheckQuietRuns(const std::string& text, const Matcher* prefilter, uint32_t seed,
                                  size_t largest_read, uint64_t* passed_over = nullptr) {
  struct Full {
    std::string row;
    TimePoint time;
    bool own_time;
  };
  std::vector<Full> full;
  auto full_reader = ChunkedReader(text, nullptr, seed, largest_read);
  if (!full_reader.ok()) return full_reader.status().message();
  LogRecord record;
  while (true) {
    auto next = (*full_reader)->Read(&record, std::chrono::milliseconds(0));
    if (!next.ok()) return next.status().message();
    if (*next == RecordReader::Next::kEnd) break;
    if (*next == RecordReader::Next::kRecord) full.push_back({RecordRow(record), record.time, !record.time_inherited});
  }
  auto reader = ChunkedReader(text, prefilter, seed, largest_read);
  if (!reader.ok()) return reader.status().message();
  std::mt19937 random(seed);
  size_t at = 0;  // into `full`
  uint64_t skipped_in_all = 0;
  TimePoint last{};
  while (true) {
    const TimePoint before = random() % 3 == 0 ? TimePoint::max() : last + std::chrono::seconds(random() % 4);
    TimePoint newest;
    const uint64_t skipped = (*reader)->SkipQuietRun(before, &newest);
    if (skipped > 0) {
      if (at + skipped > full.size()) return "a run passed over records that full decoding does not have";
      TimePoint seen = TimePoint::min();
      for (size_t i = at; i < at + skipped; ++i) {
        if (!full[i].own_time || full[i].time >= before) return "a run passed over " + full[i].row + " (past its bound)";
        seen = std::max(seen, full[i].time);
      }
      if (seen != newest) return "a run reported the wrong newest time, after " + full[at].row;
      at += skipped;
      skipped_in_all += skipped;
    }
    auto next = (*reader)->Read(&record, std::chrono::milliseconds(0));
    if (!next.ok()) return next.status().message();
    if (*next == RecordReader::Next::kEnd) break;
    if (*next != RecordReader::Next::kRecord) continue;
    if (at == full.size()) return "an extra record " + RecordRow(record);
    if (RecordRow(record) != full[at].row) return "handed out " + RecordRow(record) + " where full decoding has " + full[at].row;
    ++at;
    last = record.time;
  }
  if (at != full.size()) return "records missing from " + full[at].row;
  if (StatsRow((*reader)->stats()) != StatsRow((*full_reader)->stats())) {
    return "counts " + StatsRow((*reader)->stats()) + " where full decoding counts " + StatsRow((*full_reader)->stats());
  }
  if (passed_over != nullptr) *passed_over = skipped_in_all;
  return "";
}

}  // namespace foreshock::testing
