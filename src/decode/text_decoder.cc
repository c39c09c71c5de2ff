#include "decode/text_decoder.h"

#include "base/timestamp_parser.h"

namespace foreshock {

bool TextDecoder::IsReadable(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7f) return false;
      ++i;
      continue;
    }
    size_t length = 0;
    if ((byte & 0xe0) == 0xc0 && byte >= 0xc2) {
      length = 2;
    } else if ((byte & 0xf0) == 0xe0) {
      length = 3;
    } else if ((byte & 0xf8) == 0xf0 && byte <= 0xf4) {
      length = 4;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

Decoder::Outcome TextDecoder::Decode(std::string_view text, const DecodeOptions& options,
                                     LogRecord* record, std::string* why) const {
  if (!IsReadable(text)) {
    *why = "binary data or invalid UTF-8";
    return Outcome::kNotMine;
  }
  // A line that starts with a stamp (JVM GC logs: "2018-06-11T01:53:11.382+0000: 1396.7: ...")
  // keeps its time.
  if (auto stamp = ParseTimestamp(text, *options.zone);
      stamp && stamp->length < text.size() && (text[stamp->length] == ':' || text[stamp->length] == ' ')) {
    record->time = stamp->time;
    record->has_time = true;
  }
  const size_t newline = text.find('\n');
  record->text.assign(text);
  record->message_length = newline == std::string_view::npos ? text.size() : newline;
  return Outcome::kDecoded;
}

}  // namespace foreshock
