// The reader's quiet lane (ordinary lines decoded header-only straight from the read
// buffer, see RecordReader) must hand out the records the full path would: the same
// records, split at the same lines, with the same times, nodes and clusters, and the same
// counts, whatever the read sizes. Quiet runs between the records must pass over exactly
// the records the lane would have handed out next.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "app/record_reader.h"
#include "catalog/catalog_loader.h"
#include "testing/record_digest.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using testing::RecordDigest;

// The precursor the tests hide in ordinary logs (the seed incident's scroll limit).
constexpr const char* kScrollLimit =
    "Trying to create too many scroll contexts. Must be less than or equal to: [500]. This limit can be set by "
    "changing the [search.max_open_scroll_context] setting.";

class QuietLaneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LoadReport report;
    catalog_ = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
    ASSERT_NE(catalog_, nullptr);
    auto matcher = Matcher::Create(*catalog_, MatcherOptions{});
    ASSERT_TRUE(matcher.ok());
    matcher_ = std::move(matcher).value();
  }
  // Whole reads and tiny ones, against full decoding of every record; and with quiet runs
  // between the records, at random bounds.
  void ExpectSameRecords(const std::string& text, const std::string& what) {
    const std::string full = RecordDigest(text, nullptr, 1, 1 << 20);
    for (const size_t largest : {size_t{1} << 20, size_t{4096}, size_t{97}, size_t{7}}) {
      EXPECT_EQ(RecordDigest(text, matcher_.get(), static_cast<uint32_t>(largest), largest), full)
          << what << ", reads of up to " << largest << " bytes";
      uint64_t passed_over = 0;
      EXPECT_EQ(testing::CheckQuietRuns(text, matcher_.get(), static_cast<uint32_t>(largest), largest, &passed_over), "")
          << what << ", quiet runs, reads of up to " << largest << " bytes";
      passed_over_ += passed_over;
    }
  }
  // The records a reader hands out of `text`, in reads of up to `largest` bytes.
  std::vector<LogRecord> HandedOut(const std::string& text, size_t largest) {
    std::vector<LogRecord> records;
    auto reader = testing::ChunkedReader(text, matcher_.get(), 1, largest);
    EXPECT_TRUE(reader.ok());
    if (!reader.ok()) return records;
    LogRecord record;
    while (true) {
      auto next = (*reader)->Read(&record, std::chrono::milliseconds(0));
      EXPECT_TRUE(next.ok());
      if (!next.ok() || *next != RecordReader::Next::kRecord) break;
      records.push_back(record);
    }
    return records;
  }
  uint64_t passed_over_ = 0;
  std::unique_ptr<const Catalog> catalog_;
  std::unique_ptr<Matcher> matcher_;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_F(QuietLaneTest, SamplesAndCorpusGiveTheSameRecordsAsFullDecoding) {
  std::vector<fs::path> files;
  for (const char* dir : {"/seed-incident", "/formats"}) {
    for (const auto& entry : fs::directory_iterator(std::string(testing::kSamplesDir) + dir)) files.push_back(entry.path());
  }
  if (fs::is_directory(testing::kCorpusDir)) {
    for (const auto& entry : fs::recursive_directory_iterator(testing::kCorpusDir)) {
      if (entry.is_regular_file() && entry.path().extension() != ".md") files.push_back(entry.path());
    }
  }
  uint64_t quiet_records = 0;
  for (const fs::path& file : files) {
    const std::string text = ReadFile(file);
    ExpectSameRecords(text, file.string());
    // With novelty on, every WARN+ record and every one with exception text is whole.
    EXPECT_EQ(testing::NotableDigest(text, matcher_.get(), 7, 4096), testing::NotableDigest(text, nullptr, 1, 1 << 20))
        << file.string();
    uint64_t quiet = 0;
    RecordDigest(text, matcher_.get(), 1, 1 << 20, &quiet);
    quiet_records += quiet;
  }
  EXPECT_GT(quiet_records, 2000u) << "the lane is taken";
  EXPECT_GT(passed_over_, 2000u) << "quiet runs are taken";
}

