#pragma once

// YamlReader reads typed values out of one catalog file's YAML nodes, reporting each
// problem (missing key, wrong type, bad duration, unknown key) to a LoadReport with the
// node's file:line:col and carrying on with a default, so one pass finds every error.
// It never throws.

#include "catalog/yaml_document.h"

#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/load_report.h"

namespace foreshock {

class YamlReader {
 public:
  // `report` must outlive *this.
  YamlReader(std::string file, LoadReport* report) : file_(std::move(file)), report_(report) {}

  SourceLocation Where(const YamlNode& node) const;
  void Error(const YamlNode& node, std::string message) const;

  // Reports every key of `map` that is not in `known`.
  void CheckKeys(const YamlNode& map, const std::set<std::string>& known,
                 const std::string& what) const;

  std::string RequiredString(const YamlNode& map, const std::string& key) const;
  std::string StringOr(const YamlNode& map, const std::string& key, std::string fallback) const;
  // A string or a list of strings; empty when the key is absent.
  std::vector<std::string> StringList(const YamlNode& map, const std::string& key) const;
  int IntOr(const YamlNode& map, const std::string& key, int fallback) const;
  Duration DurationOr(const YamlNode& map, const std::string& key, Duration fallback) const;
  Severity SeverityOr(const YamlNode& map, const std::string& key, Severity fallback) const;
  Level LevelOr(const YamlNode& map, const std::string& key, Level fallback) const;
  Marker MarkerOr(const YamlNode& map, const std::string& key, Marker fallback) const;
  std::map<std::string, FieldType> FieldTypes(const YamlNode& map, const std::string& key) const;
  void Examples(const YamlNode& map, std::vector<PatternExample>* match,
                std::vector<std::string>* no_match) const;

 private:
  // The scalar at map[key], or null with an error when it is not a scalar.
  bool Scalar(const YamlNode& map, const std::string& key, std::string* out) const;

  std::string file_;
  LoadReport* report_;
};

}  // namespace foreshock
