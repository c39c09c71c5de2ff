// Google Benchmark micro-benchmarks of the per-record stages, each on lines like those a
// production cluster writes: framing a buffer into lines, each decoder (full decode and the
// header-only fast path), the matcher with the shipped catalog (an ordinary line the
// prefilter rules out, and a precursor line matched in full), and the correlator taking a
// hit, the record reader on ordinary lines (quiet lane and full decoding), and a page-cached
// file read through FdSource, into its own buffer and into a string. Build with -DFORESHOCK_BENCH=ON; run
// build/bench/micro/foreshock_stages_bench.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "app/common_options.h"
#include "app/record_reader.h"
#include "catalog/catalog_loader.h"
#include "correlate/correlator.h"
#include "decode/decoder_registry.h"
#include "framing/line_framer.h"
#include "input/fd_source.h"
#include "match/matcher.h"

namespace foreshock {
namespace {

const char* const kEcsLine =
    R"({"@timestamp":"2026-11-29T02:54:11.482Z","log.level":"INFO","message":"[orders-2026.11.29][3] primary-replica resync completed with 0 operations","ecs.version":"1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[es-data-2][generic][T#4]","log.logger":"org.elasticsearch.index.shard.IndexShard","elasticsearch.cluster.uuid":"Xb3kE9lHQcqL4pYzV0nT2g","elasticsearch.node.id":"n8Qv1k2mR4e5Yt7Uz9wXaQ","elasticsearch.node.name":"es-data-2","elasticsearch.cluster.name":"prod"})";
const char* const kEsJsonLine =
    R"({"type": "server", "timestamp": "2026-11-29T02:54:11,482Z", "level": "INFO", "component": "o.e.i.s.IndexShard", "cluster.name": "prod", "node.name": "es-data-2", "message": "[orders-2026.11.29][3] primary-replica resync completed with 0 operations", "cluster.uuid": "Xb3kE9lHQcqL4pYzV0nT2g", "node.id": "n8Qv1k2mR4e5Yt7Uz9wXaQ"  })";
const char* const kPlainLine =
    "[2026-11-29T02:54:11,482][INFO ][o.e.i.s.IndexShard       ] [es-data-2] [orders-2026.11.29][3] "
    "primary-replica resync completed with 0 operations";
const char* const kPrecursorLine =
    "[2026-11-29T02:54:11,482][WARN ][o.e.s.SearchService      ] [es-data-2] Trying to create too many "
    "scroll contexts. Must be less than or equal to: [500]. This limit can be set by changing the "
    "[search.max_open_scroll_context] setting.";

const Catalog& ShippedCatalog() {
  static const std::unique_ptr<const Catalog> catalog = [] {
    LoadReport report;
    auto loaded = LoadCatalog({{app::FindBuiltinCatalog().value(), CatalogSource::Layer::kBuiltin}}, &report);
    if (loaded == nullptr) std::abort();
    return loaded;
  }();
  return *catalog;
}

const Matcher& ShippedMatcher() {
  static const std::unique_ptr<Matcher> matcher = Matcher::Create(ShippedCatalog(), MatcherOptions{}).value();
  return *matcher;
}

void BM_LineFramer(benchmark::State& state) {
  std::string buffer;
  while (buffer.size() < (1 << 20)) buffer += std::string(kEcsLine) + "\n";
  for (auto _ : state) {
    LineFramer framer(1 << 20);
    size_t lines = 0;
    framer.Feed(buffer, [&](std::string_view, bool) { ++lines; });
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * buffer.size()));
}
BENCHMARK(BM_LineFramer);

void Decode(benchmark::State& state, const char* format, const char* line, bool header_only) {
  auto set = DecoderSet::Create(format).value();
  const DecodeOptions options;
  LogRecord record;
  std::string why;
  std::string_view used;
  RecordHeader header;
  for (auto _ : state) {
    record.Clear();
    if (header_only) {
      if (!set->DecodeHeader(line, options, &header, &used)) state.SkipWithError("no fast path");
    } else {
      benchmark::DoNotOptimize(set->Decode(line, options, &record, &why, &used));
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * std::string_view(line).size()));
}
BENCHMARK_CAPTURE(Decode, ecs_full, "ecs", kEcsLine, false);
BENCHMARK_CAPTURE(Decode, ecs_header, "ecs", kEcsLine, true);
BENCHMARK_CAPTURE(Decode, es_json_full, "es-json", kEsJsonLine, false);
BENCHMARK_CAPTURE(Decode, es_json_header, "es-json", kEsJsonLine, true);
BENCHMARK_CAPTURE(Decode, es_plain_full, "es-plain", kPlainLine, false);
BENCHMARK_CAPTURE(Decode, es_plain_header, "es-plain", kPlainLine, true);

void BM_MatcherRulesOutOrdinaryLine(benchmark::State& state) {
  const Matcher& matcher = ShippedMatcher();
  const std::string_view text = std::string_view(kPlainLine).substr(72);
  for (auto _ : state) benchmark::DoNotOptimize(matcher.MayMatch(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_MatcherRulesOutOrdinaryLine);

LogRecord DecodedPrecursor() {
  auto set = DecoderSet::Create("es-plain").value();
  LogRecord record;
  std::string why;
  std::string_view used;
  set->Decode(kPrecursorLine, DecodeOptions{}, &record, &why, &used);
  return record;
}

void BM_MatcherMatchesPrecursor(benchmark::State& state) {
  const Matcher& matcher = ShippedMatcher();
  const LogRecord record = DecodedPrecursor();
  std::vector<PatternHit> hits;
  for (auto _ : state) {
    hits.clear();
    matcher.Match(record, &hits);
    if (hits.empty()) state.SkipWithError("the precursor did not match");
  }
}
BENCHMARK(BM_MatcherMatchesPrecursor);

void BM_CorrelatorObservesHit(benchmark::State& state) {
  const Matcher& matcher = ShippedMatcher();
  LogRecord record = DecodedPrecursor();
  std::vector<PatternHit> hits;
  matcher.Match(record, &hits);
  Correlator correlator(ShippedCatalog(), CorrelatorOptions{});
  std::vector<Alert> alerts;
  for (auto _ : state) {
    record.time += std::chrono::milliseconds(10);  // a new record each time, not a duplicate
    alerts.clear();
    correlator.Observe(record, hits, &alerts);
  }
}
BENCHMARK(BM_CorrelatorObservesHit);

// A buffer of ordinary plain lines, handed out whole by each Read.
class RepeatedLines final : public Source {
 public:
  explicit RepeatedLines(std::string block) : block_(std::move(block)) {}
  Result<ReadState> Read(std::string* out, Duration /*wait*/) override {
    out->append(block_);
    return ReadState::kData;
  }
  const std::string& name() const override { return name_; }

 private:
  std::string block_;
  std::string name_ = "bench";
};

// The reader's per-record cost on ordinary lines: framing, the literal gate and header-only
// decoding, with (quiet lane) and without (every record decoded in full) the prefilter.
void ReadOrdinaryRecords(benchmark::State& state, bool prefilter) {
  std::string block;
  for (int i = 0; i < 2048; ++i) block += std::string(kPlainLine) + "\n";
  RecordReaderOptions options;
  options.prefilter = prefilter ? &ShippedMatcher() : nullptr;
  auto reader = RecordReader::Create(std::make_unique<RepeatedLines>(block), options).value();
  LogRecord record;
  for (auto _ : state) {
    if (*reader->Read(&record, Duration{}) != RecordStream::Next::kRecord) state.SkipWithError("no record");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * (block.size() / 2048)));
  state.counters["quiet_lane"] = static_cast<double>(reader->stats().quiet_lane) / static_cast<double>(state.iterations());
}
BENCHMARK_CAPTURE(ReadOrdinaryRecords, quiet_lane, true);
BENCHMARK_CAPTURE(ReadOrdinaryRecords, full_decode, false);

// The same lines passed over in quiet runs, as Pipeline::Run asks for them (a record handed
// out where a run stops, here at the end of each read buffer); per iteration, 2048 records.
void PassOverOrdinaryRecords(benchmark::State& state) {
  constexpr int kLines = 2048;
  std::string block;
  for (int i = 0; i < kLines; ++i) block += std::string(kPlainLine) + "\n";
  RecordReaderOptions options;
  options.prefilter = &ShippedMatcher();
  auto reader = RecordReader::Create(std::make_unique<RepeatedLines>(block), options).value();
  LogRecord record;
  TimePoint newest;
  for (auto _ : state) {
    for (uint64_t records = 0; records < kLines;) {
      const uint64_t passed = reader->SkipQuietRun(TimePoint::max(), &newest);
      if (passed > 0) {
        records += passed;
      } else if (*reader->Read(&record, Duration{}) == RecordStream::Next::kRecord) {
        ++records;
      } else {
        state.SkipWithError("no record");
        break;
      }
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * block.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kLines);
  state.counters["in_runs"] = static_cast<double>(reader->stats().quiet_run) / static_cast<double>(reader->stats().records);
}
BENCHMARK(PassOverOrdinaryRecords);

// A page-cached file of ordinary plain lines (64 MiB), written on first use, removed at exit.
char g_file_path[64];
const char* PageCachedFile() {
  if (g_file_path[0] != '\0') return g_file_path;
  std::snprintf(g_file_path, sizeof g_file_path, "/tmp/foreshock-bench-%d.log", static_cast<int>(::getpid()));
  std::ofstream out(g_file_path, std::ios::binary);
  const std::string line = std::string(kPlainLine) + "\n";
  for (size_t size = 0; size < (size_t{64} << 20); size += line.size()) out << line;
  std::atexit([] { std::remove(g_file_path); });
  return g_file_path;
}

size_t CountLines(std::string_view bytes) {
  size_t lines = 0;
  const char* const end = bytes.data() + bytes.size();
  for (const char* at = bytes.data(); at < end; ++at, ++lines) {
    at = static_cast<const char*>(std::memchr(at, '\n', static_cast<size_t>(end - at)));
    if (at == nullptr) break;
  }
  return lines;
}

// The whole file through FdSource, its lines counted: ReadView() reads it into one buffer
// reused (as the reader does), Read() appends each read to a string.
void ReadPageCachedFile(benchmark::State& state, bool view_buffer) {
  const std::string path = PageCachedFile();
  size_t bytes = 0;
  for (auto _ : state) {
    auto source = FdSource::Open(path).value();
    std::string buffer;
    std::string_view view;
    size_t lines = 0;
    while (true) {
      buffer.clear();
      auto read = view_buffer ? source->ReadView(&buffer, &view, Duration{}) : source->Read(&buffer, Duration{});
      if (!read.ok() || *read != Source::ReadState::kData) break;
      if (!view_buffer) view = buffer;
      lines += CountLines(view);
      bytes += view.size();
    }
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK_CAPTURE(ReadPageCachedFile, read_view, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ReadPageCachedFile, read_copy, false)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace foreshock

BENCHMARK_MAIN();
