#pragma once

// The envelopes that shippers and runtimes wrap around Elasticsearch's own log lines, and
// EnvelopeUnwrapper, which takes them off so the ES line inside can be assembled and
// decoded like any other. What an envelope knows (its time, host, priority, the fields a
// Filebeat module already parsed) travels along as EnvelopeHints and fills in what the
// inner line lacks. Envelopes read:
//   journald-json  journalctl -o json: MESSAGE (string, byte array or null),
//                  __REALTIME_TIMESTAMP, _HOSTNAME, PRIORITY, SYSLOG_IDENTIFIER
//   journald-text  journalctl -o short-iso / short-iso-precise / short / short-precise
//   filebeat       Filebeat console/file NDJSON: the raw line in "message", host.name,
//                  log.file.path, and the fields of the elasticsearch module when present
//   docker-json    Docker json-file: {"log":"...\n","stream":"stdout","time":"..."}, and
//                  Fluent Bit's records of containerd's lines, "_p" (F|P) telling the pieces
//   shipper-json   other shippers' JSON lines: Logstash ("@version"; the line in "message"
//                  or event.original), Vector ("source_type"; "message") and Fluent Bit
//                  ("log" or "stream" alone: its tail input, its classic cri parser's
//                  "logtag" F|P and "message"), with their time, host and file
//   cri            containerd/CRI-O: "<RFC3339Nano> stdout F|P <line>"
//   kubectl        kubectl logs --prefix and/or --timestamps:
//                  "[pod/<pod>/<container>] <RFC3339Nano> <line>"
//   compose        docker compose: "es01  | <line>"
// Pieces of one long line (CRI "P", Docker lines without their trailing newline) are joined
// here. Not thread-safe; one per input.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/time.h"
#include "base/time_zone.h"
#include "decode/log_record.h"

namespace foreshock {

struct EnvelopeHints {
  std::optional<TimePoint> time;
  Level level = Level::kUnknown;
  std::string host;     // machine or container that wrote the line
  std::string node;     // ES node name, when a shipper already parsed it
  std::string cluster;
  std::string logger;
  std::string dataset;
  std::string file;     // the file a shipper read the line from
  bool parsed = false;  // a shipper already split the line: the inner text is a bare message