// Lines on the lane's edges: stack traces and blank lines after ordinary records, CRLF,
// JSON after plain and plain after pretty-printed JSON, escapes, a line cut to the cap,
// journald and Filebeat envelopes in between, and a last line without its newline.
TEST_F(QuietLaneTest, EdgeCaseLinesGiveTheSameRecordsAsFullDecoding) {
  const std::string plain = "[2026-11-29T02:54:11,123][INFO ][o.e.n.Node] [es-1] started\n";
  const std::string crlf = "[2026-11-29T02:54:12,000][INFO ][o.e.n.Node] [es-2] crlf line\r\n";
  const std::string json =
      "{\"@timestamp\":\"2026-11-29T02:54:13.000Z\",\"log.level\":\"INFO\",\"message\":\"ok\","
      "\"elasticsearch.node.name\":\"es-3\",\"elasticsearch.cluster.name\":\"prod\"}\n";
  std::string text;
  for (int i = 0; i < 3; ++i) text += plain;
  text += "[2026-11-29T02:54:11,500][WARN ][o.e.t.TcpTransport] [es-1] failure\n"
          "java.io.IOException: broken pipe\n\tat x.y(Z.java:1)\nCaused by: boom\n";
  text += plain + "\n\n" + plain + crlf + crlf + json + json + plain + json;
  text += "{\n  \"@timestamp\": \"2026-11-29T02:54:14.000Z\",\n  \"message\": \"pretty\"\n}\n";
  text += plain + "[2026-11-29T02:54:15,000][INFO ][o.e.n.Node] [es-1] back\\slash\n" + plain;
  text += "[2026-11-29T02:54:16,000][INFO ][o.e.n.Node] [es-1] " + std::string(5000, 'x') + "\n" + plain;
  text += "{\"__REALTIME_TIMESTAMP\":\"1795924457000000\",\"_HOSTNAME\":\"es-9\",\"MESSAGE\":\"journal line\"}\n";
  // Flat JSON the ES decoder (the last one used) would read, but a Filebeat event (its
  // marker key): unwrapped.
  text += json + "{\"@timestamp\":\"2026-11-29T02:54:18.000Z\",\"message\":\"[2026-11-29T02:54:18,000][INFO ][o.e.n.Node] "
          "[es-4] via filebeat\",\"input.type\":\"filestream\",\"host.name\":\"es-4\"}\n";
  // A garbled line names no node: it is the node its input last named, also when that
  // one's line was passed over in a quiet run.
  const std::string other = "[2026-11-29T02:54:16,500][INFO ][o.e.n.Node] [es-7] elsewhere\n";
  text += other + other + other + "[2026-11-29T02:54:16,600][INFO ]{\"log\": \"garbled\n";
  text += json + plain + "[2026-11-29T02:54:17,000][INFO ][o.e.n.Node] [es-1] no newline at the end";
  ExpectSameRecords(text, "edge cases");
}

// A stack trace leaves its record pending until the next record starts; the lane resumes
// right after it (the pending record goes out first), not only after the next JSON line.
TEST_F(QuietLaneTest, TheLaneResumesAfterAMultiLineRecord) {
  const std::string plain = "[2026-11-29T02:54:11,123][INFO ][o.e.n.Node] [es-1] started\n";
  std::string text = plain + plain + plain;
  text += "[2026-11-29T02:54:11,500][WARN ][o.e.t.TcpTransport] [es-1] failure\n"
          "java.io.IOException: broken pipe\n\tat x.y(Z.java:1)\n";
  for (int i = 0; i < 20; ++i) text += plain;
  ExpectSameRecords(text, "stack trace");
  uint64_t quiet = 0;
  RecordDigest(text, matcher_.get(), 1, 1 << 20, &quiet);
  EXPECT_EQ(quiet, 21u) << "all but the first line (the decoders learn the format on it), the stack trace's "
                           "record and the last line (whose end is not known yet)";
}


