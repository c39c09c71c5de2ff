#include "base/time.h"

#include <charconv>
#include <cstdio>

namespace foreshock {

std::string FormatTimestamp(TimePoint t) {
  using namespace std::chrono;
  const sys_days day = floor<days>(t);
  const year_month_day ymd(day);
  const auto in_day = t - day;
  const auto h = duration_cast<hours>(in_day);
  const auto m = duration_cast<minutes>(in_day - h);
  const auto s = duration_cast<seconds>(in_day - h - m);
  const auto ms = duration_cast<milliseconds>(in_day - h - m - s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(h.count()), static_cast<int>(m.count()),
                static_cast<int>(s.count()), static_cast<int>(ms.count()));
  return buf;
}

std::optional<Duration> ParseDuration(std::string_view text) {
  double number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [rest, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || rest == begin || number < 0) return std::nullopt;
  const std::string_view unit(rest, static_cast<size_t>(end - rest));
  double micros_per_unit = 0;
  if (unit == "us" || unit == "micros") {
    micros_per_unit = 1;
  } else if (unit == "ms") {
    micros_per_unit = 1e3;
  } else if (unit == "s") {
    micros_per_unit = 1e6;
  } else if (unit == "m") {
    micros_per_unit = 60e6;
  } else if (unit == "h") {
    micros_per_unit = 3600e6;
  } else if (unit == "d") {
    micros_per_unit = 86400e6;
  } else {
    return std::nullopt;
  }
  // Beyond what 64 bits of microseconds hold (about 292,000 years), or not a number: no
  // duration (converting it would be undefined).
  const double micros = number * micros_per_unit + 0.5;
  if (!(micros < 9.2e18)) return std::nullopt;
  return Duration(static_cast<int64_t>(micros));
}

std::string FormatDuration(Duration d) {
  const int64_t us = d.count();
  struct Unit {
    int64_t micros;
    const char* suffix;
  };
  static constexpr Unit kUnits[] = {
      {86400000000, "d"}, {3600000000, "h"}, {60000000, "m"}, {1000000, "s"}, {1000, "ms"}};
  for (const Unit& unit : kUnits) {
    if (us != 0 && us % unit.micros == 0) return std::to_string(us / unit.micros) + unit.suffix;
  }
  return std::to_string(us) + "us";
}

std::string FormatLeadTime(double seconds) {
  const auto total = static_cast<int64_t>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%lldh%02lldm", static_cast<long long>(total / 3600),
                  static_cast<long long>(total % 3600 / 60));
  } else if (total >= 60) {
    std::snprintf(text, sizeof text, "%lldm%02llds", static_cast<long long>(total / 60),
                  static_cast<long long>(total % 60));
  } else {
    std::snprintf(text, sizeof text, "%llds", static_cast<long long>(total));
  }
  return text;
}

}  // namespace foreshock
