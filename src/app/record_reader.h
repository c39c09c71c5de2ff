#pragma once

// RecordReader turns one input into decoded records: Source bytes -> LineFramer lines ->
// EnvelopeUnwrapper (journald, Filebeat, containers) -> RecordAssembler records ->
// DecoderSet. It owns the input's counters. A record missing a time, level or node takes it
// from its envelope (journal stamp, _HOSTNAME, PRIORITY, Filebeat host.name); one still
// without a time takes the previous record's; before the input's first timed record (a JVM
// warning at the top of `docker logs`), records are held until it comes and take its time
// (at most kMaxUntimed of them; at the end of an input that never had one they go without a
// time, has_time false); one without a node takes the input's default node. A record in a known format but broken
// (invalid JSON) is counted as malformed and still searched as text; binary data is counted
// and passed over. Problems are reported on stderr at a bounded rate. On a quiet stream a
// pending multi-line record is flushed after `quiet_flush`, so the last record of a burst is
// never held until the next line arrives (a line whose end has not come yet waits for it). With a prefilter, ordinary lines take the quiet
// lane: a line that is a whole record by itself (a JSON line DecodeHeader vouches for, or a
// plain line whose next line starts another record), with nothing pending before it and no
// prefilter literal, is decoded header-only straight from the read buffer, without being
// assembled or copied; the records and counts are those of the full path. SkipQuietRun()
// passes over a run of such lines at once, with the same tests, without handing the
// records out; in a run, a plain record with a stack trace whose lines the assembler would
// join as they stand is passed over too, decoded header-only from the read buffer as the
// assembled record would be, and so is a WARN+ or exception line the novelty detector settles
// by its shape (RecordReaderOptions::settle_shapes). Not thread-safe.

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <utility>

#include "base/report_limiter.h"
#include "base/result.h"
#include "base/time_zone.h"
#include "decode/decoder_registry.h"
#include "framing/envelope.h"
#include "framing/line_framer.h"
#include "framing/record_assembler.h"
#include "app/record_stream.h"
#include "input/source.h"
#include "learn/record_shape.h"
#include "match/gate_tuner.h"
#include "match/matcher.h"

namespace foreshock {

class NoveltyDetector;

struct RecordReaderOptions {
  std::string format = "auto";  // "auto", an envelope name, or a decoder name
  std::shared_ptr<const TimeZone> zone = std::make_shared<TimeZone>(TimeZone::Utc());
  size_t max_line_bytes = 1 << 20;
  AssemblerLimits record_limits;
  Duration quiet_flush = std::chrono::seconds(1);
  std::string default_node;     // for records that name no node
  std::string default_cluster;  // for records that name no cluster
  // When set, a record whose raw text holds none of the matcher's prefilter literals (and
  // no escape that could hide one) is decoded header-only: time, node and cluster, no
  // text. Output is the same; ordinary lines cost a fraction.
  const Matcher* prefilter = nullptr;
  // Records the novelty detector looks at (WARN+, or with exception text) are never passed
  // over: a single line is handed out header-only with its line and shape (LogRecord::raw,
  // ::shape) for the detector to decode if it must, anything else decoded in full.
  bool keep_notable = false;
  // With keep_notable, for a reader used on the detector's own thread (not a
  // PrefetchingReader's): a quiet run passes over a notable line too when the detector
  // settles it by its shape (NoveltyDetector::SettleShaped), as it would the record handed
  // out. Only a line stamped in its input's order, less than `settle_within` after the
  // input's newest, is so settled: the event clock takes such a stamp as it is.
  NoveltyDetector* settle_shapes = nullptr;
  Duration settle_within = std::chrono::minutes(1);
};

struct InputStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t records = 0;
  uint64_t malformed = 0;   // in a known format but broken (still searched as text)
  uint64_t unreadable = 0;  // binary data or invalid UTF-8 in no known format: passed over
  uint64_t truncated = 0;   // cut to --max-line-bytes or the record caps
  uint64_t no_time = 0;     // carried no timestamp; took the previous record's
  uint64_t header_only = 0; // ruled out by the prefilter on their raw text, decoded header-only
  uint64_t quiet_lane = 0;  // of those, one-line records decoded straight from the read buffer
  uint64_t quiet_run = 0;   // of those, passed over in runs (SkipQuietRun), never handed out
  uint64_t settled_in_runs = 0;  // of those, notable lines the detector settled by shape
  uint64_t gates_tuned = 0;      // times the prefilter's gate was tuned to this input (GateTuner)
  // Records per "envelope/format" ("journald-json/es-plain", "/ecs"), with the first line of
  // each, for --explain-format.
  std::map<std::string, uint64_t> formats;
  std::map<std::string, std::string> format_examples;
};