// A quiet run passes over a plain record's stack trace with it, when the assembler would
// join its lines as they stand; it stops before one whose trace holds a line an envelope
// takes (here a CRI line) or a precursor, and the reader hands those out assembled.
TEST_F(QuietLaneTest, QuietRunsPassOverStackTracesTheAssemblerWouldJoinAsTheyStand) {
  const std::string plain = "[2026-11-29T02:54:11,123][INFO ][o.e.n.Node] [es-1] started\n";
  const std::string trace =
      "[2026-11-29T02:54:11,500][WARN ][o.e.t.TcpTransport] [es-1] failure\n"
      "org.elasticsearch.transport.RemoteTransportException: [es-3][10.0.0.3:9300][internal:x]\n"
      "Caused by: java.io.IOException: broken pipe\n\tat x.y(Z.java:1)\n\t... 3 more\n"
      "[es-3] a bracketed line that starts no record\n";
  const std::string enveloped =
      "[2026-11-29T02:54:11,600][WARN ][o.e.t.TcpTransport] [es-1] failure\n"
      "2026-11-29T02:54:11.600000000Z stdout F \tat x.y(Z.java:1)\n";
  const std::string hidden =
      "[2026-11-29T02:54:11,700][WARN ][o.e.a.s.TransportSearchAction] [es-1] failed\n"
      "org.elasticsearch.ElasticsearchException: " + std::string(kScrollLimit) + "\n\tat x.y(Z.java:1)\n";
  std::string text = plain;
  for (int i = 0; i < 3; ++i) text += trace + plain + plain;
  text += enveloped + plain + hidden + plain + trace + plain;
  ExpectSameRecords(text, "stack traces in quiet runs");
  auto reader = testing::ChunkedReader(text, matcher_.get(), 1, 1 << 20);
  ASSERT_TRUE(reader.ok());
  LogRecord record;
  std::vector<uint64_t> runs;
  std::vector<uint64_t> handed_out;  // first lines
  std::vector<bool> marked;
  while (true) {
    TimePoint newest;
    if (const uint64_t skipped = (*reader)->SkipQuietRun(TimePoint::max(), &newest); skipped > 0) runs.push_back(skipped);
    auto next = (*reader)->Read(&record, std::chrono::milliseconds(0));
    ASSERT_TRUE(next.ok());
    if (*next == RecordReader::Next::kEnd) break;
    if (*next != RecordReader::Next::kRecord) continue;
    handed_out.push_back(record.line_number);
    marked.push_back(record.prefiltered);
  }
  // Line 1 (the decoders learn the format on it) is handed out; 9 records, 3 of them with
  // their traces, are passed over; the enveloped trace's record (line 26) is handed out; a
  // plain line passed over; the precursor's record (line 29) handed out; a plain line and
  // a trace passed over, and the last line (whose end is not known yet) handed out.
  EXPECT_EQ(runs, (std::vector<uint64_t>{9, 1, 2}));
  EXPECT_EQ(handed_out, (std::vector<uint64_t>{1, 26, 29, 39}));
  EXPECT_EQ(marked, (std::vector<bool>{false, false, true, false}));
}

