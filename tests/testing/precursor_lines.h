#pragma once

// A test catalog with one alert per precursor line, and the ECS lines that feed it: line n
// says PRECURSOR-<n> (or "ordinary line <n>"), and rule test.each fires once per n, never
// repeating or resolving. End-to-end tests count alerts per n to prove that no line was
// lost or read twice.

#include <cstdio>
#include <string>

namespace foreshock::testing {

inline constexpr const char* kOneAlertPerPrecursorCatalog = R"(patterns:
  - id: test.precursor
    title: Test precursor
    category: node
    severity: warning
    regex: 'PRECURSOR-(?P<n>\d+)'
    examples: {match: ['PRECURSOR-1'], no_match: ['ordinary']}
rules:
  - id: test.each
    name: Each precursor
    category: node
    pattern: test.precursor
    group_by: [n]
    realert: 1000d
    resolve_after: 1000d
    message: 'precursor {n}'
)";

// One ECS line (with its newline), one second after the previous n.
inline std::string PrecursorLine(int n, bool precursor = true) {
  char stamp[64];
  std::snprintf(stamp, sizeof stamp, "2026-11-29T02:%02d:%02d.000Z", (n / 60) % 60, n % 60);
  return std::string("{\"@timestamp\":\"") + stamp + "\",\"log.level\":\"WARN\",\"message\":\"" +
         (precursor ? "PRECURSOR-" + std::to_string(n) : "ordinary line " + std::to_string(n)) +
         "\",\"elasticsearch.node.name\":\"es-1\"}\n";
}

}  // namespace foreshock::testing
