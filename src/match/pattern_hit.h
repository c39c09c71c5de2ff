#pragma once

// A PatternHit says that one catalog pattern matched one record, what it captured, and
// where in the record's text the match starts (so evidence can quote the line that
// matched, even deep inside a stack trace).

#include <optional>
#include <string>
#include <vector>

namespace foreshock {

struct Capture {
  std::string name;
  std::string text;               // as written in the log: "16.2gb", "95%", "3.2s"
  std::optional<double> number;   // the typed value when the catalog types the field
};

struct PatternHit {
  int pattern = -1;  // index into Catalog::patterns()
  std::vector<Capture> captures;
  size_t match_begin = 0;  // offset into LogRecord::text
  size_t match_end = 0;

  const Capture* Find(const std::string& name) const {
    for (const Capture& capture : captures) {
      if (capture.name == name) return &capture;
    }
    return nullptr;
  }
};

}  // namespace foreshock