// ECS lines with stack traces (escaped line breaks and tabs) take the lane like any other
// when their trace holds no literal; a precursor inside a wrapper exception's trace still
// reaches the full decode, and its record is marked.
TEST_F(QuietLaneTest, EcsStackTracesTakeTheLaneUnlessAPrecursorHidesInThem) {
  const std::string head =
      "{\"@timestamp\":\"2026-11-29T02:54:14.000Z\",\"log.level\":\"WARN\",\"message\":\"failed\","
      "\"elasticsearch.node.name\":\"es-2\",\"error.type\":\"org.elasticsearch.action.search."
      "SearchPhaseExecutionException\",\"error.stack_trace\":\"";
  const std::string ordinary = head + "java.io.IOException: broken pipe\\n\\tat x.y(Z.java:1)\"}\n";
  const std::string hidden =
      head + "SearchPhaseExecutionException: all shards failed\\n\\tat a.b(C.java:2)\\nCaused by: " + kScrollLimit +
      "\\n\\tat d.e(F.java:3)\"}\n";
  std::string text;
  for (int i = 0; i < 10; ++i) text += ordinary;
  text += hidden + ordinary + ordinary;
  ExpectSameRecords(text, "ECS stack traces");
  uint64_t quiet = 0;
  RecordDigest(text, matcher_.get(), 1, 1 << 20, &quiet);
  EXPECT_EQ(quiet, 12u) << "every line but the precursor's";
  size_t marked = 0;
  for (const LogRecord& record : HandedOut(text, 1 << 20)) {
    if (!record.prefiltered) continue;
    ++marked;
    EXPECT_NE(record.text.find("scroll contexts"), std::string::npos);
    std::vector<PatternHit> hits;
    matcher_->Match(record, &hits);
    EXPECT_FALSE(hits.empty()) << "the scroll limit inside the trace is a hit";
  }
  EXPECT_EQ(marked, 1u);
}

// The JSON string escapes of `text` as ES writes them: quote and backslash.
std::string JsonEscaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The hits of every record a reader hands out of `text` (with the lane when `prefilter`),
// one line per record: its line number, and each hit's pattern and captures.
std::string HitsPerRecord(const Matcher& matcher, const std::string& text, const Matcher* prefilter, size_t largest_read,
                          InputStats* stats) {
  auto reader = testing::ChunkedReader(text, prefilter, 5, largest_read);
  if (!reader.ok()) return reader.status().message();
  std::ostringstream out;
  LogRecord record;
  std::vector<PatternHit> hits;
  while (true) {
    auto next = (*reader)->Read(&record, std::chrono::milliseconds(0));
    if (!next.ok() || *next == RecordReader::Next::kEnd) break;
    if (*next != RecordReader::Next::kRecord) continue;
    hits.clear();
    matcher.Match(record, &hits);
    out << record.line_number;
    for (const PatternHit& hit : hits) {
      out << ' ' << hit.pattern;
      for (const Capture& capture : hit.captures) out << ' ' << capture.name << '=' << capture.text;
    }
    out << '\n';
  }
  *stats = (*reader)->stats();
  return out.str();
}

