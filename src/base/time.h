#pragma once

// Event time: the instant a log line says it was written, as microseconds since the Unix
// epoch in UTC. Every stage after decoding works on event time only; nothing in the
// pipeline reads the wall clock except the live inputs' idle timers.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace foreshock {

using Duration = std::chrono::microseconds;
using TimePoint = std::chrono::sys_time<Duration>;

// "2026-11-29T02:54:11.482Z": millisecond precision, always UTC, as ECS expects.
std::string FormatTimestamp(TimePoint t);

// How far apart two times are, whichever comes first.
inline Duration Distance(TimePoint a, TimePoint b) { return a > b ? a - b : b - a; }

// Parses "650ms", "3.2s", "30s", "5m", "2h", "1d" (also "500us", "1500" = milliseconds
// when given no unit is NOT accepted). Returns nullopt on anything else.
std::optional<Duration> ParseDuration(std::string_view text);

// Renders a duration the way the catalog writes it: "90s", "5m", "2h", "650ms".
std::string FormatDuration(Duration d);

// A lead time for people, to the nearest second: "45s", "18m51s", "2h05m". Every human-facing
// output (text alerts, replay's summary, the report) writes it so; JSON keeps lead_time_s.
std::string FormatLeadTime(double seconds);

// Converts seconds with a fraction to the alert schema's floating-point seconds.
inline double ToSeconds(Duration d) { return static_cast<double>(d.count()) / 1e6; }

}  // namespace foreshock
