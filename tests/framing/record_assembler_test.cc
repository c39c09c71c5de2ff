#include "framing/record_assembler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace foreshock {
namespace {

struct Record {
  std::string text;
  uint64_t first_line;
  bool truncated;
};

std::vector<Record> Assemble(const std::vector<std::string>& lines, AssemblerLimits limits = {}) {
  RecordAssembler assembler(limits);
  std::vector<Record> records;
  auto collect = [&](const RawRecord& raw) {
    records.push_back({std::string(raw.text), raw.first_line, raw.truncated});
  };
  uint64_t number = 0;
  for (const std::string& line : lines) assembler.Add(line, false, ++number, collect);
  assembler.Flush(collect);
  return records;
}

TEST(RecordAssemblerTest, PlainRecordOwnsItsStackTraceAndWrappedLines) {
  auto records = Assemble({
      "[2026-11-29T02:54:11,123][WARN ][r.suppressed] [node-2] path: /_search",
      "org.elasticsearch.action.search.SearchPhaseExecutionException: all shards failed",
      "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.onPhaseFailure(X.java:1)",
      "Caused by: org.elasticsearch.ElasticsearchException: Trying to create too many scroll contexts",
      "\t... 12 more",
      "[2026-11-29T02:54:12,000][INFO ][o.e.n.Node] [node-2] started",
  });
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].first_line, 1u);
  EXPECT_NE(records[0].text.find("\nCaused by: org.elasticsearch.ElasticsearchException"),
            std::string::npos);
  EXPECT_EQ(records[1].first_line, 6u);
  EXPECT_EQ(records[1].text, "[2026-11-29T02:54:12,000][INFO ][o.e.n.Node] [node-2] started");
}

TEST(RecordAssemblerTest, JsonLinesAreRecordsOfTheirOwn) {
  auto records = Assemble({"{\"a\":1}", "{\"a\":2}", "not json, not a continuation"});
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2].text, "not json, not a continuation");
}

TEST(RecordAssemblerTest, ExceptionTextWithoutHeaderKeepsItsCausedByChain) {
  auto records = Assemble({
      "org.elasticsearch.transport.RemoteTransportException: [n][1.2.3.4:9300][search]",
      "Caused by: org.elasticsearch.ElasticsearchException: Trying to create too many scroll contexts.",
      "             at org.elasticsearch.search.SearchService.createAndPutContext(SearchService.java:542)",
  });
  ASSERT_EQ(records.size(), 1u);
}

TEST(RecordAssemblerTest, SkipsBlankLinesBetweenRecords) {
  auto records = Assemble({"[2026-11-29T02:54:11,123][INFO ][a] [n] one", "", "   ",
                           "[2026-11-29T02:54:12,123][INFO ][a] [n] two"});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].first_line, 4u);
}

TEST(RecordAssemblerTest, CapsLinesPerRecordAndMarksTheCut) {
  std::vector<std::string> lines = {"[2026-11-29T02:54:11,123][WARN ][a] [n] trace"};
  for (int i = 0; i < 50; ++i) lines.push_back("\tat frame" + std::to_string(i));
  lines.push_back("[2026-11-29T02:54:12,123][INFO ][a] [n] next");
  auto records = Assemble(lines, AssemblerLimits{1 << 20, 10});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_TRUE(records[0].truncated);
  EXPECT_NE(records[0].text.find("frame8"), std::string::npos);
  EXPECT_EQ(records[0].text.find("frame9"), std::string::npos);
  EXPECT_FALSE(records[1].truncated);
}

TEST(RecordAssemblerTest, APlainRecordStartsWithABracketFourDigitsAndADash) {
  // Every byte value in each place of the year (the test reads the four bytes at once), and
  // the bracket, the dash and the length around them: a record starts exactly when all hold.
  auto by_definition = [](const std::string& line) {
    if (line.size() < 6 || line[0] != '[' || line[5] != '-') return false;
    for (size_t i = 1; i <= 4; ++i) {
      if (line[i] < '0' || line[i] > '9') return false;
    }
    return true;
  };
  for (size_t place = 1; place <= 4; ++place) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string line = "[2026-11-29T02:54:11,123][INFO ][a] [n] m";
      line[place] = static_cast<char>(byte);
      EXPECT_EQ(RecordAssembler::StartsPlainRecord(line), by_definition(line)) << place << " " << byte;
    }
  }
  EXPECT_TRUE(RecordAssembler::StartsPlainRecord("[0999-"));
  EXPECT_FALSE(RecordAssembler::StartsPlainRecord("[2026"));
  EXPECT_FALSE(RecordAssembler::StartsPlainRecord("(2026-11-29"));
  EXPECT_FALSE(RecordAssembler::StartsPlainRecord("[2026/11/29"));
  EXPECT_FALSE(RecordAssembler::StartsPlainRecord("[20:6-11-29"));
}

}  // namespace
}  // namespace foreshock
