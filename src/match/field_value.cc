#include "match/field_value.h"

#include <charconv>
#include <cmath>

#include "base/time.h"

namespace foreshock {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// Reads a leading number; *rest gets what follows it.
std::optional<double> LeadingNumber(std::string_view text, std::string_view* rest) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  *rest = text.substr(static_cast<size_t>(end - text.data()));
  return value;
}

std::optional<double> ParseBytes(std::string_view text) {
  std::string_view rest;
  auto value = LeadingNumber(text, &rest);
  if (!value) return std::nullopt;
  if (rest.starts_with('/')) return value;  // "17394683904/16.2gb": exact bytes first
  rest = Trim(rest);
  struct Unit {
    std::string_view suffix;
    double factor;
  };
  // Elasticsearch writes "28.7gb"; the JVM's GC log "15702M".
  static constexpr Unit kUnits[] = {{"", 1},
                                    {"b", 1},
                                    {"kb", 1024.0},
                                    {"k", 1024.0},
                                    {"mb", 1024.0 * 1024},
                                    {"m", 1024.0 * 1024},
                                    {"gb", 1024.0 * 1024 * 1024},
                                    {"g", 1024.0 * 1024 * 1024},
                                    {"tb", 1024.0 * 1024 * 1024 * 1024},
                                    {"t", 1024.0 * 1024 * 1024 * 1024},
                                    {"pb", 1024.0 * 1024 * 1024 * 1024 * 1024}};
  for (const Unit& unit : kUnits) {
    if (rest.size() == unit.suffix.size() &&
        std::equal(rest.begin(), rest.end(), unit.suffix.begin(),
                   [](char a, char b) { return (a | 0x20) == b; })) {
      return std::round(*value * unit.factor);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> ParseFieldValue(FieldType type, std::string_view text) {
  text = Trim(text);
  std::string_view rest;
  switch (type) {
    case FieldType::kString:
      return std::nullopt;
    case FieldType::kInteger:
    case FieldType::kNumber: {
      auto value = LeadingNumber(text, &rest);
      if (!value || !rest.empty()) return std::nullopt;
      if (type == FieldType::kInteger && *value != std::floor(*value)) return std::nullopt;
      return value;
    }
    case FieldType::kPercent: {
      auto value = LeadingNumber(text, &rest);
      if (!value || !(rest.empty() || rest == "%")) return std::nullopt;
      return value;
    }
    case FieldType::kBytes:
      return ParseBytes(text);
    case FieldType::kDuration: {
      auto duration = ParseDuration(text);
      if (!duration) return std::nullopt;
      return ToSeconds(*duration);
    }
  }
  return std::nullopt;
}

}  // namespace foreshock
