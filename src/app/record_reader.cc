#include "app/record_reader.h"

#include <spdlog/spdlog.h>

namespace foreshock {
namespace {

constexpr uint64_t kReportedBadRecords = 5;  // per input; the rest only counted

}  // namespace

Result<std::unique_ptr<RecordReader>> RecordReader::Create(std::unique_ptr<Source> source,
                                                           const RecordReaderOptions& options) {
  auto decoders = DecoderSet::Create(options.format);
  if (!decoders.ok()) return decoders.status();
  return std::unique_ptr<RecordReader>(
      new RecordReader(std::move(source), std::move(decoders).value(), options));
}

RecordReader::RecordReader(std::unique_ptr<Source> source, std::unique_ptr<DecoderSet> decoders,
                           const RecordReaderOptions& options)
    : source_(std::move(source)),
      decoders_(std::move(decoders)),
      options_(options),
      framer_(options.max_line_bytes),
      assembler_(options.record_limits) {}

void RecordReader::Frame(std::string_view bytes) {
  auto on_record = [this](const RawRecord& raw) { Queue(raw); };
  framer_.Feed(bytes, [&](std::string_view line, bool truncated) {
    assembler_.Add(line, truncated, ++line_number_, on_record);
  });
}

void RecordReader::Queue(const RawRecord& raw) {
  // Counted here, decoded or not: a cut line is data lost to --max-line-bytes either way.
  if (raw.truncated) ++stats_.truncated;
  ready_.push_back(Pending{std::string(raw.text), raw.first_line, raw.truncated});
}

void RecordReader::FlushAll() {
  auto on_record = [this](const RawRecord& raw) { Queue(raw); };
  framer_.Flush([&](std::string_view line, bool truncated) {
    assembler_.Add(line, truncated, ++line_number_, on_record);
  });
  assembler_.Flush(on_record);
}

Result<RecordReader::Next> RecordReader::Read(LogRecord* record, Duration wait) {
  while (true) {
    while (!ready_.empty()) {
      if (DecodeNext(record)) return Next::kRecord;
    }
    if (ended_) return Next::kEnd;
    buffer_.clear();
    // A pending multi-line record waits for its next line at most quiet_flush.
    const Duration read_wait = assembler_.has_pending() ? std::min(wait, options_.quiet_flush) : wait;
    auto state = source_->Read(&buffer_, read_wait);
    if (!state.ok()) return state.status();
    switch (*state) {
      case Source::ReadState::kData:
        stats_.bytes += buffer_.size();
        Frame(buffer_);
        break;
      case Source::ReadState::kIdle:
        if (assembler_.has_pending()) {
          FlushAll();
          break;
        }
        return Next::kIdle;
      case Source::ReadState::kEnd:
        FlushAll();
        ended_ = true;
        break;
    }
    stats_.lines = framer_.stats().lines;
  }
}

bool RecordReader::DecodeNext(LogRecord* record) {
  Pending pending = std::move(ready_.front());
  ready_.pop_front();
  std::string why;
  std::string_view format;
  const Decoder::Outcome outcome =
      decoders_->Decode(pending.text, options_.decode, record, &why, &format);
  if (outcome != Decoder::Outcome::kDecoded) {
    if (outcome == Decoder::Outcome::kMalformed) {
      ++stats_.malformed;
    } else {
      ++stats_.unrecognized;
      why = "not in a log format foreshock reads";
    }
    ReportBadRecord(pending, why);
    return false;
  }
  ++stats_.records;
  record->source = source_->name();
  record->line_number = pending.line;
  record->truncated = pending.truncated;
  if (record->has_time) {
    last_time_ = record->time;
    have_time_ = true;
  } else {
    ++stats_.no_time;
    record->time = last_time_;
    record->has_time = have_time_;
  }
  if (record->node.empty()) record->node = options_.default_node;
  return true;
}

void RecordReader::ReportBadRecord(const Pending& pending, std::string_view why) {
  const uint64_t bad = stats_.malformed + stats_.unrecognized;
  if (bad > kReportedBadRecords) return;
  spdlog::warn("{}:{}: passed over a record: {}{}", source_->name(), pending.line, why,
               bad == kReportedBadRecords ? " (further bad records in this input are only counted)"
                                          : "");
}

}  // namespace foreshock
