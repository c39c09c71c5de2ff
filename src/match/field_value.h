#pragma once

// Converts captured text to the number a catalog field type promises:
//   integer  "500" -> 500              bytes    "16.2gb" -> 17394617548.8, "17394683904/16.2gb"
//   number   "0.75" -> 0.75                      -> 17394683904 (the exact figure wins)
//   percent  "95%" or "95.1" -> 95.1   duration "3.2s" -> 3.2, "650ms" -> 0.65 (seconds)
// Returns nullopt when the text is not of that type (and always for kString).

#include <optional>
#include <string_view>

#include "catalog/catalog.h"

namespace foreshock {

std::optional<double> ParseFieldValue(FieldType type, std::string_view text);

}  // namespace foreshock
