#pragma once

// EsJsonDecoder reads Elasticsearch's own JSON server logs, one object per record:
//   - "ecs": ES 8 ECS JSON: "@timestamp", "log.level", "log.logger", "message",
//     "elasticsearch.node.name", "elasticsearch.cluster.name", "event.dataset", and
//     "error.type" / "error.message" / "error.stack_trace" for exceptions.
//   - "es-json": ES 7 JSON: "timestamp", "level", "component", "node.name",
//     "cluster.name", "type", "message" and the "stacktrace" array.
// Dotted keys are looked up flat first, then as nested objects, so both the file ES writes
// and a shipper's re-nested copy decode. Exception text is appended to the message in the
// record's text, so patterns see a limit hidden inside a wrapper exception.

#include <string_view>

#include "decode/decoder.h"

namespace foreshock {

class EsJsonDecoder final : public Decoder {
 public:
  enum class Dialect { kEcs, kEs7 };
  explicit EsJsonDecoder(Dialect dialect) : dialect_(dialect) {}

  std::string_view name() const override { return dialect_ == Dialect::kEcs ? "ecs" : "es-json"; }
  bool DecodeHeader(std::string_view text, const DecodeOptions& options, RecordHeader* header) const override;
  Outcome Decode(std::string_view text, const DecodeOptions& options, LogRecord* record,
                 std::string* why) const override;

 private:
  Dialect dialect_;
};

}  // namespace foreshock
