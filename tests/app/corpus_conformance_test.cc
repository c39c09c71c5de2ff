// Every real ES/OpenSearch log in the shared corpus (the JDK 8 GC log included) decodes, and
// where Filebeat's own elasticsearch module published the records it expects, foreshock
// reads the same time, level, logger, node, cluster, dataset, line, message and exception,
// and captures the same values, record for record. Skips cleanly without the corpus.

#include <gtest/gtest.h>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "app/record_reader.h"
#include "input/fd_source.h"
#include "testing/subprocess.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

fs::path Corpus() { return fs::path(testing::kCorpusDir); }

std::vector<LogRecord> ReadAll(const fs::path& path, InputStats* stats = nullptr) {
  RecordReaderOptions options;
  options.default_node = "file-node";
  auto reader = RecordReader::Create(std::move(FdSource::Open(path.string())).value(), options);
  EXPECT_TRUE(reader.ok());
  std::vector<LogRecord> records;
  LogRecord record;
  while (true) {
    auto next = (*reader)->Read(&record, std::chrono::milliseconds(100));
    EXPECT_TRUE(next.ok()) << path;
    if (!next.ok() || *next != RecordReader::Next::kRecord) break;
    records.push_back(record);
  }
  if (stats != nullptr) *stats = (*reader)->stats();
  return records;
}

std::vector<fs::path> CorpusLogs() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(Corpus())) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name != "SOURCES.md" && !name.ends_with("-expected.json")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The structured logs ES and Filebeat's test suite wrote: every record carries its own time,
// a level and a node.
TEST(CorpusConformanceTest, StructuredLogsDecodeWithTimeLevelAndNode) {
  if (!fs::is_directory(Corpus())) GTEST_SKIP() << "no shared corpus at " << Corpus();
  int files = 0;
  for (const fs::path& path : CorpusLogs()) {
    if (path.parent_path().filename() == "github-issues") continue;  // checked below
    ++files;
    InputStats stats;
    const auto records = ReadAll(path, &stats);
    ASSERT_FALSE(records.empty()) << path;
    EXPECT_EQ(stats.unreadable, 0u) << path;
    EXPECT_EQ(stats.malformed, 0u) << path;
    for (const LogRecord& record : records) {
      EXPECT_FALSE(record.time_inherited) << path << ":" << record.line_number;
      EXPECT_NE(record.level, Level::kUnknown) << path << ":" << record.line_number;
      EXPECT_FALSE(record.node.empty()) << path << ":" << record.line_number;
    }
  }
  EXPECT_GE(files, 12);
}

// Snippets quoted in GitHub issues: wrapped, prefixed, indented, cut. Nothing in them is
// binary; every record in a log format carries its own time and level.
TEST(CorpusConformanceTest, TicketSnippetsDecodeWithoutLosingALine) {
  if (!fs::is_directory(Corpus())) GTEST_SKIP() << "no shared corpus at " << Corpus();
  for (const fs::path& path : CorpusLogs()) {
    if (path.parent_path().filename() != "github-issues") continue;
    InputStats stats;
    const auto records = ReadAll(path, &stats);
    EXPECT_FALSE(records.empty()) << path;
    EXPECT_EQ(stats.unreadable, 0u) << path;
    for (const auto& [format, count] : stats.formats) {
      if (format.ends_with("/text")) continue;
      for (const LogRecord& record : records) {
        if (record.time_inherited) continue;
        EXPECT_NE(record.level, Level::kUnknown) << path << ":" << record.line_number;
      }
    }
  }
}

std::string ExpectedLogger(const nlohmann::json& expected) {
  for (const char* key : {"elasticsearch.component", "log.logger", "elasticsearch.slowlog.logger"}) {
    if (expected.contains(key)) return expected[key];
  }
  return "";
}

// Filebeat's pipeline moves a leading "[index] " or "[gc][young][a][b] " into fields and
// sometimes keeps the whole line; foreshock keeps the message as ES wrote it. They agree when
// Filebeat's message, less any header it kept, is where foreshock's message ends.
bool MessagesAgree(const std::string& expected, const LogRecord& ours) {
  std::string want = expected;
  while (!want.empty() && (want.back() == '\n' || want.back() == ' ')) want.pop_back();
  if (want.starts_with("[") && want.size() > 24 && want[24] == ']') {
    const size_t node_end = want.find("] ", want.find("] [", 25) + 3);
    if (node_end != std::string::npos) want = want.substr(node_end + 2);
  }
  const std::string_view have = want.find('\n') == std::string::npos ? ours.message()
                                                                      : std::string_view(ours.text);
  return have.ends_with(want) || want.ends_with(have);
}

// The same agreement on what match --show printed: its message, and for a record Filebeat
// kept whole, the message and the exception lines, which --show cuts at 2,000 bytes.
bool TextsAgree(std::string want, const nlohmann::json& ours) {
  while (!want.empty() && (want.back() == '\n' || want.back() == ' ')) want.pop_back();
  if (want.starts_with("[") && want.size() > 24 && want[24] == ']') {
    const size_t node_end = want.find("] ", want.find("] [", 25) + 3);
    if (node_end != std::string::npos) want = want.substr(node_end + 2);
  }
  std::string have = ours["message"];
  if (want.find('\n') == std::string::npos) return have.ends_with(want) || want.ends_with(have);
  const std::string exception = ours["exception"];
  have += "\n" + exception;
  if (exception.size() == 2000) return want.starts_with(have);
  return have.ends_with(want) || want.ends_with(have);
}

