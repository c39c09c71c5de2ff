#pragma once

// Reads one entry of a catalog file's `rules:` list (see patterns/README.md for the keys),
// reporting every problem through the YamlReader.

#include <yaml-cpp/yaml.h>

#include "catalog/catalog.h"
#include "catalog/yaml_reader.h"

namespace foreshock {

Rule ReadRule(const YamlReader& reader, const YAML::Node& node);

}  // namespace foreshock
