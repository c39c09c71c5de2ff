#pragma once

// JvmGcDecoder reads the JVM's unified log (JDK 9+, `-Xlog`), the `logs/gc.log` Elasticsearch
// writes beside its own logs: a line is bracketed decorations, then the message,
//   [2026-11-29T02:54:11.482+0000][12345][info][gc,heap     ] GC(12) Pause Young ... 12.3ms
// The decorations are any of time (utctime or time), uptime ("12.345s"), pid or tid (digits),
// level (trace, debug, info, warning, error; info when absent) and tags, which come last and
// mark the format. Every decoration must be one of these, so Elasticsearch's own plain lines
// ("[time][WARN ][o.e.x.Y] [node] ...") are never taken for it. The record's logger is the
// tags ("gc,heap"), its dataset "jvm.gc"; the line names no node, so the reader's default
// (the file's folder for gc.log, or --node) applies. JDK 8's GC log (Elasticsearch 6 and
// older on Java 8) is read too: "2018-03-03T19:37:06.157+0500: 14597.826: [GC (CMS Initial
// Mark) ...]", its time, then its uptime in seconds, then the message; logger "gc".

#include "decode/decoder.h"

namespace foreshock {

class JvmGcDecoder final : public Decoder {
 public:
  JvmGcDecoder() = default;

  std::string_view name() const override { return "jvm-gc"; }
  Outcome Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                 std::string* why) const override;
};

}  // namespace foreshock
