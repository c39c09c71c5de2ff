#pragma once

// RecordReader turns one input into decoded records: Source bytes -> LineFramer lines ->
// RecordAssembler records -> DecoderSet. It owns the input's counters, gives records with
// no timestamp the previous record's time and records with no node the input's default
// node, and passes over what cannot be decoded (counted, reported on stderr at a bounded
// rate). On a quiet stream it flushes a pending multi-line record after `quiet_flush`, so
// the last record of a burst is never held until the next line arrives.
// Not thread-safe.

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "base/result.h"
#include "decode/decoder_registry.h"
#include "framing/line_framer.h"
#include "framing/record_assembler.h"
#include "input/source.h"

namespace foreshock {

struct RecordReaderOptions {
  std::string format = "auto";
  DecodeOptions decode;
  size_t max_line_bytes = 1 << 20;
  AssemblerLimits record_limits;
  Duration quiet_flush = std::chrono::seconds(1);
  std::string default_node;  // for records that name no node
};

struct InputStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t records = 0;
  uint64_t malformed = 0;     // in a known format but broken (invalid JSON, bad header)
  uint64_t unrecognized = 0;  // in no format foreshock reads
  uint64_t truncated = 0;     // cut to --max-line-bytes or the record caps
  uint64_t no_time = 0;       // carried no timestamp; inherited the previous record's
};

class RecordReader {
 public:
  enum class Next { kRecord, kIdle, kEnd };

  static Result<std::unique_ptr<RecordReader>> Create(std::unique_ptr<Source> source,
                                                      const RecordReaderOptions& options);

  // Fills *record with the next record. kIdle: nothing arrived within `wait` (live pipes
  // only); kEnd: the input is exhausted. An error Status means the input failed.
  Result<Next> Read(LogRecord* record, Duration wait);

  const std::string& name() const { return source_->name(); }
  const InputStats& stats() const { return stats_; }

 private:
  struct Pending {
    std::string text;
    uint64_t line = 0;
    bool truncated = false;
  };

  RecordReader(std::unique_ptr<Source> source, std::unique_ptr<DecoderSet> decoders,
               const RecordReaderOptions& options);
  void Frame(std::string_view bytes);
  void Queue(const RawRecord& raw);
  void FlushAll();
  bool DecodeNext(LogRecord* record);
  void ReportBadRecord(const Pending& pending, std::string_view why);

  std::unique_ptr<Source> source_;
  std::unique_ptr<DecoderSet> decoders_;
  RecordReaderOptions options_;
  LineFramer framer_;
  RecordAssembler assembler_;
  std::deque<Pending> ready_;
  std::string buffer_;
  uint64_t line_number_ = 0;
  bool ended_ = false;
  bool idle_since_data_ = false;
  TimePoint last_time_{};
  bool have_time_ = false;
  InputStats stats_;
};

}  // namespace foreshock
