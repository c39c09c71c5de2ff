#pragma once

// Reads one entry of a catalog file's `rules:` list (see patterns/README.md for the keys),
// reporting every problem through the YamlReader.

#include "catalog/yaml_document.h"

#include "catalog/catalog.h"
#include "catalog/yaml_reader.h"

namespace foreshock {

Rule ReadRule(const YamlReader& reader, const YamlNode& node);

}  // namespace foreshock
