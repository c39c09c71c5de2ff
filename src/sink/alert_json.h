#pragma once

// The alert schema: one JSON object per alert, with ECS-compatible field names so alerts
// can themselves be indexed into Elasticsearch. Keys are sorted, so the output of a replay
// is byte-for-byte deterministic. Later versions add keys but never rename these.

#include <nlohmann/json.hpp>

#include "correlate/alert.h"

namespace foreshock {

nlohmann::json AlertToJson(const Alert& alert);

// The alert as one line of JSON ending in '\n'. Invalid UTF-8 from a log line is replaced,
// never allowed to abort the output; control characters are escaped by JSON itself.
std::string AlertToJsonLine(const Alert& alert);

}  // namespace foreshock
