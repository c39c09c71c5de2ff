#include "decode/log_record.h"

#include <algorithm>
#include <cctype>

namespace foreshock {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

Level ParseAnyLevel(std::string_view text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  struct Name {
    std::string_view name;
    Level level;
  };
  static constexpr Name kNames[] = {
      {"INFO", Level::kInfo},      {"WARN", Level::kWarn},   {"WARNING", Level::kWarn},
      {"ERROR", Level::kError},    {"DEBUG", Level::kDebug}, {"TRACE", Level::kTrace},
      {"FATAL", Level::kFatal},    {"CRITICAL", Level::kWarn}, {"ERR", Level::kError},
      {"NOTICE", Level::kInfo},    {"CRIT", Level::kFatal},  {"EMERG", Level::kFatal},
      {"ALERT", Level::kFatal},    {"DEPRECATION", Level::kWarn},
  };
  for (const Name& entry : kNames) {
    if (EqualsIgnoreCase(text, entry.name)) return entry.level;
  }
  return Level::kUnknown;
}

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kTrace: return "trace";
    case Level::kDebug: return "debug";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kError: return "error";
    case Level::kFatal: return "fatal";
    case Level::kUnknown: break;
  }
  return "unknown";
}

}  // namespace foreshock
