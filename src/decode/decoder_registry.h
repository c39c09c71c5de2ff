#pragma once

// The table of known log formats, and DecoderSet, which decodes each record with either
// the format the user forced (--format NAME) or, with --format auto, the first format that
// recognises it, with "text" as the last resort. Auto mode tries the format that decoded the
// previous record first, so a homogeneous input locks onto its format after one record
// while a mixed pipe is still decoded record by record. Not thread-safe (it remembers the
// last format used).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "decode/decoder.h"

namespace foreshock {

struct FormatInfo {
  std::string_view name;
  std::string_view description;
};

// Every format --format accepts besides "auto", in sniffing order.
const std::vector<FormatInfo>& KnownFormats();

class DecoderSet {
 public:
  // `format` is "auto" or a name from KnownFormats().
  static Result<std::unique_ptr<DecoderSet>> Create(std::string_view format);

  // Decodes `text` into *record (which it Clear()s first). kDecoded: *format names the
  // decoder used. kMalformed: *why says what was wrong; if the text was still readable,
  // *record holds it decoded as "text" and *format is "text", otherwise *format is empty.
  // kNotMine: no format, not even text, accepts it.
  Decoder::Outcome Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                          std::string* why, std::string_view* format);
  // Decoder::DecodeHeader() with the format that decoded the last record, which Decode()
  // would try first. False when it cannot vouch for the record; then call Decode().
  // Inline: the reader asks it of every ordinary line.
  bool DecodeHeader(std::string_view text, const DecodeOptions& options, RecordHeader* header,
                    std::string_view* format) {
    header->Reset();
    if (!decoders_[last_used_]->DecodeHeader(text, options, header)) return false;
    *format = names_[last_used_];
    return true;
  }

 private:
  explicit DecoderSet(std::vector<std::unique_ptr<Decoder>> decoders);

  std::vector<std::unique_ptr<Decoder>> decoders_;
  std::vector<std::string_view> names_;  // the decoders' names, asked once
  size_t last_used_ = 0;
};

}  // namespace foreshock
