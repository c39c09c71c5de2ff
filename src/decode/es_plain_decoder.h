#pragma once

// EsPlainDecoder reads Elasticsearch's and OpenSearch's plain-text (log4j) logs:
//   [2026-11-29T02:54:11,123][WARN ][o.e.s.SearchService      ] [node-2] message
// including the ES 1.x/2.x form with a space in the stamp, lines without a node field
// (deprecation log) and slow logs. Continuation lines that the RecordAssembler joined
// (stack traces) follow the message in the record's text.

#include <string_view>

#include "decode/decoder.h"

namespace foreshock {

class EsPlainDecoder final : public Decoder {
 public:
  EsPlainDecoder() = default;

  std::string_view name() const override { return "es-plain"; }
  Outcome Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                 std::string* why) const override;
  bool DecodeHeader(std::string_view text, const DecodeOptions& options, RecordHeader* header) const override;

 private:
  struct Header {
    TimePoint time;
    std::string_view level;
    std::string_view logger;
    // The node, as where it begins and its size: a view written in two halves and copied
    // whole stalls the load that copies it.
    const char* node_begin = nullptr;
    size_t node_size = 0;
    std::string_view message;  // the first line's message
    size_t newline = std::string_view::npos;  // where continuation lines start
  };
  static Outcome Parse(std::string_view text, const DecodeOptions& options, Header* header, std::string* why);
};

}  // namespace foreshock
