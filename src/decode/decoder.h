#pragma once

// A Decoder turns the text of one raw record into a LogRecord for one wire format.
// Decoders are stateless: Decode() is const, never throws and may be shared. To support a
// new format, implement this interface and add a row to decoder_registry.cc.

#include <string>
#include <string_view>
#include <vector>

#include "base/time.h"
#include "base/time_zone.h"
#include "decode/log_record.h"

namespace foreshock {

struct DecodeOptions {
  const TimeZone* zone = &TimeZone::Utc();  // --timezone, for stamps that carry none
  // The caller vouches that the text holds no line break (the reader's quiet lane hands
  // over single lines it has framed): a decoder need not look for one.
  bool one_line = false;
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

  // The fast path for lines that turn out to be of no interest: fills only what correlation
  // needs of every line (time, node, cluster), leaves the text empty, and points
  // *searchable at the parts of `text` that Decode() would put into the record's text (the
  // message, exception fields), so the caller can check those for pattern literals before
  // deciding to decode in full. Returns true only when Decode() would certainly return
  // kDecoded with exactly those fields and that text, made of those parts' own bytes (a
  // format with escapes refuses a line that holds one); on any doubt false. A line holding an
  // envelope's marker key (IsEnvelopeMarker) is always a doubt: a line vouched for is known
  // to pass the envelope unwrapper unchanged.
  // REQUIRES: *record was Clear()ed by the caller.
  virtual bool DecodeHeader(std::string_view /*text*/, const DecodeOptions& /*options*/, LogRecord* /*record*/,
                            std::vector<std::string_view>* /*searchable*/) const {
    return false;
  }

 protected:
  Decoder() = default;
};

}  // namespace foreshock
