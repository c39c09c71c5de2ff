#pragma once

// LoadReport collects every problem found while loading catalog files, each with its
// file:line:col, so `foreshock catalog lint` can show them all at once instead of making
// the user fix them one run at a time.

#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace foreshock {

struct Diagnostic {
  enum class Kind { kError, kNote };
  Kind kind = Kind::kError;
  SourceLocation where;
  std::string message;

  // "patterns/x.yaml:12:5: error: unknown key 'severty'"
  std::string ToString() const;
};

class LoadReport {
 public:
  void Error(SourceLocation where, std::string message);
  void Note(SourceLocation where, std::string message);

  bool has_errors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  int errors_ = 0;
};

}  // namespace foreshock
