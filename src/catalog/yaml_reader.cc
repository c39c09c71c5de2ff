#include "catalog/yaml_reader.h"

namespace foreshock {

SourceLocation YamlReader::Where(const YamlNode& node) const { return {file_, node.line(), node.column()}; }

void YamlReader::Error(const YamlNode& node, std::string message) const {
  report_->Error(Where(node), std::move(message));
}

void YamlReader::CheckKeys(const YamlNode& map, const std::set<std::string>& known,
                           const std::string& what) const {
  for (const auto& entry : map.entries()) {
    const std::string key = entry.first.Scalar();
    if (!known.contains(key)) Error(entry.first, "unknown key '" + key + "' in " + what);
  }
}

bool YamlReader::Scalar(const YamlNode& map, const std::string& key, std::string* out) const {
  const YamlNode& value = map[key];
  if (!value) return false;
  if (!value.IsScalar()) {
    Error(value, "'" + key + "' must be a single value");
    return false;
  }
  *out = value.Scalar();
  return true;
}

std::string YamlReader::RequiredString(const YamlNode& map, const std::string& key) const {
  std::string value;
  if (!Scalar(map, key, &value) && !map[key]) Error(map, "missing required key '" + key + "'");
  return value;
}

std::string YamlReader::StringOr(const YamlNode& map, const std::string& key,
                                 std::string fallback) const {
  std::string value;
  return Scalar(map, key, &value) ? value : fallback;
}

std::vector<std::string> YamlReader::StringList(const YamlNode& map,
                                                const std::string& key) const {
  std::vector<std::string> out;
  if (!map.IsMap()) return out;
  const YamlNode& value = map[key];
  if (!value) return out;
  if (value.IsScalar()) {
    out.push_back(value.Scalar());
  } else if (value.IsSequence()) {
    for (const YamlNode& item : value.items()) {
      if (item.IsScalar()) {
        out.push_back(item.Scalar());
      } else {
        Error(item, "'" + key + "' must list plain values");
      }
    }
  } else {
    Error(value, "'" + key + "' must be a value or a list");
  }
  return out;
}

int YamlReader::IntOr(const YamlNode& map, const std::string& key, int fallback) const {
  std::string text;
  if (!Scalar(map, key, &text)) return fallback;
  try {
    size_t used = 0;
    const int value = std::stoi(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  Error(map[key], "'" + key + "' must be a whole number, not '" + text + "'");
  return fallback;
}

Duration YamlReader::DurationOr(const YamlNode& map, const std::string& key,
                                Duration fallback) const {
  std::string text;
  if (!Scalar(map, key, &text)) return fallback;
  if (auto parsed = ParseDuration(text)) return *parsed;
  Error(map[key], "'" + key + "' must be a duration like 90s, 5m or 2h, not '" + text + "'");
  return fallback;
}

Severity YamlReader::SeverityOr(const YamlNode& map, const std::string& key,
                                Severity fallback) const {
  std::string text;
  if (!Scalar(map, key, &text)) return fallback;
  for (Severity severity : {Severity::kInfo, Severity::kWarning, Severity::kCritical}) {
    if (text == SeverityName(severity)) return severity;
  }
  Error(map[key], "severity must be info, warning or critical, not '" + text + "'");
  return fallback;
}

Level YamlReader::LevelOr(const YamlNode& map, const std::string& key, Level fallback) const {
  std::string text;
  if (!Scalar(map, key, &text)) return fallback;
  const Level level = ParseLevel(text);
  if (level == Level::kUnknown) {
    Error(map[key], "'" + key + "' must be a log level (debug, info, warn, error), not '" + text + "'");
    return fallback;
  }
  return level;
}

Marker YamlReader::MarkerOr(const YamlNode& map, const std::string& key, Marker fallback) const {
  std::string text;
  if (!Scalar(map, key, &text)) return fallback;
  if (text == "outage") return Marker::kOutage;
  if (text == "recovery") return Marker::kRecovery;
  Error(map[key], "marker must be outage or recovery, not '" + text + "'");
  return fallback;
}

std::map<std::string, FieldType> YamlReader::FieldTypes(const YamlNode& map,
                                                        const std::string& key) const {
  static const std::map<std::string, FieldType> kTypes = {
      {"string", FieldType::kString}, {"integer", FieldType::kInteger},
      {"number", FieldType::kNumber}, {"bytes", FieldType::kBytes},
      {"percent", FieldType::kPercent}, {"duration", FieldType::kDuration}};
  std::map<std::string, FieldType> out;
  const YamlNode& fields = map[key];
  if (!fields) return out;
  if (!fields.IsMap()) {
    Error(fields, "'" + key + "' must map capture names to types");
    return out;
  }
  for (const auto& entry : fields.entries()) {
    const std::string type = entry.second.IsScalar() ? entry.second.Scalar() : "";
    auto it = kTypes.find(type);
    if (it == kTypes.end()) {
      Error(entry.second, "field type must be string, integer, number, bytes, percent or duration");
      continue;
    }
    out[entry.first.Scalar()] = it->second;
  }
  return out;
}

void YamlReader::Examples(const YamlNode& map, std::vector<PatternExample>* match,
                          std::vector<std::string>* no_match) const {
  const YamlNode& examples = map["examples"];
  if (!examples || !examples.IsMap()) {
    Error(examples ? examples : map, "a pattern needs 'examples' with 'match' and 'no_match' lists");
    return;
  }
  CheckKeys(examples, {"match", "no_match"}, "examples");
  const YamlNode& matches = examples["match"];
  if (matches && matches.IsSequence()) {
    for (const YamlNode& item : matches.items()) {
      PatternExample example;
      if (item.IsScalar()) {
        example.line = item.Scalar();
      } else if (item.IsMap() && item["line"] && item["line"].IsScalar()) {
        CheckKeys(item, {"line", "captures"}, "example");
        example.line = item["line"].Scalar();
        const YamlNode& captures = item["captures"];
        if (captures && captures.IsMap()) {
          for (const auto& entry : captures.entries()) example.captures[entry.first.Scalar()] = entry.second.Scalar();
        }
      } else {
        Error(item, "an example is a line, or a map with 'line' and 'captures'");
        continue;
      }
      match->push_back(std::move(example));
    }
  }
  if (match->empty()) Error(examples, "a pattern needs at least one 'match' example");
  *no_match = StringList(examples, "no_match");
  if (no_match->empty()) Error(examples, "a pattern needs at least one 'no_match' example");
}

}  // namespace foreshock
