#include "app/record_reader.h"

#include <algorithm>
#include <cstring>

#include <spdlog/spdlog.h>

#include "learn/novelty_detector.h"

namespace foreshock {
namespace {

// Problems reported per input: the first few, then at most one per interval with a count
// of what was left unsaid, so a flood of garbage cannot flood stderr.

const EnvelopeHints kNoHints;  // of a line that came without an envelope

// A record decoded header-only: its time, node and cluster, and no text.
void FillFromHeader(const RecordHeader& header, LogRecord* record) {
  record->Clear();
  record->time = header.time;
  record->has_time = header.has_time;
  // Read only with keep_notable (unknown otherwise): an envelope's level hint must not stand
  // in for the level the record states, as it does not when decoded in full.
  record->level = header.level;
  record->node.assign(header.node);
  record->cluster.assign(header.cluster);
}

bool IsCompressed(std::string_view head) {
  return (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
          static_cast<unsigned char>(head[1]) == 0x8b) ||
         (head.size() >= 4 && head.substr(0, 4) == std::string_view("\x28\xb5\x2f\xfd", 4));
}

}  // namespace

Result<std::unique_ptr<RecordReader>> RecordReader::Create(std::unique_ptr<Source> source,
                                                           const RecordReaderOptions& options) {
  const bool envelope = EnvelopeUnwrapper::Knows(options.format);
  auto decoders = DecoderSet::Create(envelope ? "auto" : options.format);
  if (!decoders.ok()) {
    std::string known = "auto";
    for (const FormatInfo& info : KnownFormats()) known += ", " + std::string(info.name);
    for (std::string_view name : EnvelopeNames()) known += ", " + std::string(name);
    return Status::InvalidArgument("unknown format '" + options.format + "' (known: " + known + ")");
  }
  return std::unique_ptr<RecordReader>(new RecordReader(
      std::move(source), std::move(decoders).value(), options, envelope ? options.format : "auto"));
}

RecordReader::RecordReader(std::unique_ptr<Source> source, std::unique_ptr<DecoderSet> decoders,
                           const RecordReaderOptions& options, std::string envelope_format)
    : source_(std::move(source)),
      name_(&source_->name()),
      decoders_(std::move(decoders)),
      options_(options),
      framer_(options.max_line_bytes),
      envelopes_(std::move(envelope_format), options.max_line_bytes, options.zone.get()),
      assembler_(options.record_limits) {
  decode_options_.zone = options_.zone.get();
  decode_options_.header_level = options_.keep_notable;
  line_options_ = decode_options_;
  line_options_.one_line = true;
}

void RecordReader::Frame(std::string_view bytes) {
  auto on_record = [this](const RawRecord& raw) { Queue(raw); };
  framer_.Feed(bytes, [&](std::string_view line, bool truncated) {
    ++line_number_;
    envelopes_.Add(line, [&](std::string_view inner, const EnvelopeHints& hints, std::string_view envelope) {
      assembler_.Add(inner, truncated, line_number_, framer_.line_end(), hints, envelope, on_record);
    });
  });
}

bool RecordReader::FrameNextLine(LogRecord* record) {
  // (Views built, not substr(), as in SkipQuietRun().)
  const std::string_view rest(data_.data() + framed_, data_.size() - framed_);
  const auto* newline = static_cast<const char*>(std::memchr(rest.data(), '\n', rest.size()));
  if (newline == nullptr || !framer_.at_line_start()) {
    // The partial end of the buffer, or the end of a line the last buffer began: the framer
    // keeps or completes it.
    const size_t upto = newline == nullptr ? rest.size() : static_cast<size_t>(newline - rest.data()) + 1;
    Frame(rest.substr(0, upto));
    framed_ += upto;
    return false;
  }
  const std::string_view line(rest.data(), static_cast<size_t>(newline - rest.data()));
  const std::string_view after(newline + 1, rest.size() - line.size() - 1);
  // A plain record's first line ends the pending record: that one goes first (exactly as the
  // assembler would let it go), and this line may then take the quiet lane.
  if (assembler_.has_pending() && envelopes_.sniffing() && !envelopes_.joining() &&
      RecordAssembler::StartsPlainRecord(line) && !assembler_.Joins(line)) {
    assembler_.Flush([this](const RawRecord& raw) { Queue(raw); });
    return false;
  }
  framed_ += line.size() + 1;
  bool quiet = false;
  framer_.FeedLine(line, [&](std::string_view framed, bool truncated) {
    ++line_number_;
    quiet = !truncated && TakeQuiet(framed, after, record);
    if (quiet) return;
    // A line whose header was read whole but which the prefilter let through (see
    // RememberMayMatch()) is, like one the quiet lane takes, a record of its own that the
    // unwrapper passes through: it goes to be decoded in full as it is.
    if (!truncated && RememberedMayMatch(framer_.line_end(), framed.size()) && QuietLaneOpen() &&
        IsQuietRecord(framed, after)) {
      Queue(RawRecord{.text = framed, .first_line = line_number_, .line_count = 1, .end_offset = framer_.line_end(),
                      .hints = &kNoHints});
      return;
    }
    envelopes_.Add(framed, [&](std::string_view inner, const EnvelopeHints& hints, std::string_view envelope) {
      assembler_.Add(inner, truncated, line_number_, framer_.line_end(), hints, envelope,
                     [this](const RawRecord& raw) { Queue(raw); });
    });
  });
  return quiet;
}

bool RecordReader::QuietLaneOpen() const {
  // Nothing before the next line still to go out; sniffed for envelopes, and no piece of a
  // split line waiting: a line the quiet lane takes is one the unwrapper would pass through.
  return ring_count_ == 0 && !assembler_.has_pending() && envelopes_.sniffing() && !envelopes_.joining();
}

bool RecordReader::TakeQuiet(std::string_view line, std::string_view after, LogRecord* record) {
  if (!QuietLaneOpen() || !IsQuietRecord(line, after) || RememberedMayMatch(framer_.line_end(), line.size())) {
    return false;
  }
  std::string_view format;
  bool may_match = false;
  bool deferred = false;
  if (!DecodeHeaderOnly(line, line_options_, &header_, &format, &may_match, &deferred)) {
    if (may_match) RememberMayMatch(framer_.line_end(), line.size());
    return false;
  }
  FillFromHeader(header_, record);
  if (deferred) {
    record->raw.assign(line);
    const RecordShape shape = shapes_.ShapeOf(header_);
    record->shape = shape.id;
    record->shape_values = shape.values;
  }
  AdvanceProcessed(framer_.line_end(), line_number_);
  ++stats_.header_only;
  ++stats_.quiet_lane;
  out_of_format_ = false;
  Finish(line, line_number_, /*truncated=*/false, kNoHints, /*envelope=*/"", format, record);
  return true;
}

uint64_t RecordReader::SkipQuietRun(TimePoint before, TimePoint* newest) {
  // Only where the quiet lane would take the next line (Read(), FrameNextLine()).
  if (!QuietLaneOn() || !framer_.at_line_start() || !QuietLaneOpen()) return 0;
  // Records held for want of a time go first, timed by the next record.
  if (!untimed_.empty() || handing_out_untimed_) return 0;
  const std::string_view buffer = data_;
  size_t at = framed_;
  uint64_t skipped = 0;
  uint64_t skipped_lines = 0;
  TimePoint latest = TimePoint::min();
  TimePoint last = TimePoint::min();
  std::string_view last_named;  // the last node a record of the run named (into the buffer)
  while (at < buffer.size()) {
    const auto* newline = static_cast<const char*>(std::memchr(buffer.data() + at, '\n', buffer.size() - at));
    if (newline == nullptr) break;
    const size_t end = static_cast<size_t>(newline - buffer.data());
    // Views built, not substr(): substr() is a call, with its bounds check, on every line.
    const std::string_view line(buffer.data() + at, end - at);
    // TakeQuiet's tests, on a line the framer would hand out unchanged (not cut, no "\r").
    if (line.empty() || line.back() == '\r' || line.size() > options_.max_line_bytes) break;
    // The record: the line, or a plain record's first line and the lines it owns.
    std::string_view record = line;
    uint64_t lines = 1;
    const DecodeOptions* options = &line_options_;
    if (!IsQuietRecord(line, std::string_view(newline + 1, buffer.size() - end - 1))) {
      if (!RecordAssembler::StartsPlainRecord(line) || !PlainRecordSpan(buffer, at, end, &record, &lines)) break;
      options = &decode_options_;  // as DecodeNext() decodes the assembled record
    }
    const size_t record_end = at + record.size();
    std::string_view format;
    bool may_match = false;
    bool notable = false;  // a notable line to settle by its shape
    const bool settle = options_.settle_shapes != nullptr && lines == 1;
    if (!DecodeHeaderOnly(record, *options, &header_, &format, &may_match, settle ? &notable : nullptr)) {
      // Where the record ends in the stream: the framer stands at data_[framed_].
      if (may_match) RememberMayMatch(framer_.line_end() + (record_end + 1 - framed_), record.size());
      break;
    }
    if (!header_.has_time || header_.time >= before) break;  // Read() hands it out
    if (notable) {
      if (!SettleInRun(skipped > 0 ? latest : TimePoint::min())) break;
      ++stats_.settled_in_runs;
    }
    // What TakeQuiet() (or DecodeNext()), Finish() and ApplyHints() do for a header-only
    // record with a time (the counts and times of the whole run are settled after the loop).
    CountRecord(record, /*envelope=*/"", format);
    if (!header_.node.empty()) last_named = header_.node;
    last = header_.time;
    latest = std::max(latest, last);
    ++skipped;
    skipped_lines += lines;
    at = record_end + 1;
  }
  if (skipped > 0) {
    stats_.header_only += skipped;
    stats_.quiet_lane += skipped;
    stats_.quiet_run += skipped;
    last_time_ = last;
    have_time_ = true;
    if (!last_named.empty() && last_named != last_node_) last_node_ = last_named;
    *newest = latest;
    framer_.SkipLines(skipped_lines, at - framed_);
    line_number_ += skipped_lines;
    AdvanceProcessed(framer_.line_end(), line_number_);
    stats_.lines = framer_.stats().lines;
    framed_ = at;
  }
  return skipped;
}

bool RecordReader::SettleInRun(TimePoint newest) {
  // In the input's order, and near its newest stamp, as the event clock takes it as it is.
  if (!have_time_) return false;
  newest = std::max(newest, last_time_);
  if (header_.time < newest || header_.time - newest >= options_.settle_within) return false;
  // The node and cluster Finish() would give it: a quiet run's records have no envelope.
  const std::string_view node = header_.node.empty() ? std::string_view(options_.default_node) : header_.node;
  const std::string_view cluster =
      header_.cluster.empty() ? std::string_view(options_.default_cluster) : header_.cluster;
  // The records before it in the run moved event time, as they would have one by one.
  options_.settle_shapes->Cover(newest);
  return options_.settle_shapes->SettleShaped({header_.time, node, cluster, {shapes_.IdOf(header_), 0},
                                               header_.searchable()});
}

bool RecordReader::PlainRecordSpan(std::string_view buffer, size_t at, size_t first_end, std::string_view* record,
                                   uint64_t* lines) const {
  const AssemblerLimits& limits = options_.record_limits;
  size_t end = first_end;  // of the record's last line so far
  uint64_t count = 1;
  if (end - at >= limits.max_record_bytes) return false;  // the assembler cuts it
  while (true) {
    const std::string_view rest = buffer.substr(end + 1);
    if (rest.size() < kTellingBytes) return false;  // the next line's start is not all here
    if (RecordAssembler::StartsPlainRecord(rest)) break;
    const auto* newline = static_cast<const char*>(std::memchr(rest.data(), '\n', rest.size()));
    if (newline == nullptr) return false;
    const std::string_view line = rest.substr(0, static_cast<size_t>(newline - rest.data()));
    if (line.empty() || line.back() == '\r' || line.size() > options_.max_line_bytes || line[0] == '{' ||
        !envelopes_.PassesThrough(line)) {
      return false;
    }
    end += 1 + line.size();
    if (++count >= limits.max_record_lines || end - at >= limits.max_record_bytes) return false;
  }
  *record = buffer.substr(at, end - at);
  *lines = count;
  return true;
}

void RecordReader::FlushAll() {
  auto on_record = [this](const RawRecord& raw) { Queue(raw); };
  framer_.Flush([&](std::string_view line, bool truncated) {
    ++line_number_;
    envelopes_.Add(line, [&](std::string_view inner, const EnvelopeHints& hints, std::string_view envelope) {
      assembler_.Add(inner, truncated, line_number_, framer_.line_end(), hints, envelope, on_record);
    });
  });
  assembler_.Flush(on_record);
}

void RecordReader::Queue(const RawRecord& raw) {
  // Counted here, decoded or not: a cut line is data lost to --max-line-bytes either way.
  if (raw.truncated) ++stats_.truncated;
  if (ring_count_ == ring_.size()) {  // full: grow, oldest first
    std::rotate(ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(ring_head_), ring_.end());
    ring_head_ = 0;
    ring_.resize(ring_.size() * 2);
  }
  Pending& pending = ring_[(ring_head_ + ring_count_++) % ring_.size()];
  if (raw.text_storage != nullptr) {
    pending.text.swap(*raw.text_storage);  // the assembler's buffer: taken, not copied
  } else {
    pending.text.assign(raw.text);
  }
  pending.line = raw.first_line;
  pending.last_line = raw.first_line + raw.line_count - 1;
  pending.truncated = raw.truncated;
  const EnvelopeHints& hints = raw.hints != nullptr ? *raw.hints : kNoHints;
  if (!hints.empty() || !pending.hints.empty()) pending.hints = hints;  // most records have none
  pending.envelope.assign(raw.envelope);
  pending.end_offset = raw.end_offset;
}

Result<RecordReader::Next> RecordReader::Read(LogRecord* record, Duration wait) {
  while (true) {
    if (handing_out_untimed_) {
      // The records held for want of a time, then the first timed record, which gave them theirs.
      if (!untimed_.empty()) {
        std::swap(*record, untimed_.front());
        untimed_.pop_front();
        return Next::kRecord;
      }
      handing_out_untimed_ = false;
      if (first_timed_) {
        std::swap(*record, *first_timed_);
        first_timed_.reset();
        return Next::kRecord;
      }
    }
    auto next = ReadDecoded(record, wait);
    if (!next.ok() || *next == Next::kIdle) return next;
    if (*next == Next::kEnd) {
      if (untimed_.empty()) return next;
      // No record of this input had a time: the held ones go without one.
      handing_out_untimed_ = true;
      continue;
    }
    if (record->has_time && untimed_.empty()) return next;
    if (!record->has_time) {
      // Before the input's first timed record: held until it comes (the stream's start is
      // often a JVM warning or a shell's line), within a bound.
      if (untimed_.empty()) {
        untimed_offset_ = offset_before_untimed_;
        untimed_lines_ = lines_before_untimed_;
      }
      untimed_.push_back(*record);
      if (untimed_.size() < kMaxUntimed) continue;
      handing_out_untimed_ = true;
      continue;
    }
    for (LogRecord& untimed : untimed_) {
      untimed.time = record->time;
      untimed.has_time = true;
      untimed.time_inherited = true;
    }
    first_timed_ = *record;
    handing_out_untimed_ = true;
  }
}

Result<RecordReader::Next> RecordReader::ReadDecoded(LogRecord* record, Duration wait) {
  offset_before_untimed_ = processed_offset_;
  lines_before_untimed_ = processed_lines_;
  while (true) {
    while (ring_count_ > 0) {
      if (DecodeNext(record)) return Next::kRecord;
    }
    if (framed_ < data_.size()) {
      // With a prefilter, line by line: ordinary lines take the quiet lane. Without, the
      // whole buffer at once.
      bool quiet = false;
      if (QuietLaneOn()) {
        quiet = FrameNextLine(record);
      } else {
        Frame(data_.substr(framed_));
        framed_ = data_.size();
      }
      stats_.lines = framer_.stats().lines;
      if (quiet) return Next::kRecord;
      continue;
    }
    if (ended_) return Next::kEnd;
    data_ = {};
    framed_ = 0;
    // A pending multi-line record waits for its next line at most quiet_flush.
    const Duration read_wait = assembler_.has_pending() ? std::min(wait, options_.quiet_flush) : wait;
    auto state = source_->ReadView(&buffer_, &data_, read_wait);
    if (!state.ok()) return state.status();
    if (!checked_magic_ && !data_.empty()) {
      checked_magic_ = true;
      if (IsCompressed(data_)) {
        spdlog::warn("{}: compressed data (gzip or zstd) passed over; decompress it first "
                     "(zcat FILE | foreshock scan) or use replay",
                     *name_);
        ++stats_.unreadable;
        ended_ = true;
        return Next::kEnd;
      }
    }
    switch (*state) {
      case Source::ReadState::kData:
        stats_.bytes += data_.size();
        last_data_at_ = std::chrono::steady_clock::now();
        break;  // framed at the top of the loop
      case Source::ReadState::kRotated:
        FlushAll();  // the old file's last line and record are complete
        break;
      case Source::ReadState::kIdle:
        // A pending record is complete once the input has been quiet for quiet_flush. A
        // line without its end is not: its writer is part way through it (a slow machine
        // can pause a writer for seconds), and its end comes, or the file rotates or ends.
        if (assembler_.has_pending() &&
            std::chrono::steady_clock::now() - last_data_at_ >= options_.quiet_flush) {
          assembler_.Flush([this](const RawRecord& raw) { Queue(raw); });
          break;
        }
        if (ring_count_ == 0) AdvanceProcessed(assembler_.skipped_end(), assembler_.skipped_end_line());
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
  // Decoded in place; the slot (and its buffers) then serves a later record.
  const Pending& pending = ring_[ring_head_];
  struct Advance {
    RecordReader* reader;
    ~Advance() {
      reader->ring_head_ = (reader->ring_head_ + 1) % reader->ring_.size();
      --reader->ring_count_;
    }
  } advance{this};
  AdvanceProcessed(pending.end_offset, pending.last_line);
  std::string why;
  std::string_view format;
  const bool remembered = RememberedMayMatch(pending.end_offset, pending.text.size());
  bool may_match = remembered;
  bool header_only = !may_match && DecodeHeaderOnly(pending.text, decode_options_, &header_, &format, &may_match);
  // A record that states no level takes its envelope's (ApplyHints): in a WARN envelope it
  // is notable, and the novelty detector reads its text.
  if (header_only && options_.keep_notable && header_.level == Level::kUnknown && pending.hints.level >= Level::kWarn) {
    header_only = false;
  }
  if (header_only) {
    ++stats_.header_only;
    FillFromHeader(header_, record);
  }
  const Decoder::Outcome outcome =
      header_only ? Decoder::Outcome::kDecoded : decoders_->Decode(pending.text, decode_options_, record, &why, &format);
  // The prefilter found a literal in the parts the header vouched for: the text decoded
  // in full holds those parts as they are (joined by line breaks, which no literal spans).
  record->prefiltered = may_match && outcome == Decoder::Outcome::kDecoded;
  if (record->prefiltered) std::swap(record->candidates, remembered ? may_match_candidates_ : candidates_);
  if (outcome == Decoder::Outcome::kMalformed) {
    ++stats_.malformed;
    Report(pending, why + (format.empty() ? "; passed over"
                           : format == "text" ? "; searched as plain text" : ""));
  } else if (outcome == Decoder::Outcome::kNotMine) {
    ++stats_.unreadable;
    Report(pending, "binary data or invalid UTF-8 in no known format; passed over");
  }
  if (format.empty()) return false;
  out_of_format_ = outcome == Decoder::Outcome::kMalformed || format == "text";
  Finish(pending.text, pending.line, pending.truncated, pending.hints, pending.envelope, format, record);
  return true;
}

void RecordReader::CountInNewFormat(std::string_view text, std::string_view envelope, std::string_view format) {
  std::string key(envelope);
  key += '/';
  key += format;
  last_format_count_ = &stats_.formats[key];
  if (*last_format_count_ == 0) stats_.format_examples[key] = std::string(text.substr(0, 300));
  last_format_ = format;
  last_envelope_ = envelope;
  ++*last_format_count_;
}

void RecordReader::AdvanceProcessed(uint64_t offset, uint64_t lines) {
  if (offset < processed_offset_) return;
  processed_offset_ = offset;
  processed_lines_ = lines;
}

void RecordReader::Finish(std::string_view text, uint64_t line, bool truncated, const EnvelopeHints& hints,
                          std::string_view envelope, std::string_view format, LogRecord* record) {
  CountRecord(text, envelope, format);
  record->format = format;
  if (record->envelope != envelope) record->envelope.assign(envelope);
  if (const auto where = source_->Locate(line)) {  // a followed file's line, in the file it was in
    record->source = where->file;
    record->line_number = where->line;
  } else {
    record->source = *name_;
    record->line_number = line;
  }
  record->truncated = truncated;
  ApplyHints(hints, record);
}

void RecordReader::ApplyHints(const EnvelopeHints& hints, LogRecord* record) {
  if (!record->has_time && hints.time) {
    record->time = *hints.time;
    record->has_time = true;
  }
  // Most records have no hints: only what a hint fills in is assigned (an assignment costs
  // even when both strings are empty).
  if (record->level == Level::kUnknown) record->level = hints.level;
  if (record->logger.empty() && !hints.logger.empty()) record->logger = hints.logger;
  if (record->cluster.empty()) {
    const std::string& cluster = !hints.cluster.empty() ? hints.cluster : options_.default_cluster;
    if (!cluster.empty()) record->cluster = cluster;
  }
  if (record->dataset.empty() && !hints.dataset.empty()) record->dataset = hints.dataset;
  // A line out of its input's format (cut, garbled, a bare exception line) that names no
  // node is the node its input last named, not a node named after the file. (A well-formed
  // line without a node, such as an ES 5 plain line logged before the node had its name,
  // takes the file's.)
  if (record->node.empty()) {
    const std::string& node = !hints.node.empty()                      ? hints.node
                              : !hints.host.empty()                    ? hints.host
                              : out_of_format_ && !last_node_.empty()  ? last_node_
                                                                       : options_.default_node;
    if (!node.empty()) record->node = node;
  } else if (record->node != last_node_) {
    last_node_ = record->node;
  }
  if (!record->file.empty() || !hints.file.empty()) record->file = hints.file;
  if (record->has_time) {
    last_time_ = record->time;
    have_time_ = true;
    return;
  }
  ++stats_.no_time;
  if (!have_time_) return;  // Read() holds it until the input's first timed record
  record->has_time = true;
  record->time_inherited = true;
  record->time = last_time_;
}

void RecordReader::Report(const Pending& pending, std::string_view why) {
  std::string more;
  if (!reports_.Allow(&more)) return;
  spdlog::warn("{}:{}: {}{}", *name_, pending.line, why, more);
}

}  // namespace foreshock