TEST(CorpusConformanceTest, AgreesWithFilebeatExpectedOutputRecordForRecord) {
  if (!fs::is_directory(Corpus())) GTEST_SKIP() << "no shared corpus at " << Corpus();
  for (const char* name : {"es5-6-plain-beats-server-multiline.log", "es6-plain-beats-slowlog.log",
                           "es8-ecs-beats-server.json"}) {
    std::ifstream in(Corpus() / (std::string(name) + "-expected.json"));
    ASSERT_TRUE(in) << name;
    const nlohmann::json expected = nlohmann::json::parse(in);
    const auto records = ReadAll(Corpus() / name);
    ASSERT_EQ(records.size(), expected.size()) << name;
    for (size_t i = 0; i < records.size(); ++i) {
      const LogRecord& ours = records[i];
      const nlohmann::json& want = expected[i];
      const std::string where = std::string(name) + " record " + std::to_string(i);
      EXPECT_EQ(FormatTimestamp(ours.time), want["@timestamp"].get<std::string>()) << where;
      EXPECT_EQ(ours.level, ParseLevel(want["log.level"].get<std::string>())) << where;
      EXPECT_EQ(ours.logger, ExpectedLogger(want)) << where;
      const std::string node = want.value("elasticsearch.node.name", "");
      EXPECT_EQ(ours.node, node.empty() ? "file-node" : node) << where;
      EXPECT_TRUE(MessagesAgree(want["message"], ours))
          << where << "\n expected: " << want["message"] << "\n ours: " << ours.text;
    }
  }
}

// The 1-based line that byte `offset` of `path` is on.
uint64_t LineAt(const fs::path& path, uint64_t offset) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(offset, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(offset));
  return 1 + static_cast<uint64_t>(std::count(bytes.begin(), bytes.end(), '\n'));
}

// What `foreshock match --show --json` says it understood of each record (the built binary,
// as a user sees it), field by field against what Filebeat's elasticsearch module published:
// time, level, logger, node, cluster, dataset, line, message and exception, and the values
// the matching patterns captured where Filebeat parses the same (GC overhead, slow-log took).
TEST(CorpusConformanceTest, MatchShowAgreesWithFilebeatOnEveryDecodedField) {
  if (!fs::is_directory(Corpus())) GTEST_SKIP() << "no shared corpus at " << Corpus();
  for (const char* name : {"es5-6-plain-beats-server-multiline.log", "es6-plain-beats-slowlog.log",
                           "es8-ecs-beats-server.json"}) {
    std::ifstream in(Corpus() / (std::string(name) + "-expected.json"));
    const nlohmann::json expected = nlohmann::json::parse(in);
    const fs::path path = Corpus() / name;
    const testing::ProcessResult shown =
        testing::RunForeshock({"match", "--show", "--json", "--node", "file-node", path.string()});
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    std::vector<nlohmann::json> records;
    std::istringstream lines(shown.out);
    for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(records.size(), expected.size()) << name;
    for (size_t i = 0; i < records.size(); ++i) {
      const nlohmann::json& ours = records[i];
      const nlohmann::json& want = expected[i];
      const std::string where = std::string(name) + " record " + std::to_string(i);
      EXPECT_EQ(ours["format"], path.extension() == ".json" ? "ecs" : "es-plain") << where;
      EXPECT_EQ(ours["envelope"], "") << where;
      EXPECT_EQ(ours["@timestamp"], want["@timestamp"]) << where;
      EXPECT_FALSE(ours["time_inherited"].get<bool>()) << where;
      EXPECT_EQ(ParseLevel(ours["level"].get<std::string>()), ParseLevel(want["log.level"].get<std::string>())) << where;
      EXPECT_EQ(ours["logger"], ExpectedLogger(want)) << where;
      const std::string node = want.value("elasticsearch.node.name", "");
      EXPECT_EQ(ours["node"], node.empty() ? "file-node" : node) << where;
      EXPECT_EQ(ours["cluster"], want.value("elasticsearch.cluster.name", "")) << where;
      // Filebeat names the file (server, slowlog); ES's JSON names the log (server,
      // index_search_slowlog): the same log either way.
      const std::string dataset = ours["dataset"];
      const std::string their_dataset = want["event.dataset"];
      EXPECT_EQ(dataset.find("slowlog") != std::string::npos, their_dataset.ends_with("slowlog")) << where;
      EXPECT_EQ(dataset == "elasticsearch.server", their_dataset == "elasticsearch.server") << where;
      EXPECT_EQ(ours["line"].get<uint64_t>(), LineAt(path, want["log.offset"].get<uint64_t>())) << where;
      // Message and exception together are the record Filebeat kept, less the header it moved
      // into fields.
      EXPECT_TRUE(TextsAgree(want["message"], ours)) << where << "\n theirs: " << want["message"] << "\n ours: " << ours;
      // The values both parse: each one Filebeat parsed, a pattern captured too.
      for (const auto& [field, capture] : {std::pair{"elasticsearch.server.gc.overhead_seq", "gc_seq"},
                                           std::pair{"elasticsearch.slowlog.took", "took"}}) {
        if (!want.contains(field)) continue;
        int captured = 0;
        for (const nlohmann::json& hit : ours["hits"]) {
          if (!hit["captures"].contains(capture)) continue;
          EXPECT_EQ(hit["captures"][capture], want[field]) << where;
          ++captured;
        }
        EXPECT_GT(captured, 0) << where << ": no pattern captured " << capture;
      }
    }
  }
}

}  // namespace
}  // namespace foreshock