// ES 8 lines whose messages hold escaped JSON (ILM steps, transform states) and every
// catalog example, with escapes put in at random (\", \\, \/ for a slash, \n, \t, \u0007):
// each record gives the same hits, captures included, with the lane as decoded in full. The
// lane takes the escaped JSON, and leaves a precursor whose literal an escape hides from the
// raw bytes (a slash written \/) to the full decode.
TEST_F(QuietLaneTest, EscapedJsonGivesEveryRecordTheSameHitsAsFullDecoding) {
  std::vector<std::string> messages = {
      R"(moving index [.ds-logs-app-2026.11.29-000042] from [{\"phase\":\"hot\",\"action\":\"rollover\",)"
      R"(\"name\":\"check-rollover-ready\"}] to [{\"phase\":\"hot\",\"action\":\"rollover\",\"name\":\"attempt-rollover\"}] )"
      R"(in policy [logs])",
      R"([ecommerce-summary] updating state for transform to [{\"task_state\":\"started\",\"indexer_state\":\"stopped\",)"
      R"(\"checkpoint\":42,\"progress\":{\"docs_processed\":100},\"should_stop_at_checkpoint\":false}].)",
      R"(path \\\\share\\logs\/x is \"quoted\")",
  };
  size_t examples = 0;
  for (const Pattern& pattern : catalog_->patterns()) {
    for (const PatternExample& example : pattern.examples) {
      messages.push_back(JsonEscaped(example.line));
      ++examples;
    }
  }
  ASSERT_GT(examples, 80u);
  const std::string inserted[] = {"\\\"", "\\\\", "\\n\\tat x.y(Z.java:1)", "\\u0007", "\\t"};
  std::mt19937 random(11);
  std::string text;
  for (int n = 0; n < 4000; ++n) {
    // Half the lines of a busy cluster's ordinary vocabulary, half precursors.
    std::string message = messages[random() % 2 == 0 ? random() % 3 : random() % messages.size()];
    const int change = static_cast<int>(random() % 4);
    if (change == 1) {
      size_t at = random() % (message.size() + 1);
      while (at > 0 && message[at - 1] == '\\') --at;  // not inside an escape
      message.insert(at, inserted[random() % std::size(inserted)]);
    } else if (change == 2) {
      const size_t slash = message.find('/', random() % (message.size() + 1));
      if (slash != std::string::npos && (slash == 0 || message[slash - 1] != '\\')) message.insert(slash, "\\");
    }
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "2026-11-29T%02d:%02d:%02d.%03dZ", n / 3600, n / 60 % 60, n % 60, n % 1000);
    text += std::string("{\"@timestamp\":\"") + stamp + "\", \"log.level\": \"" + (n % 3 == 0 ? "WARN" : "INFO") +
            "\", \"message\":\"" + message + "\", \"ecs.version\": \"1.2.0\",\"service.name\":\"ES_ECS\"," +
            "\"event.dataset\":\"elasticsearch.server\",\"elasticsearch.node.name\":\"es-1\"" +
            (n % 5 == 0 ? ",\"error.type\":\"java.lang.IllegalStateException\",\"error.stack_trace\":\"" + message +
                              "\\n\\tat o.e.X.y(X.java:1)\""
                        : std::string()) +
            "}\n";
  }
  InputStats stats;
  InputStats unused;
  for (const size_t largest : {size_t{1} << 20, size_t{4096}}) {
    const std::string with_lane = HitsPerRecord(*matcher_, text, matcher_.get(), largest, &stats);
    const std::string full = HitsPerRecord(*matcher_, text, nullptr, largest, &unused);
    EXPECT_EQ(with_lane, full) << "reads of up to " << largest << " bytes";
    EXPECT_GT(std::count(full.begin(), full.end(), ' '), 1000) << "precursors hit";
    EXPECT_GT(stats.quiet_lane, 1000u) << "the lane takes lines with escapes";
  }
  // Lines of escaped JSON alone take the lane, every one.
  std::string steps;
  for (int n = 0; n < 50; ++n) {
    steps += "{\"@timestamp\":\"2026-11-29T02:54:11.000Z\", \"log.level\": \"INFO\", \"message\":\"" + messages[n % 2] +
             "\", \"ecs.version\": \"1.2.0\",\"elasticsearch.node.name\":\"es-1\"}\n";
  }
  HitsPerRecord(*matcher_, steps, matcher_.get(), 1 << 20, &stats);
  EXPECT_EQ(stats.quiet_lane, 50u);
  ExpectSameRecords(text, "escaped JSON");
}

