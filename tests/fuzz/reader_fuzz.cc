// Fuzzes the record reader's quiet lane: the input, read in chunks of random sizes (the
// first byte seeds them), gives the same records (split at the same lines, with the same
// times, nodes and clusters) and the same counts with the shipped catalog's prefilter as
// with every record decoded in full. The lane decides which lines skip the assembler, so a
// wrong guess there would merge, split or drop records. Quiet runs at random bounds between
// the records pass over exactly the records the lane would have handed out next. With
// novelty on (keep_notable), every WARN+ record and every one with exception text is handed
// out whole, as full decoding gives it.

#include <spdlog/spdlog.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "catalog/catalog_loader.h"
#include "fuzz_check.h"
#include "match/matcher.h"
#include "testing/record_digest.h"

using namespace foreshock;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::unique_ptr<const Matcher> matcher = [] {
    spdlog::set_level(spdlog::level::off);  // malformed input is reported; not here
    LoadReport report;
    static const std::unique_ptr<const Catalog> catalog =
        LoadCatalog({{FORESHOCK_PATTERNS_DIR, CatalogSource::Layer::kBuiltin}}, &report);
    FUZZ_CHECK(catalog != nullptr);
    auto built = Matcher::Create(*catalog, MatcherOptions{});
    FUZZ_CHECK(built.ok());
    return std::unique_ptr<const Matcher>(std::move(built).value());
  }();
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t largest_read = 1 + data[0] * 4;
  const std::string full = testing::RecordDigest(text, nullptr, data[0], largest_read);
  const std::string with_lane = testing::RecordDigest(text, matcher.get(), data[0], largest_read);
  if (with_lane != full) PrintFirstDifference("with the lane", with_lane, "decoded in full", full);
  FUZZ_CHECK(with_lane == full);
  // With novelty on, the lane passes over no WARN+ record and none with exception text.
  const std::string notable = testing::NotableDigest(text, matcher.get(), data[0], largest_read);
  const std::string notable_full = testing::NotableDigest(text, nullptr, data[0], largest_read);
  if (notable != notable_full) PrintFirstDifference("notable with the lane", notable, "in full", notable_full);
  FUZZ_CHECK(notable == notable_full);
  const std::string runs = testing::CheckQuietRuns(text, matcher.get(), data[0], largest_read);
  if (!runs.empty()) std::fprintf(stderr, "quiet runs: %s\n", runs.c_str());
  FUZZ_CHECK(runs.empty());
  return 0;
}
