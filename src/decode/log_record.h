#pragma once

// LogRecord is one decoded log event, independent of the format it was written in. The
// text patterns search is the message followed by any exception text the record carries
// (stack traces, "Caused by:" chains, error.type/error.message), because precursors often
// hide there. Records are reused across lines to avoid allocations on the hot path.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/time.h"

namespace foreshock {

enum class Level : uint8_t { kUnknown, kTrace, kDebug, kInfo, kWarn, kError, kFatal };

// Reads "WARN", "warning", "Error", "CRITICAL" (ES 8 deprecation, treated as kWarn),
// "DEPRECATION" (ES 7's deprecation log, kWarn too) and so on; kUnknown for anything else.
Level ParseAnyLevel(std::string_view text);
// ParseAnyLevel(), with the levels ES writes on most lines told inline (the reader asks this
// of every line when novelty is on).
inline Level ParseLevel(std::string_view text) {
  if (text == "INFO") return Level::kInfo;
  if (text == "WARN") return Level::kWarn;
  return ParseAnyLevel(text);
}
std::string_view LevelName(Level level);  // "warn", "error", ...

// The only patterns that can match a text, as the literal prefilter listed them (raw parts
// hold every literal the decoded text holds, so the list is never short of one), and which
// Matcher listed them (its id, unique per Matcher ever built; 0: none listed).
struct ListedCandidates {
  uint64_t matcher = 0;
  std::vector<int> patterns;  // ascending
};

struct LogRecord {
  TimePoint time{};
  bool has_time = false;
  bool time_inherited = false;  // the record had no time: it took the previous record's
  // A clock anomaly (see correlate/event_clock.h): `time` is when it is correlated, its node's
  // time then, and `stamp` the time it carries, which its evidence shows.
  bool clock_anomaly = false;
  TimePoint stamp{};
  Level level = Level::kUnknown;
  std::string node;     // ES node name, else host; the default correlation key
  std::string cluster;  // ES cluster name when the format carries it
  std::string logger;   // "o.e.m.j.JvmGcMonitorService" or the full class name
  std::string dataset;  // "elasticsearch.server", "elasticsearch.slowlog", ...
  std::string text;     // message, then '\n' and exception text, if any
  size_t message_length = 0;
  bool truncated = false;  // the framer or assembler cut this record
  // The literal prefilter has let this text through already (the reader asked it of the
  // text's parts, raw): matching goes straight to the pattern set, or, when the prefilter
  // could list them, straight to the candidates' own regexes.
  bool prefiltered = false;
  ListedCandidates candidates;

  std::string_view source;  // input name; the caller keeps it alive
  uint64_t line_number = 0;
  std::string file;  // the file a shipper read the line from (Filebeat log.file.path), if any
  std::string_view format;  // the decoder that read it ("ecs", "es-plain", ...; static)
  std::string envelope;     // the envelope it came in ("journald-json", ...; "" for none)
  // A WARN+ or exception record the quiet lane handed out header-only for the novelty
  // detector to judge (RecordReaderOptions::keep_notable): its line as read, and its shape
  // (learn/message_template.h's RecordShape: id and values); the detector decodes the line
  // in full only when what it knows of the shape does not settle the record. 0 and empty
  // otherwise.
  uint64_t shape = 0;
  uint64_t shape_values = 0;
  std::string raw;

  std::string_view message() const { return std::string_view(text).substr(0, message_length); }

  // Resets every field, keeping string capacity. Inline: the reader clears a record for
  // every line.
  void Clear() {
    time = TimePoint{};
    has_time = false;
    time_inherited = false;
    clock_anomaly = false;
    level = Level::kUnknown;
    node.clear();
    cluster.clear();
    logger.clear();
    dataset.clear();
    text.clear();
    message_length = 0;
    truncated = false;
    prefiltered = false;
    candidates.matcher = 0;
    source = {};
    line_number = 0;
    file.clear();
    format = {};
    envelope.clear();
    shape = 0;
    shape_values = 0;
    raw.clear();
  }
};

}  // namespace foreshock