class RecordReader final : public RecordStream {
 public:
  using Next = RecordStream::Next;

  // Fails when options.format names no envelope or format.
  static Result<std::unique_ptr<RecordReader>> Create(std::unique_ptr<Source> source,
                                                      const RecordReaderOptions& options);

  // Fills *record with the next record. kIdle: nothing arrived within `wait` (live pipes
  // only); kEnd: the input is exhausted. An error Status means the input failed.
  Result<Next> Read(LogRecord* record, Duration wait) override;
  // Stops before a line the quiet lane would not take (see above), at the end of the read
  // buffer, and before a record timed at `before` or later, or with no time of its own.
  uint64_t SkipQuietRun(TimePoint before, TimePoint* newest) override;
  bool skips_quiet_runs() const override { return QuietLaneOn(); }

  const std::string& name() const override { return *name_; }
  // Stream offset up to which every record has been handed out (or passed over): the
  // source's bytes before it never need reading again.
  uint64_t processed_offset() const { return untimed_.empty() ? processed_offset_ : untimed_offset_; }
  // The stream's lines before processed_offset().
  uint64_t processed_lines() const { return untimed_.empty() ? processed_lines_ : untimed_lines_; }
  bool live() const override { return source_->live(); }
  bool cut_short() const override { return source_->cut_short(); }
  // The line where the input's last record begins while that record has not ended, else 0:
  // a plain record waiting for more lines (a stack trace) or for quiet_flush, or a line
  // whose end has not been read yet.
  uint64_t unfinished_record_line() const {
    if (assembler_.has_pending()) return assembler_.pending_first_line();
    return framer_.at_line_start() ? 0 : line_number_ + 1;
  }
  const InputStats& stats() const { return stats_; }
  // Switches the prefilter (a reloaded catalog's matcher; null: decode everything in full).
  void set_prefilter(const Matcher* matcher) { options_.prefilter = matcher; }

 private:
  struct Pending {
    std::string text;
    uint64_t line = 0;
    uint64_t last_line = 0;
    bool truncated = false;
    EnvelopeHints hints;
    std::string envelope;
    uint64_t end_offset = 0;
  };

