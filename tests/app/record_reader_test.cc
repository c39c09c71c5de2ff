#include "app/record_reader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "input/fd_source.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::TempDir;

std::unique_ptr<RecordReader> Reader(const std::string& path, RecordReaderOptions options = {}) {
  auto source = FdSource::Open(path);
  EXPECT_TRUE(source.ok());
  auto reader = RecordReader::Create(std::move(source).value(), options);
  EXPECT_TRUE(reader.ok());
  return std::move(reader).value();
}

std::vector<LogRecord> ReadAll(RecordReader* reader) {
  std::vector<LogRecord> records;
  LogRecord record;
  while (true) {
    auto next = reader->Read(&record, std::chrono::milliseconds(100));
    EXPECT_TRUE(next.ok());
    if (!next.ok() || *next == RecordReader::Next::kEnd) break;
    if (*next == RecordReader::Next::kRecord) records.push_back(record);
  }
  return records;
}

TEST(RecordReaderTest, DecodesMultilinePlainRecordsWithLineNumbers) {
  TempDir dir;
  const std::string path = dir.Write("es-data-1.log",
      "[2026-11-29T02:54:11,123][WARN ][r.suppressed] [es-data-1] path: /_search\r\n"
      "org.elasticsearch.action.search.SearchPhaseExecutionException: all shards failed\r\n"
      "Caused by: org.elasticsearch.ElasticsearchException: Trying to create too many scroll contexts\r\n"
      "\r\n"
      "[2026-11-29T02:54:12,000][INFO ][o.e.n.Node] [es-data-1] next");
  auto reader = Reader(path);
  auto records = ReadAll(reader.get());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].line_number, 1u);
  EXPECT_EQ(records[0].message(), "path: /_search");
  EXPECT_NE(records[0].text.find("Caused by: org.elasticsearch.ElasticsearchException"), std::string::npos);
  EXPECT_EQ(records[0].text.find('\r'), std::string::npos);
  EXPECT_EQ(records[1].line_number, 5u);
  EXPECT_EQ(records[1].source, path);
  EXPECT_EQ(reader->stats().records, 2u);
  EXPECT_EQ(reader->stats().lines, 5u);
}

// Broken JSON may still carry a precursor: it is counted as malformed and searched as plain
// text. Binary data is counted and passed over. Neither takes its neighbours with it.
TEST(RecordReaderTest, SearchesBrokenJsonAsTextAndPassesOverBinary) {
  TempDir dir;
  RecordReaderOptions options;
  options.max_line_bytes = 256;
  constexpr char kGarbage[] = "\x01\x02\xff garbage\x00 with nul\n";
  const std::string path = dir.Write(
      "mixed.json", "{\"@timestamp\":\"2026-11-29T02:54:11Z\",\"message\":\"one\"}\n"
                    "{\"@timestamp\": broken json, [parent] Data too large\n" +
                        std::string(kGarbage, sizeof kGarbage - 1) +
                        "{\"@timestamp\":\"2026-11-29T02:54:12Z\",\"message\":\"" +
                        std::string(1000, 'x') + "\"}\n" +
                        "{\"@timestamp\":\"2026-11-29T02:54:13Z\",\"message\":\"three\"}\n");
  auto reader = Reader(path, options);
  auto records = ReadAll(reader.get());
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].message(), "one");
  EXPECT_EQ(records[1].text, "{\"@timestamp\": broken json, [parent] Data too large");
  EXPECT_EQ(records[1].time, records[0].time) << "a text record takes the previous time";
  EXPECT_EQ(records[1].line_number, 2u);
  EXPECT_EQ(records[2].text.size(), 256u);
  EXPECT_TRUE(records[2].truncated);
  EXPECT_EQ(FormatTimestamp(records[2].time), "2026-11-29T02:54:12.000Z") << "salvaged from the cut JSON";
  EXPECT_EQ(records[3].message(), "three");
  EXPECT_EQ(reader->stats().malformed, 2u) << "broken JSON and the cut 1000-byte line";
  EXPECT_EQ(reader->stats().unreadable, 1u);
  EXPECT_EQ(reader->stats().truncated, 1u);
  EXPECT_EQ(reader->stats().formats.at("/ecs"), 3u);
  EXPECT_EQ(reader->stats().formats.at("/text"), 1u);
}

