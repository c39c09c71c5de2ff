#include "catalog/load_report.h"

namespace foreshock {

std::string Diagnostic::ToString() const {
  std::string out = where.file;
  if (where.line > 0) {
    out += ":" + std::to_string(where.line);
    if (where.column > 0) out += ":" + std::to_string(where.column);
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
