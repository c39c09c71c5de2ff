// Fuzzes foreshock's time model: the input is a program that writes a log stream of several
// nodes, one op per byte pair: precursor and ordinary lines at a clock that moves by small
// steps, clock jumps and stray stamps years ahead or behind, nodes interleaved and skewed,
// lines without a time, junk, repeats and stack traces. The stream, read in chunks of random
// sizes, goes through the real reader and pipeline (with the quiet lane). Properties: every
// precursor line's hit reaches correlation (the clock holds none back for good, and none is
// lost to a stamp), each correlated hit or repeat is counted once, and at the end nothing is
// still held.

#include <spdlog/spdlog.h>

#include <cstdint>
#include <string>

#include "app/pipeline.h"
#include "fuzz_check.h"
#include "match/matcher.h"
#include "testing/collecting_sink.h"
#include "testing/record_digest.h"

using namespace foreshock;

namespace {

Catalog TinyCatalog() {
  Pattern pattern;
  pattern.id = "t.precursor";
  pattern.regex = R"(precursor number (?P<n>\d+) seen)";
  Rule rule;
  rule.id = "t.rule";
  rule.name = "t.rule";
  rule.kind = Rule::Kind::kThreshold;
  rule.count = 3;
  rule.window = std::chrono::minutes(2);
  rule.resolve_after = std::chrono::minutes(5);
  rule.group_by = {"node"};
  rule.steps.push_back({{"t.precursor"}, Severity::kWarning, "storm on {node}"});
  return Catalog({pattern}, {rule});
}

std::string Stamp(int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[64];
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d,%03d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(seconds % 1000));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Catalog catalog = [] {
    spdlog::set_level(spdlog::level::off);
    return TinyCatalog();
  }();
  static const std::unique_ptr<const Matcher> matcher = [] {
    auto built = Matcher::Create(catalog, MatcherOptions{});
    FUZZ_CHECK(built.ok());
    return std::unique_ptr<const Matcher>(std::move(built).value());
  }();
  if (size < 2) return 0;

  int64_t now = 1795917600;  // 2026-11-29T02:00:00Z
  int64_t skew[4] = {0, 0, 0, 0};
  int node = 0;
  uint64_t precursors = 0;  // precursor lines written, repeats included
  uint64_t repeats = 0;
  std::string text, last;
  for (size_t i = 1; i + 1 < size && text.size() < (1 << 16); i += 2) {
    const uint8_t op = data[i], arg = data[i + 1];
    auto line = [&](int64_t at, const std::string& message) {
      return "[" + Stamp(at) + "][WARN ][o.e.t.Test] [es-" + std::to_string(node) + "] " + message + "\n";
    };
    switch (op % 12) {
      case 0: case 1: case 2:
        last = line(now + skew[node], "precursor number " + std::to_string(precursors) + " seen");
        text += last;
        ++precursors;
        break;
      case 3: case 4:
        last = line(now + skew[node], "ordinary line");
        text += last;
        break;
      case 5: now += arg % 40; break;                       // time passes
      case 6: node = arg % 4; break;                        // another node's line comes next
      case 7: skew[node] = (arg % 11 - 5) * 60; break;      // its clock is minutes off
      case 8:                                               // a stray stamp, years off
        text += line(now + (arg % 2 == 0 ? 1 : -1) * int64_t{86400} * 365 * (1 + arg % 5),
                     arg % 3 == 0 ? "precursor number " + std::to_string(precursors++) + " seen" : "stray");
        break;
      case 9:                                               // a line with no time of its own
        text += arg % 2 == 0 ? "OpenJDK 64-Bit Server VM warning: junk\n" : "{\"not\": \"a log\"}\n";
        break;
      case 10:                                              // delivered twice
        if (!last.empty()) {
          text += last;
          if (last.find("precursor number") != std::string::npos) ++repeats;
        }
        break;
      case 11:                                              // a stack trace under the last line
        text += "java.lang.IllegalStateException: boom\n\tat org.elasticsearch.Foo.bar(Foo.java:1)\n";
        break;
    }
  }

  std::vector<Alert> alerts;
  std::vector<std::unique_ptr<Sink>> sinks;
  sinks.push_back(std::make_unique<testing::CollectingSink>(&alerts));
  Pipeline pipeline(catalog, *matcher, CorrelatorOptions{}, std::move(sinks));
  auto reader = testing::ChunkedReader(text, matcher.get(), data[0], 1 + data[0] * 4);
  FUZZ_CHECK(reader.ok());
  std::vector<RecordStream*> streams = {reader->get()};
  FUZZ_CHECK(pipeline.Run(streams).ok());
  // Every precursor line reached correlation, once; a repeat only as a duplicate.
  FUZZ_CHECK(pipeline.summary().hits == precursors + repeats);
  const CorrelatorStats& correlated = pipeline.correlator_stats();
  FUZZ_CHECK(correlated.hits + correlated.duplicates >= precursors);
  FUZZ_CHECK(correlated.hits <= precursors + repeats);
  FUZZ_CHECK(pipeline.quiescent());
  // Each alert fires, escalates or resolves a group that some hit made.
  FUZZ_CHECK(alerts.size() <= 2 * (precursors + repeats));
  return 0;
}
