#pragma once

// Runs every pattern's own examples: each `match` line must hit the pattern (with the
// captures the example expects) and each `no_match` line must not; and every benign entry's:
// each line must be covered (with `exception`, name that class). An example line may be
// a whole log line in any format foreshock reads, so level, logger and dataset filters
// take part; a line in no known format is matched as a bare message.

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "match/matcher.h"

namespace foreshock::app {

struct ExampleFailure {
  std::string pattern_id;
  SourceLocation where;
  std::string line;
  std::string reason;
};

struct ExampleReport {
  int examples = 0;
  std::vector<ExampleFailure> failures;
};

// `only_under`: when not empty, only the patterns defined in these files or folders are tried
// (the rest of the catalog still matches, so a line another pattern also hits is no failure).
ExampleReport RunCatalogExamples(const Catalog& catalog, const Matcher& matcher,
                                 const std::vector<std::string>& only_under = {});

}  // namespace foreshock::app
