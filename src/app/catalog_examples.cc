#include "app/catalog_examples.h"

#include <algorithm>

#include "decode/decoder_registry.h"
#include "learn/message_template.h"
#include "learn/novelty_detector.h"

namespace foreshock::app {
namespace {

LogRecord ExampleRecord(const std::string& line, DecoderSet* decoders) {
  LogRecord record;
  std::string why;
  std::string_view format;
  if (decoders->Decode(line, DecodeOptions{}, &record, &why, &format) != Decoder::Outcome::kDecoded) {
    record.Clear();
    record.text = line;
    record.message_length = line.size();
  }
  return record;
}

const PatternHit* FindHit(const std::vector<PatternHit>& hits, int pattern) {
  for (const PatternHit& hit : hits) {
    if (hit.pattern == pattern) return &hit;
  }
  return nullptr;
}

// Whether `file` is one of `paths` or inside one of them (as the loader names the files of a
// folder: the folder as given, then the file's name).
bool DefinedUnder(const std::string& file, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (file == path || file.starts_with(path.ends_with("/") ? path : path + "/")) return true;
  }
  return false;
}

}  // namespace

ExampleReport RunCatalogExamples(const Catalog& catalog, const Matcher& matcher,
                                 const std::vector<std::string>& only_under) {
  ExampleReport report;
  auto decoders = DecoderSet::Create("auto");
  std::vector<PatternHit> hits;
  for (size_t p = 0; p < catalog.patterns().size(); ++p) {
    const Pattern& pattern = catalog.patterns()[p];
    if (!only_under.empty() && !DefinedUnder(pattern.where.file, only_under)) continue;
    const int index = static_cast<int>(p);
    for (const PatternExample& example : pattern.examples) {
      ++report.examples;
      hits.clear();
      matcher.Match(ExampleRecord(example.line, decoders->get()), &hits);
      const PatternHit* hit = FindHit(hits, index);
      if (hit == nullptr) {
        report.failures.push_back({pattern.id, pattern.where, example.line, "did not match"});
        continue;
      }
      for (const auto& [name, expected] : example.captures) {
        const Capture* capture = hit->Find(name);
        const std::string got = capture == nullptr ? "<none>" : capture->text;
        if (got != expected) {
          report.failures.push_back({pattern.id, pattern.where, example.line,
                                     "capture '" + name + "' is '" + got + "', expected '" +
                                         expected + "'"});
        }
      }
    }
    for (const std::string& line : pattern.no_match) {
      ++report.examples;
      hits.clear();
      matcher.Match(ExampleRecord(line, decoders->get()), &hits);
      if (FindHit(hits, index) != nullptr) {
        report.failures.push_back({pattern.id, pattern.where, line, "matched a no_match line"});
      }
    }
  }
  for (const BenignEntry& entry : catalog.benign()) {
    if (!only_under.empty() && !DefinedUnder(entry.where.file, only_under)) continue;
    for (const std::string& line : entry.examples) {
      ++report.examples;
      const LogRecord record = ExampleRecord(line, decoders->get());
      if (entry.exception.empty()) {
        if (!BenignCovers(entry, record)) report.failures.push_back({entry.id, entry.where, line, "is not covered by the benign entry"});
        continue;
      }
      const std::vector<std::string> classes = ExceptionClassesIn(record.text);
      if (std::find(classes.begin(), classes.end(), entry.exception) == classes.end()) {
        report.failures.push_back({entry.id, entry.where, line, "names no " + entry.exception});
      } else if (!BenignCovers(entry, record, entry.exception)) {
        report.failures.push_back({entry.id, entry.where, line, "is not covered by the benign entry"});
      }
    }
  }
  return report;
}

}  // namespace foreshock::app
