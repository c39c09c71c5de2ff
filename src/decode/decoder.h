#pragma once

// A Decoder turns the text of one raw record into a LogRecord for one wire format.
// Decoders are stateless: Decode() is const, never throws and may be shared. To support a
// new format, implement this interface and add a row to decoder_registry.cc.

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "base/time.h"
#include "base/time_zone.h"
#include "decode/log_record.h"

namespace foreshock {

struct DecodeOptions {
  const TimeZone* zone = &TimeZone::Utc();  // --timezone, for stamps that carry none
  // The caller vouches that the text holds no line break (the reader's quiet lane hands
  // over single lines it has framed): a decoder need not look for one.
  bool one_line = false;
  // DecodeHeader() reads the level too (RecordHeader::level): the novelty detector must see
  // every WARN+ record, so the reader's quiet lane may not pass over one.
  bool header_level = false;
};

// The kinds of JSON string escape, as bits, by the bytes they stand for: a header says which
// its parts hold, so a literal holding such a byte is known to be hidden from the raw text.
enum JsonEscape : uint8_t {
  kEscapedWhitespace = 1,  // \n \t \r
  kEscapedQuote = 2,       // \"
  kEscapedBackslash = 4,   // \\ (two bytes)
  kEscapedSlash = 8,       // \/
  kEscapedControl = 16,    // \b \f, and \u0000 to \u001f
};

// What Decoder::DecodeHeader() reads of a record: views into the text it was given, so a
// record that turns out to be of no interest costs no copy.
struct RecordHeader {
  static constexpr size_t kMaxParts = 4;  // the message and three exception fields at most
  TimePoint time{};
  bool has_time = false;
  std::string_view node;  // empty when the record names none
  std::string_view cluster;
  // The parts of the text that Decode() would put into the record's text, in that order, as
  // they stand in the text: a JSON value's escapes are left for Decode() to undo, and
  // `escapes` says which kinds they hold (JsonEscape bits).
  std::array<std::string_view, kMaxParts> parts{};
  size_t part_count = 0;
  uint8_t escapes = 0;
  Level level = Level::kUnknown;  // read only when DecodeOptions::header_level
  // Read with the level: the logger and dataset as they stand in the text (a JSON value with
  // its quotes and escapes), so that two records whose views are equal have the same logger
  // and dataset. Empty where the record names none.
  std::string_view logger;
  std::string_view dataset;

  // WARN and above, or carrying exception text (a part after the message): a record the
  // novelty detector looks at.
  bool notable() const { return level >= Level::kWarn || part_count > 1; }

  std::span<const std::string_view> searchable() const { return {parts.data(), part_count}; }
  void AddPart(std::string_view part) { parts[part_count++] = part; }
  // Empties the header for the next record. The parts past part_count are never read, so
  // they are left as they are: the reader asks this of every line, where a whole
  // RecordHeader{} costs more.
  void Reset() {
    time = {};
    has_time = false;
    node = {};
    cluster = {};
    part_count = 0;
    escapes = 0;
    level = Level::kUnknown;
    logger = {};
    dataset = {};
  }
};

class Decoder {
 public:
  enum class Outcome {
    kDecoded,    // *record is filled in (fields the format lacks stay empty)
    kNotMine,    // the text is not in this format
    kMalformed,  // it is in this format but broken; *why says how. If the decoder salvaged
                 // what it could, record->text is non-empty and the record is usable.
  };

  virtual ~Decoder() = default;
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  virtual std::string_view name() const = 0;

  // REQUIRES: *record was Clear()ed by the caller.
  virtual Outcome Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                         std::string* why) const = 0;

  // The fast path for lines that turn out to be of no interest: reads only what correlation
  // needs of every line (time, node, cluster) and the parts of `text` that Decode() would
  // put into the record's text (the message, exception fields), all as views into `text`,
  // so the caller can check the parts for pattern literals before deciding to decode in
  // full. Returns true only when Decode() would certainly return kDecoded with exactly that
  // time, node and cluster and that text, made of those parts' bytes with their escapes
  // undone (header->escapes says which kinds they hold; a time, node or cluster holding
  // one is refused); on any doubt false. A line holding an envelope's
  // marker key (IsEnvelopeMarker) is always a doubt: a line vouched for is known to pass the
  // envelope unwrapper unchanged.
  // REQUIRES: *header is empty (RecordHeader{} or Reset()).
  virtual bool DecodeHeader(std::string_view /*text*/, const DecodeOptions& /*options*/,
                            RecordHeader* /*header*/) const {
    return false;
  }

 protected:
  Decoder() = default;
};

}  // namespace foreshock
