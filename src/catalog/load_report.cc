#include "catalog/load_report.h"

namespace foreshock {

std::string Diagnostic::ToString() const {
  // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) about
  // `":" + std::to_string(n)`.
  std::string out = where.file;
  if (where.line > 0) {
    out.push_back(':');
    out.append(std::to_string(where.line));
    if (where.column > 0) {
      out.push_back(':');
      out.append(std::to_string(where.column));
    }
  }
  out += kind == Kind::kError ? ": error: " : ": note: ";
  out += message;
  return out;
}

void LoadReport::Error(SourceLocation where, std::string message) {
  diagnostics_.push_back({Diagnostic::Kind::kError, std::move(where), std::move(message)});
  ++errors_;
}

void LoadReport::Note(SourceLocation where, std::string message) {
  diagnostics_.push_back({Diagnostic::Kind::kNote, std::move(where), std::move(message)});
}

}  // namespace foreshock