  RecordReader(std::unique_ptr<Source> source, std::unique_ptr<DecoderSet> decoders,
               const RecordReaderOptions& options, std::string envelope_format);
  // Read() before the hold of untimed records.
  Result<Next> ReadDecoded(LogRecord* record, Duration wait);
  // Everything up to stream `offset`, `lines` lines, is processed (no step back).
  void AdvanceProcessed(uint64_t offset, uint64_t lines);
  void Frame(std::string_view bytes);
  // Frames the read buffer's next line (or its partial end) through the stages; true when
  // the line was decoded straight into *record on the quiet lane (see TakeQuiet).
  bool FrameNextLine(LogRecord* record);
  bool TakeQuiet(std::string_view line, std::string_view after, LogRecord* record);
  // A prefilter that may judge raw lines is set: the quiet lane (and its runs) is on.
  bool QuietLaneOn() const { return options_.prefilter != nullptr && options_.prefilter->raw_prefilter_safe(); }
  // Whether the reader's state lets the quiet lane take the next line.
  bool QuietLaneOpen() const;
  // Whether a line is a record by itself, as far as its bytes and the next line's tell.
  // Inline: asked of every line of a quiet run.
  bool IsQuietRecord(std::string_view line, std::string_view after) const {
    if (line.size() > options_.record_limits.max_record_bytes) return false;
    if (RecordAssembler::StartsPlainRecord(line)) {
      // No envelope starts with '['. The line is its record's last only when the next line
      // starts a record (the first bytes tell; no pattern the assembler looks for holds a
      // newline).
      return after.size() >= kTellingBytes && RecordAssembler::StartsPlainRecord(after);
    }
    // A JSON record is whole when DecodeHeader vouches for it (its braces close), and no
    // envelope's (a JSON decoder vouches for no line holding an envelope's marker).
    return line.starts_with("{\"");
  }
  // Bytes of the next line that tell whether it starts a plain record.
  static constexpr size_t kTellingBytes = 16;
  // For a quiet run: the plain record that begins with the line buffer[at, first_end) and
  // owns the lines after it (a stack trace), as *record, with its line count, when the
  // assembler would join those lines to it as they stand: each is one the framer and the
  // unwrapper hand on unchanged (not empty, no "\r", not cut, no envelope, no JSON), the
  // record ends before a line that starts another plain record (whose first kTellingBytes
  // the buffer holds), and it stays within the record caps. False otherwise: the reader
  // assembles it.
  bool PlainRecordSpan(std::string_view buffer, size_t at, size_t first_end, std::string_view* record,
                       uint64_t* lines) const;
  // For a quiet run: whether options_.settle_shapes settles the notable line header_ read,
  // the run's records before it stamped up to `newest`.
  bool SettleInRun(TimePoint newest);
  // The cheap path, for records the prefilter rules out on their raw text: time, node and
  // cluster without a full parse, as views into `text`. False (and *header unspecified)
  // when it does not apply. `options` is line_options_ for a single framed line,
  // decode_options_ for a record. *may_match (when given) is set when the format vouched for
  // the header but the prefilter found a literal in its parts.
  // Inline: asked of every ordinary line.
  bool DecodeHeaderOnly(std::string_view text, const DecodeOptions& options, RecordHeader* header,
                        std::string_view* format, bool* may_match = nullptr, bool* deferred = nullptr) {
    // The format reads time and node without a full parse, and no pattern literal is in the
    // parts that would make the record's text (the decoder vouches that those are the
    // text's bytes but for escapes, and none it holds stands for a byte of a literal). The
    // candidates the prefilter lists for a record it lets through are kept in candidates_.
    if (!QuietLaneOn() || !decoders_->DecodeHeader(text, options, header, format)) return false;
    if (!options_.prefilter->RawTextExact(header->escapes)) return false;
    const LiteralGate* gate = options_.prefilter->gate();
    if (options_.prefilter->MayMatchParts(header->searchable(), &candidates_, gate_tuner_.GateFor(gate))) {
      if (may_match != nullptr) *may_match = true;
      return false;
    }
    if (gate_tuner_.Sample(gate, header->searchable())) ++stats_.gates_tuned;
    if (!options_.keep_notable || !header->notable()) return true;
    // For the novelty detector: a single line it may judge by its shape (deferred), else a
    // record decoded in full. Control-character escapes are not shaped (two such lines of one
    // shape may decode to different text).
    if (deferred == nullptr || header->parts[0].size() >= kMaxShapedMessageBytes ||
        (header->escapes & kEscapedControl) != 0) {
      return false;
    }
    *deferred = true;
    return true;
  }
  // A line the prefilter could not rule out is judged once: SkipQuietRun() stops before it,
  // TakeQuiet() and DecodeNext() then see it again, and decode it in full without asking,
  // with the candidates it listed. The line is known by where it ends in the stream and its
  // length (as framed).
  void RememberMayMatch(uint64_t end_offset, size_t size) {
    may_match_line_ = {end_offset, size};
    std::swap(may_match_candidates_, candidates_);
  }
  bool RememberedMayMatch(uint64_t end_offset, size_t size) const {
    return may_match_line_.first == end_offset && may_match_line_.second == size;
  }
  void FlushAll();
  void Queue(const RawRecord& raw);
  bool DecodeNext(LogRecord* record);
  // Counts a record per envelope/format. Inline: a run of records in the same envelope and
  // format (most inputs) skips the map lookup.
  void CountRecord(std::string_view text, std::string_view envelope, std::string_view format) {
    ++stats_.records;
    if (last_format_count_ != nullptr && format.data() == last_format_.data() && envelope == last_envelope_) {
      ++*last_format_count_;
      return;
    }
    CountInNewFormat(text, envelope, format);
  }
  void CountInNewFormat(std::string_view text, std::string_view envelope, std::string_view format);
  // What every decoded record gets: counts, its place in the input, the envelope's hints.
  void Finish(std::string_view text, uint64_t line, bool truncated, const EnvelopeHints& hints,
              std::string_view envelope, std::string_view format, LogRecord* record);
  void ApplyHints(const EnvelopeHints& hints, LogRecord* record);
  void Report(const Pending& pending, std::string_view why);