  bool empty() const {
    return !time && level == Level::kUnknown && host.empty() && node.empty() && cluster.empty() &&
           logger.empty() && dataset.empty() && file.empty() && !parsed;
  }
  void Clear() {
    if (!empty()) *this = EnvelopeHints{};
  }
};

namespace envelope_markers {

enum JsonMarker : unsigned { kRealtimeKey = 1, kFilebeatKey = 2, kStreamKey = 4, kLogKey = 8, kShipperKey = 16 };

// The keys that mark a JSON envelope, quoted. One without its closing quote ("fileset)
// marks every key it begins.
struct MarkerKey {
  std::string_view quoted;
  JsonMarker marker;
};
inline constexpr MarkerKey kMarkerKeys[] = {
    {"\"__REALTIME_TIMESTAMP\"", kRealtimeKey}, {"\"@metadata\"", kFilebeatKey}, {"\"agent\"", kFilebeatKey},
    {"\"input\"", kFilebeatKey},                {"\"input.type\"", kFilebeatKey}, {"\"fileset", kFilebeatKey},
    {"\"event.module\"", kFilebeatKey},         {"\"stream\"", kStreamKey},       {"\"log\"", kLogKey},
    {"\"@version\"", kShipperKey},              {"\"source_type\"", kShipperKey},
};

// The bytes a marker key has at `at` (1: the one after its opening quote).
constexpr std::array<bool, 256> MarkerBytesAt(size_t at) {
  std::array<bool, 256> bytes{};
  for (const MarkerKey& key : kMarkerKeys) bytes[static_cast<unsigned char>(key.quoted[at])] = true;
  return bytes;
}
inline constexpr std::array<bool, 256> kMarkerStarts = MarkerBytesAt(1);
inline constexpr std::array<bool, 256> kMarkerSeconds = MarkerBytesAt(2);

// The markers of the keys `rest` (from a quote on) starts with. Inline: the JSON header
// asks it of every string of every line, and most strings start like no marker: by their
// first two bytes, most of an ES line's ("elasticsearch.", "ecs.", "service.") are told so.
inline unsigned MarkersAt(std::string_view rest) {
  if (rest.size() < 3 || !kMarkerStarts[static_cast<unsigned char>(rest[1])] ||
      !kMarkerSeconds[static_cast<unsigned char>(rest[2])]) {
    return 0;
  }
  unsigned found = 0;
  for (const MarkerKey& key : kMarkerKeys) {
    if (key.quoted[1] == rest[1] && rest.starts_with(key.quoted)) found |= key.marker;
  }
  return found;
}

}  // namespace envelope_markers

// True when a JSON string, given with its quotes, is one of the keys that mark a JSON
// envelope ("__REALTIME_TIMESTAMP", "@metadata", "stream", "log", "@version", ...). In a
// flat JSON line without escapes every quote opens or closes a string, so a line none of
// whose strings is a marker is no envelope's: the unwrapper passes it through as it is.
inline bool IsEnvelopeMarker(std::string_view quoted) { return envelope_markers::MarkersAt(quoted) != 0; }

// Names of the envelopes above, for --format and --explain-format.
const std::vector<std::string_view>& EnvelopeNames();
// What marks the envelope `name` on a line ("" for an unknown name), for --explain-format.
std::string_view EnvelopeShape(std::string_view name);

class EnvelopeUnwrapper {
 public:
  // `forced`: an envelope name, or "auto" to sniff each line (the last envelope that matched
  // is tried first). `max_line_bytes` caps a line joined from pieces. `zone` (which must
  // outlive *this) reads journal stamps that carry no zone.
  EnvelopeUnwrapper(std::string forced, size_t max_line_bytes, const TimeZone* zone);

  // Unwraps one physical line. Calls on_line(std::string_view inner, const EnvelopeHints&,
  // std::string_view envelope) when a whole inner line is ready ("" envelope: none), or not
  // at all while a split line waits for its next piece. Views are valid during the call.
  template <typename OnLine>
  void Add(std::string_view line, OnLine&& on_line);

  // True while the pieces of a split line wait for the rest.
  bool joining() const { return joining_; }
  // True when Add() would hand the non-empty `line` on as it stands, with no hints: no
  // piece waits, and no envelope takes it. Changes nothing.
  bool PassesThrough(std::string_view line) const;
  // True when lines are sniffed for envelopes (not forced to one).
  bool sniffing() const { return forced_ == "auto"; }

  // True when `name` is an envelope this class reads.
  static bool Knows(std::string_view name);

 private:
  enum class Result { kNotMine, kWhole, kPiece, kSkip };
  Result Unwrap(std::string_view line);
  Result TryEnvelope(int kind, std::string_view line);

  std::string forced_;
  size_t max_line_bytes_;
  const TimeZone* zone_;
  int last_kind_ = 0;
  std::string inner_;    // the unwrapped line (or the pieces joined so far)
  EnvelopeHints hints_;  // hints of the first piece
  std::string_view envelope_;
  bool joining_ = false;
  const char* markers_for_ = nullptr;  // the line json_markers_ was found in
  unsigned json_markers_ = 0;
};

template <typename OnLine>
void EnvelopeUnwrapper::Add(std::string_view line, OnLine&& on_line) {
  switch (Unwrap(line)) {
    case Result::kNotMine:
      if (joining_) {  // a piece was never finished: hand it over as it is
        joining_ = false;
        on_line(std::string_view(inner_), hints_, envelope_);
      }
      hints_.Clear();
      on_line(line, hints_, std::string_view());
      return;
    case Result::kWhole:
      joining_ = false;
      on_line(std::string_view(inner_), hints_, envelope_);
      return;
    case Result::kPiece:
    case Result::kSkip:
      return;
  }
}

}  // namespace foreshock
