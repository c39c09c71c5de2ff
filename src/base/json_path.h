#pragma once

// Dotted-key lookup in JSON objects as log shippers write them: Elasticsearch's ECS logs use
// flat dotted keys ("log.level"), shippers often re-nest them ({"log":{"level":...}}), and
// some mix both. FindDotted tries the flat key first, then the nested path.

#include <nlohmann/json.hpp>

#include <string_view>

namespace foreshock {

// The value at `dotted` in `object`, or null.
const nlohmann::json* FindDotted(const nlohmann::json& object, std::string_view dotted);

}  // namespace foreshock