TEST(RecordReaderTest, InheritsTimeAndFallsBackToTheDefaultNode) {
  TempDir dir;
  RecordReaderOptions options;
  options.default_node = "from-file-name";
  const std::string path = dir.Write("n.json",
      "{\"@timestamp\":\"2026-11-29T02:54:11Z\",\"message\":\"timed\"}\n"
      "{\"@timestamp\":\"not a time\",\"message\":\"untimed\",\"elasticsearch.node.name\":\"n9\"}\n");
  auto reader = Reader(path, options);
  auto records = ReadAll(reader.get());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].node, "from-file-name");
  EXPECT_EQ(records[1].node, "n9");
  EXPECT_EQ(records[1].time, records[0].time);
  EXPECT_EQ(reader->stats().no_time, 1u);
}

// A cut or garbled line among lines that name their node is that node's, not a node named
// after the file.
TEST(RecordReaderTest, ALineNamingNoNodeIsTheLastNamedNodesNotTheFilesName) {
  TempDir dir;
  RecordReaderOptions options;
  options.default_node = "order-events-node-2.json.1";
  const std::string path = dir.Write("n.json",
      "{\"@timestamp\":\"2026-11-29T02:54:11Z\",\"message\":\"named\",\"elasticsearch.node.name\":\"es-2\"}\n"
      "Caused by: a bare line, cut from its record\n");
  auto records = ReadAll(Reader(path, options).get());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].node, "es-2");
  EXPECT_EQ(records[1].node, "es-2");
}

// Behind `journalctl -f`, the last record of a burst must come out after a quiet time,
// not wait for the next line.
TEST(RecordReaderTest, FlushesAPendingRecordWhenThePipeGoesQuiet) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  RecordReaderOptions options;
  options.quiet_flush = std::chrono::milliseconds(50);
  auto reader = Reader("/proc/self/fd/" + std::to_string(fds[0]), options);
  const std::string burst =
      "[2026-11-29T02:54:11,123][WARN ][r.suppressed] [n] failure\n\tat frame\n";
  ASSERT_EQ(::write(fds[1], burst.data(), burst.size()), static_cast<ssize_t>(burst.size()));
  LogRecord record;
  auto next = reader->Read(&record, std::chrono::milliseconds(2000));
  ASSERT_TRUE(next.ok());
  ASSERT_EQ(*next, RecordReader::Next::kRecord);
  EXPECT_EQ(record.text, "failure\n\tat frame");
  next = reader->Read(&record, std::chrono::milliseconds(20));
  EXPECT_EQ(*next, RecordReader::Next::kIdle);
  ::close(fds[1]);
  ::close(fds[0]);
}

}  // namespace
}  // namespace foreshock

namespace foreshock {
namespace {

// Lines before an input's first timed record (a JVM warning at the top of `docker logs`, a
// blank line) are held until it comes and take its time, never the wall clock's; later ones
// take the previous record's. An input with no time at all hands its records out untimed.
TEST(RecordReaderTest, RecordsBeforeTheFirstStampTakeItsTimeNotTheWallClocks) {
  TempDir dir;
  const std::string path = dir.Write("stdout.log",
      "OpenJDK 64-Bit Server VM warning: Option UseConcMarkSweepGC was deprecated\n"
      "hello world\n"
      "[2026-11-29T02:54:11,123][WARN ][o.e.n.Node] [es-data-1] first\n"
      "{\"no\": \"time\"}\n"
      "[2026-11-29T02:54:12,000][INFO ][o.e.n.Node] [es-data-1] next\n");
  {
    auto reader = Reader(path);
    const auto records = ReadAll(reader.get());
    ASSERT_EQ(records.size(), 5u);
    const std::vector<std::string> times = {"2026-11-29T02:54:11.123Z", "2026-11-29T02:54:11.123Z",
                                            "2026-11-29T02:54:11.123Z", "2026-11-29T02:54:11.123Z",
                                            "2026-11-29T02:54:12.000Z"};
    const std::vector<bool> inherited = {true, true, false, true, false};
    for (size_t i = 0; i < records.size(); ++i) {
      EXPECT_TRUE(records[i].has_time) << i;
      EXPECT_EQ(FormatTimestamp(records[i].time), times[i]) << i;
      EXPECT_EQ(records[i].time_inherited, inherited[i]) << i;
      EXPECT_EQ(records[i].line_number, i + 1) << "records keep the order they were written in";
    }
    EXPECT_EQ(reader->stats().no_time, 3u);
  }
  const std::string untimed = dir.Write("junk.log", "no time here\nnor here\n");
  auto reader = Reader(untimed);
  const auto records = ReadAll(reader.get());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].has_time);
  EXPECT_FALSE(records[1].has_time);
  EXPECT_EQ(records[1].line_number, 2u);
}

}  // namespace
}  // namespace foreshock
