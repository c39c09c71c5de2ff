// The reader's quiet lane (ordinary lines decoded header-only straight from the read
// buffer, see RecordReader) must hand out the records the full path would: the same
// records, split at the same lines, with the same times, nodes and clusters, and the same
// counts, whatever the read sizes.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "app/record_reader.h"
#include "catalog/catalog_loader.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

// Hands out a text in chunks of random sizes, as reads of a pipe or a growing file would.
class ChunkedSource final : public Source {
 public:
  ChunkedSource(std::string text, uint32_t seed, size_t largest)
      : text_(std::move(text)), random_(seed), largest_(largest) {}
  Result<ReadState> Read(std::string* out, Duration /*wait*/) override {
    if (at_ == text_.size()) return ReadState::kEnd;
    const size_t size = std::min(text_.size() - at_, 1 + random_() % largest_);
    out->append(text_, at_, size);
    at_ += size;
    return ReadState::kData;
  }
  const std::string& name() const override { return name_; }

 private:
  std::string text_;
  std::mt19937 random_;
  size_t largest_;
  size_t at_ = 0;
  std::string name_ = "chunked";
};

// What a header-only record keeps, one line per record, and the input's counts.
std::string Digest(const std::string& text, const Matcher* prefilter, uint32_t seed, size_t largest_read,
                   uint64_t* quiet = nullptr) {
  RecordReaderOptions options;
  options.prefilter = prefilter;
  options.max_line_bytes = 4096;
  options.default_node = "default";
  auto reader = RecordReader::Create(std::make_unique<ChunkedSource>(text, seed, largest_read), options);
  EXPECT_TRUE(reader.ok());
  std::ostringstream out;
  LogRecord record;
  while (true) {
    auto next = (*reader)->Read(&record, std::chrono::milliseconds(0));
    EXPECT_TRUE(next.ok());
    if (!next.ok() || *next == RecordReader::Next::kEnd) break;
    if (*next != RecordReader::Next::kRecord) continue;
    const std::string when = record.time_inherited ? "inherited" : FormatTimestamp(record.time);
    out << record.line_number << ' ' << when << ' ' << record.node << ' ' << record.cluster << ' '
        << record.truncated << '\n';
  }
  const InputStats& stats = (*reader)->stats();
  out << "lines " << stats.lines << " records " << stats.records << " malformed " << stats.malformed
      << " unreadable " << stats.unreadable << " truncated " << stats.truncated << " no_time " << stats.no_time;
  for (const auto& [format, count] : stats.formats) out << ' ' << format << '=' << count;
  if (quiet != nullptr) *quiet = stats.quiet_lane;
  return out.str();
}

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
  // Whole reads and tiny ones, against full decoding of every record.
  void ExpectSameRecords(const std::string& text, const std::string& what) {
    const std::string full = Digest(text, nullptr, 1, 1 << 20);
    for (const size_t largest : {size_t{1} << 20, size_t{4096}, size_t{97}, size_t{7}}) {
      EXPECT_EQ(Digest(text, matcher_.get(), static_cast<uint32_t>(largest), largest), full)
          << what << ", reads of up to " << largest << " bytes";
    }
  }
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
    uint64_t quiet = 0;
    Digest(text, matcher_.get(), 1, 1 << 20, &quiet);
    quiet_records += quiet;
  }
  EXPECT_GT(quiet_records, 2000u) << "the lane is taken";
}

// Lines on the lane's edges: stack traces and blank lines after ordinary records, CRLF,
// JSON after plain and plain after pretty-printed JSON, escapes, a line cut to the cap, a
// journald envelope in between, and a last line without its newline.
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
  Digest(text, matcher_.get(), 1, 1 << 20, &quiet);
  EXPECT_EQ(quiet, 21u) << "all but the first line (the decoders learn the format on it), the stack trace's "
                           "record and the last line (whose end is not known yet)";
}

}  // namespace
}  // namespace foreshock
