#pragma once

// Loads catalog YAML files (patterns and rules) into an immutable Catalog. Every problem is
// collected into a LoadReport with its file:line:col: YAML syntax, unknown keys, duplicate
// ids, RE2 compile errors (with RE2's own message), bad durations or field types, and rules
// naming unknown patterns. Loading fails as a whole if any error was found. Every pattern at
// warning or above that no rule uses gets an implicit `single` rule of its own.
// The file format is documented in patterns/README.md.

#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/load_report.h"

namespace foreshock {

struct CatalogSource {
  enum class Layer {
    kBuiltin,  // the shipped catalog: duplicate ids are errors
    kUser,     // --catalog: an id already defined replaces that entry, with a note
  };
  std::string path;  // a .yaml file, or a folder whose *.yaml files are read in name order
  Layer layer = Layer::kUser;
};

// Returns null iff report->has_errors().
std::unique_ptr<const Catalog> LoadCatalog(const std::vector<CatalogSource>& sources,
                                           LoadReport* report);

}  // namespace foreshock