  std::unique_ptr<Source> source_;
  const std::string* name_;  // the source's, which names it for life: looked up once
  std::unique_ptr<DecoderSet> decoders_;
  RecordReaderOptions options_;
  DecodeOptions decode_options_;
  DecodeOptions line_options_;  // decode_options_, for the quiet lane's single lines
  LineFramer framer_;
  EnvelopeUnwrapper envelopes_;
  RecordAssembler assembler_;
  // Records framed and not yet decoded, in a ring whose slots keep their buffers: in the
  // steady state no record costs an allocation.
  std::vector<Pending> ring_ = std::vector<Pending>(16);
  size_t ring_head_ = 0;
  size_t ring_count_ = 0;
  uint64_t* last_format_count_ = nullptr;  // stats_.formats entry of the last record
  std::string_view last_format_;
  std::string last_envelope_;
  std::string buffer_;     // for sources that read into the caller's string (Source::ReadView)
  std::string_view data_;  // the bytes read last: in buffer_ or in the source's own buffer
  size_t framed_ = 0;      // bytes of data_ already framed
  RecordHeader header_;  // DecodeHeaderOnly()'s, reused
  ShapeMemo shapes_;     // of the notable lines shaped here
  std::pair<uint64_t, size_t> may_match_line_{UINT64_MAX, 0};  // see RememberMayMatch()
  GateTuner gate_tuner_;                   // fits the prefilter's gate to this input
  ListedCandidates candidates_;            // DecodeHeaderOnly()'s, for a record it let through
  ListedCandidates may_match_candidates_;  // the remembered line's
  uint64_t line_number_ = 0;
  uint64_t processed_offset_ = 0;
  std::chrono::steady_clock::time_point last_data_at_{};
  bool ended_ = false;
  bool checked_magic_ = false;
  TimePoint last_time_{};
  bool have_time_ = false;
  std::string last_node_;  // the last node a line of this input named
  bool out_of_format_ = false;  // the record being finished was malformed or plain text
  static constexpr size_t kMaxUntimed = 1024;
  std::deque<LogRecord> untimed_;           // before the first timed record
  std::optional<LogRecord> first_timed_;    // which gave them their time
  bool handing_out_untimed_ = false;
  uint64_t untimed_offset_ = 0;             // processed_offset_ before the first held
  uint64_t offset_before_untimed_ = 0;
  uint64_t processed_lines_ = 0;  // the stream's lines before processed_offset_
  uint64_t untimed_lines_ = 0;
  uint64_t lines_before_untimed_ = 0;
  // Problems are reported freely 5 times, then once per 10 s.
  ReportLimiter reports_{5, std::chrono::seconds(10)};
  InputStats stats_;
};

}  // namespace foreshock
