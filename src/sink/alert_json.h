#pragma once

// The alert schema: one JSON object per alert, with ECS-compatible field names so alerts
// can themselves be indexed into Elasticsearch. Keys are sorted, so the output of a replay
// is byte-for-byte deterministic. Later versions add keys but never rename these.

#include <nlohmann/json.hpp>

#include "correlate/alert.h"

namespace foreshock {

nlohmann::json AlertToJson(const Alert& alert);

// Alert JSON as text for any output: invalid UTF-8 from a log line is replaced, never
// allowed to abort the output, and every control character is written as an escape: the
// C0 ones by JSON itself, DEL, the C1 ones (U+0080..U+009F, e.g. the 8-bit CSI) and the bidi
// controls (base/terminal_text.h) too, so no terminal sequence or reordering from a log line
// reaches a TTY that shows the JSON. The text parses to the same values.
std::string DumpAlertJson(const nlohmann::json& json);

// The alert as one line of DumpAlertJson() text ending in '\n'.
std::string AlertToJsonLine(const Alert& alert);

// What tells one alert from another when it is delivered again after a restart: its
// fingerprint, action, stage and time, of the alert or of its JSON ("" for JSON that is no
// alert's).
std::string AlertIdentity(const Alert& alert);
std::string AlertIdentity(const nlohmann::json& json);

}  // namespace foreshock
