#pragma once

// "1 clock anomaly", "3 clock anomalies": a count with its noun in the right number.

#include <cstdint>
#include <string>
#include <string_view>

namespace foreshock {

inline std::string Counted(uint64_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

}  // namespace foreshock