// Past GateTuner's sample, the reader asks a gate tuned to the input. Tuned on near misses
// of every catalog example (their words with two letters swapped: most of the literals'
// keys, none of the literals; level names kept), it must still let through every example and give each
// record the hits the full decode gives.
TEST_F(QuietLaneTest, AGateTunedToTheInputLetsThroughWhatTheCatalogMatches) {
  std::vector<std::string> examples;
  for (const Pattern& pattern : catalog_->patterns()) {
    for (const PatternExample& example : pattern.examples) examples.push_back(example.line);
  }
  ASSERT_GT(examples.size(), 80u);
  const auto near_miss = [](std::string line) {
    for (size_t at = 0; at < line.size();) {
      size_t end = at;
      while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end])) != 0) ++end;
      const bool level =
          std::all_of(line.begin() + at, line.begin() + end, [](char c) { return std::isupper(c) != 0; });
      if (end - at >= 4 && !level) std::swap(line[at + (end - at) / 2 - 1], line[at + (end - at) / 2]);
      at = end + 1;
    }
    return line;
  };
  std::string text;
  while (text.size() < std::max<size_t>(GateTuner::kSampleBytes * 4, 2 << 20)) {
    for (const std::string& example : examples) {
      if (example.find('\n') == std::string::npos) text += near_miss(example) + "\n";
    }
  }
  for (int round = 0; round < 3; ++round) {
    for (const std::string& example : examples) text += example + "\n" + near_miss(example) + "\n";
  }
  InputStats stats;
  InputStats unused;
  const std::string with_lane = HitsPerRecord(*matcher_, text, matcher_.get(), 1 << 20, &stats);
  const std::string full = HitsPerRecord(*matcher_, text, nullptr, 1 << 20, &unused);
  EXPECT_EQ(with_lane, full);
  EXPECT_EQ(stats.gates_tuned, 1u);
  EXPECT_GT(stats.quiet_lane, 2000u) << "the near misses take the lane";
  EXPECT_GT(std::count(full.begin(), full.end(), ' '), static_cast<long>(3 * examples.size() / 2))
      << "the examples hit";
}

// A record the reader marks prefiltered is one the prefilter lets through on its decoded
// text (so matching may skip asking again); the lines with a pattern's literals are marked,
// on every path (the quiet lane's single lines, quiet runs' stops, assembled stack traces).
// The candidates listed with it (from the raw parts) hold every one the decoded text has.
TEST_F(QuietLaneTest, ARecordMarkedPrefilteredIsOneThePrefilterLetsThrough) {
  const std::string plain = "[2026-11-29T02:54:11,123][INFO ][o.e.n.Node] [es-1] started\n";
  const std::string limit = kScrollLimit;
  std::string text = plain + plain;
  text += "[2026-11-29T02:54:12,000][WARN ][o.e.s.SearchService] [es-1] " + limit + "\n" + plain;
  text += "[2026-11-29T02:54:13,000][WARN ][o.e.a.s.TransportSearchAction] [es-1] failed\n"
          "org.elasticsearch.ElasticsearchException: " + limit + "\n\tat x.y(Z.java:1)\n" + plain + plain;
  // (The decoders learn the JSON format on its first line, decoded in full.)
  const std::string json = "{\"@timestamp\":\"2026-11-29T02:54:14.000Z\",\"log.level\":\"WARN\",\"message\":\"";
  text += json + "ordinary\"}\n" + json + limit + "\",\"elasticsearch.node.name\":\"es-2\"}\n" + json + "ordinary\"}\n";
  for (const size_t largest : {size_t{1} << 20, size_t{97}}) {
    size_t prefiltered = 0;
    for (const LogRecord& record : HandedOut(text, largest)) {
      EXPECT_EQ(record.prefiltered, record.text.find("scroll contexts") != std::string::npos) << record.line_number;
      if (!record.prefiltered) continue;
      ++prefiltered;
      EXPECT_TRUE(matcher_->MayMatch(record.text)) << record.line_number;
      const std::string_view decoded = record.text;
      ListedCandidates from_decoded;
      ASSERT_TRUE(matcher_->MayMatchParts({&decoded, 1}, &from_decoded));
      EXPECT_NE(record.candidates.matcher, 0u) << record.line_number;
      EXPECT_EQ(record.candidates.matcher, from_decoded.matcher);
      EXPECT_FALSE(from_decoded.patterns.empty());
      EXPECT_TRUE(std::includes(record.candidates.patterns.begin(), record.candidates.patterns.end(),
                                from_decoded.patterns.begin(), from_decoded.patterns.end()))
          << record.line_number;
    }
    EXPECT_EQ(prefiltered, 3u) << "reads of up to " << largest;
  }
}

}  // namespace
}  // namespace foreshock
