#pragma once

// TextDecoder is the last resort of --format auto: a line in no log format foreshock knows,
// but readable text (valid UTF-8, no control characters but tabs), becomes a record of its
// own with no time, level or node of its own, so patterns still see it. That is how a bare
// "java.lang.OutOfMemoryError: Java heap space" on a container's stdout, or exception text
// pasted without its log header, is caught. A line that starts with a timestamp (a JVM GC
// log) keeps it as its time. Binary garbage is not text: kNotMine.

#include "decode/decoder.h"

namespace foreshock {

class TextDecoder final : public Decoder {
 public:
  TextDecoder() = default;

  std::string_view name() const override { return "text"; }
  Outcome Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                 std::string* why) const override;

  // True when `text` is valid UTF-8 without control characters other than tab and newline.
  static bool IsReadable(std::string_view text);
};

}  // namespace foreshock
