#include "decode/es_json_decoder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/time.h"

namespace foreshock {
namespace {

Decoder::Outcome Decode(const EsJsonDecoder& decoder, std::string_view text, LogRecord* record,
                        std::string* why = nullptr) {
  std::string ignored;
  record->Clear();
  return decoder.Decode(text, DecodeOptions{}, record, why == nullptr ? &ignored : why);
}

TEST(EsJsonDecoderTest, DecodesEcsServerRecord) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   R"({"@timestamp":"2022-01-25T15:12:08.472Z", "log.level": "WARN", "message":"hello", )"
                   R"("event.dataset":"elasticsearch.server","log.logger":"org.elasticsearch.Foo",)"
                   R"("elasticsearch.node.name":"node-2","elasticsearch.cluster.name":"main"})",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(FormatTimestamp(record.time), "2022-01-25T15:12:08.472Z");
  EXPECT_EQ(record.level, Level::kWarn);
  EXPECT_EQ(record.message(), "hello");
  EXPECT_EQ(record.text, "hello");
  EXPECT_EQ(record.node, "node-2");
  EXPECT_EQ(record.cluster, "main");
  EXPECT_EQ(record.logger, "org.elasticsearch.Foo");
  EXPECT_EQ(record.dataset, "elasticsearch.server");
}

TEST(EsJsonDecoderTest, PatternsSeeEcsErrorFieldsAfterTheMessage) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   R"({"@timestamp":"2026-11-29T02:54:11.482Z","log.level":"WARN","message":"status: 429",)"
                   R"("error.type":"SearchPhaseExecutionException","error.message":"all shards failed",)"
                   R"("error.stack_trace":"x\nCaused by: TooManyScrollContextsException: too many"})",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.message(), "status: 429");
  EXPECT_EQ(record.text,
            "status: 429\nSearchPhaseExecutionException\nall shards failed\nx\nCaused by: "
            "TooManyScrollContextsException: too many");
}

// A record written with "message" twice: the last is its message (as every JSON reader
// takes it), and the other is searched too, so a precursor in it is not missed.
TEST(EsJsonDecoderTest, BothValuesOfADuplicateMessageKeyAreSearched) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  const std::string line =
      R"({"@timestamp":"2026-11-29T02:54:11.482Z","log.level":"WARN","message":"Trying to create too many )"
      R"(scroll contexts. Must be less than or equal to: [500].","message":"search request failed",)"
      R"("service.name":"ES_ECS","event.dataset":"elasticsearch.server","elasticsearch.node.name":"es-2"})";
  RecordHeader header;
  EXPECT_FALSE(decoder.DecodeHeader(line, DecodeOptions{}, &header)) << "the fast header read leaves it to Decode";
  LogRecord record;
  ASSERT_EQ(Decode(decoder, line, &record), Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.message(), "search request failed");
  EXPECT_EQ(record.text,
            "search request failed\nTrying to create too many scroll contexts. Must be less than or equal to: [500].");
  EXPECT_EQ(record.node, "es-2");
}

// ES 8 slow logs carry no "message": the slow-log message stands in for it, followed by the
// slow-log fields laid out as the plain slow log writes them. 8.0 snapshots wrote the node
// under "node.name".
TEST(EsJsonDecoderTest, DecodesEcsSlowLogsAndSnapshotFieldNames) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   R"({"@timestamp":"2022-01-27T11:36:49.421Z", "log.level":"TRACE", )"
                   R"("elasticsearch.slowlog.message":"[test_1/8pT6xiN_Tt-dcJWRR3LX6A]",)"
                   R"("elasticsearch.slowlog.took":"31.9ms","event.dataset":"elasticsearch.index_indexing_slowlog",)"
                   R"("log.logger":"index.indexing.slowlog.index","node.name":"runTask-0"})",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.message(), "[test_1/8pT6xiN_Tt-dcJWRR3LX6A] took[31.9ms]");
  EXPECT_EQ(record.level, Level::kTrace);
  EXPECT_EQ(record.dataset, "elasticsearch.index_indexing_slowlog");
  EXPECT_EQ(record.node, "runTask-0");
}

TEST(EsJsonDecoderTest, ReadsNestedCopiesOfDottedKeys) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   R"({"@timestamp":"2026-11-29T02:54:11Z","log":{"level":"ERROR"},"message":"m",)"
                   R"("elasticsearch":{"node":{"name":"n1"}}})",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.level, Level::kError);
  EXPECT_EQ(record.node, "n1");
}

TEST(EsJsonDecoderTest, DecodesEs7RecordWithStacktraceArray) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEs7);
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   R"({"type": "server", "timestamp": "2019-01-18T08:55:08,159+0100", "level": "WARN", )"
                   R"("component": "o.e.t.TransportService", "cluster.name": "c", "node.name": "es-1", )"
                   R"("message": "failed", "stacktrace": ["org.elasticsearch.common.breaker.)"
                   R"j(CircuitBreakingException: [parent] Data too large", "at x.y(Z.java:1)"]})j",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(FormatTimestamp(record.time), "2019-01-18T07:55:08.159Z");
  EXPECT_EQ(record.logger, "o.e.t.TransportService");
  EXPECT_EQ(record.node, "es-1");
  EXPECT_EQ(record.dataset, "server");
  EXPECT_NE(record.text.find("\norg.elasticsearch.common.breaker.CircuitBreakingException"),
            std::string::npos);
}

// ES 7's deprecation log writes its own level, DEPRECATION: a warning, not an unknown level
// that every level filter lets through.
TEST(EsJsonDecoderTest, Es7DeprecationRecordsAreWarnings) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEs7);
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   R"({"type": "deprecation", "timestamp": "2021-03-02T10:11:12,131Z", "level": "DEPRECATION", )"
                   R"("component": "o.e.d.r.RestController", "cluster.name": "c", "node.name": "es-1", )"
                   R"("message": "[types removal] Specifying types in search requests is deprecated." })",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.level, Level::kWarn);
  EXPECT_EQ(record.dataset, "deprecation");
  EXPECT_EQ(ParseLevel("deprecation"), Level::kWarn);
}

TEST(EsJsonDecoderTest, TellsForeignAndBrokenInputApart) {
  const EsJsonDecoder ecs(EsJsonDecoder::Dialect::kEcs);
  LogRecord record;
  std::string why;
  EXPECT_EQ(Decode(ecs, "[2026-11-29T02:54:11,123][INFO ][a] [n] plain", &record), Decoder::Outcome::kNotMine);
  EXPECT_EQ(Decode(ecs, R"({"timestamp":"2019-01-18T08:55:08,159+0100","message":"es7"})", &record),
            Decoder::Outcome::kNotMine);
  EXPECT_EQ(Decode(ecs, R"({"@timestamp": broken, "message":"unterminated)", &record, &why),
            Decoder::Outcome::kMalformed);
  EXPECT_EQ(why, "invalid JSON");
  EXPECT_TRUE(record.text.empty()) << "nothing salvaged without a readable time";
  EXPECT_EQ(Decode(ecs, R"({"@timestamp":12,"message":"m"})", &record, &why), Decoder::Outcome::kMalformed);
  EXPECT_EQ(Decode(ecs, "{\"@timestamp\":\"2026-11-29T02:54:11Z\",\"message\":\"\xff\xfe\"}", &record, &why),
            Decoder::Outcome::kMalformed);
}

// A record cut short (a stacktrace array spilling over lines, a line cut at the size cap)
// keeps what it says of itself, and its whole text is searched.
TEST(EsJsonDecoderTest, SalvagesTimeLevelAndNodeFromACutRecord) {
  const EsJsonDecoder es7(EsJsonDecoder::Dialect::kEs7);
  LogRecord record;
  std::string why;
  const std::string cut =
      R"({"type": "server", "timestamp": "2019-11-06T03:49:15,072Z", "level": "DEBUG", )"
      R"("component": "o.e.a.a.c.n.i.TransportNodesInfoAction", "node.name": "es-master-0", )"
      R"("message": "failed", )" "\n"
      R"("stacktrace": ["Caused by: CircuitBreakingException: [in_flight_requests] Data too large",)";
  ASSERT_EQ(Decode(es7, cut, &record, &why), Decoder::Outcome::kMalformed);
  EXPECT_NE(why.find("recovered"), std::string::npos);
  EXPECT_EQ(FormatTimestamp(record.time), "2019-11-06T03:49:15.072Z");
  EXPECT_EQ(record.level, Level::kDebug);
  EXPECT_EQ(record.node, "es-master-0");
  EXPECT_EQ(record.logger, "o.e.a.a.c.n.i.TransportNodesInfoAction");
  EXPECT_EQ(record.text, cut);
}

TEST(EsJsonDecoderTest, KeepsARecordWhoseTimeDoesNotParse) {
  const EsJsonDecoder ecs(EsJsonDecoder::Dialect::kEcs);
  LogRecord record;
  ASSERT_EQ(Decode(ecs, R"({"@timestamp":"yesterday","message":"m"})", &record), Decoder::Outcome::kDecoded);
  EXPECT_FALSE(record.has_time);
}

}  // namespace
}  // namespace foreshock

namespace foreshock {
namespace {

// DecodeHeader vouches for a flat line only when no key (nor string value) makes it a line
// to decode in full, however long the key (long keys are worked out without the key cache)
// and however often a key was seen before.
TEST(EsJsonDecoderTest, HeaderRefusesSlowLogAndMarkerKeysOfAnyLength) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  auto line = [](const std::string& extra) {
    return R"({"@timestamp":"2026-11-29T02:54:11.000Z","message":"m",)" + extra +
           R"(,"elasticsearch.node.name":"es-1"})";
  };
  const std::string long_name(70, 'x');
  const struct {
    std::string extra;
    bool vouched;
  } cases[] = {
      {R"("ordinary":"v")", true},
      {"\"" + long_name + "\":\"v\"", true},
      {R"("elasticsearch.slowlog.took":"1s")", false},
      {"\"elasticsearch.slowlog." + long_name + "\":\"v\"", false},
      {"\"fileset." + long_name + "\":\"v\"", false},
      {R"("stream":"stdout")", false},
      {R"("ordinary":"log")", false},  // a value the unwrapper would take for a marker key
      {R"("ordinary":"logs")", true},
      {R"("ordinary":"\"log\"")", true},  // escaped quotes: no marker key ends in a backslash
      {R"("ordinary":"\"fileset.name\"")", false},  // a marker the unwrapper sees at an escaped quote
      {R"("ordinary":"x\\","fileset.name":"y")", false},  // an escaped backslash: the quote is a key's
  };
  for (int round = 0; round < 2; ++round) {  // the second time, known keys come from the cache
    for (const auto& c : cases) {
      RecordHeader header;
      const std::string text = line(c.extra);
      EXPECT_EQ(decoder.DecodeHeader(text, DecodeOptions{}, &header), c.vouched) << text;
    }
  }
}


// A stack trace in an ECS line holds escaped line breaks and tabs ("\n\tat ..."): the header
// vouches for the line and hands the fields over as they stand, escapes and all, where the
// full decode reads them as line breaks and tabs (no pattern literal holds either). Other
// escapes, and any escape in the time, node or cluster (read as they stand), are left to the
// full decode.
TEST(EsJsonDecoderTest, HeaderVouchesForStackTracesWithEscapedLineBreaksAndTabs) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  auto line = [](const std::string& node, const std::string& trace) {
    return R"({"@timestamp":"2026-11-29T02:54:11.000Z","log.level":"WARN","message":"failed",)"
           R"("elasticsearch.node.name":")" + node + R"(","error.type":"java.io.IOException",)"
           R"("error.stack_trace":")" + trace + R"("})";
  };
  const std::string trace = R"(java.io.IOException: broken pipe\n\tat x.y(Z.java:1)\r\nCaused by: boom)";
  const std::string decoded_trace = "java.io.IOException: broken pipe\n\tat x.y(Z.java:1)\r\nCaused by: boom";
  for (int round = 0; round < 2; ++round) {  // the second time, the layout is known
    RecordHeader header;
    const std::string text = line("es-1", trace);
    ASSERT_TRUE(decoder.DecodeHeader(text, DecodeOptions{}, &header)) << text;
    LogRecord full;
    ASSERT_EQ(Decode(decoder, text, &full), Decoder::Outcome::kDecoded);
    EXPECT_EQ(header.time, full.time);
    EXPECT_EQ(header.node, full.node);
    ASSERT_EQ(header.searchable().size(), 3u);
    EXPECT_EQ(header.searchable()[0], "failed");
    EXPECT_EQ(header.searchable()[1], "java.io.IOException");
    EXPECT_EQ(header.searchable()[2], trace);
    EXPECT_NE(full.text.find(decoded_trace), std::string::npos) << full.text;
  }
  // Other escapes are read too, and said, so the reader can tell whether one could hide a
  // literal; a \u of a letter, and any escape in the time, node or cluster, is not.
  const struct {
    std::string trace;
    uint8_t escapes;
  } escaped[] = {{R"(a \"quoted\" word)", kEscapedQuote},
                 {R"(a \\n backslash\n\tat x)", kEscapedBackslash | kEscapedWhitespace},
                 {R"(a\/b \u0007 \b)", kEscapedSlash | kEscapedControl}};
  for (const auto& c : escaped) {
    RecordHeader header;
    const std::string text = line("es-1", c.trace);
    ASSERT_TRUE(decoder.DecodeHeader(text, DecodeOptions{}, &header)) << text;
    EXPECT_EQ(header.escapes, c.escapes) << text;
    ASSERT_EQ(header.searchable().size(), 3u);
    EXPECT_EQ(header.searchable()[2], c.trace);
  }
  for (const std::string& refused : {line("es-1", R"(\u0041)"), line(R"(es\t1)", trace), line(R"(es\"1)", trace)}) {
    RecordHeader header;
    EXPECT_FALSE(decoder.DecodeHeader(refused, DecodeOptions{}, &header)) << refused;
  }
}

// Lines laid out like one vouched for before (the same keys, in the same order, around
// other values) are read from the learned layout; whatever was learned, the header reads
// as the full decode does, and refuses what the walk refuses.
TEST(EsJsonDecoderTest, HeaderReadsALineLaidOutLikeAnEarlierOneAsTheFullDecodeDoes) {
  const EsJsonDecoder decoder(EsJsonDecoder::Dialect::kEcs);
  auto line = [](const std::string& time, const std::string& message, const std::string& node) {
    return R"({"@timestamp":")" + time + R"(","log.level":"INFO","message":")" + message +
           R"(","log.logger":"o.e.Foo","elasticsearch.node.name":")" + node +
           R"(","elasticsearch.cluster.name":"prod"})";
  };
  const struct {
    std::string text;
    bool vouched;
  } cases[] = {
      {line("2026-11-29T02:54:11.000Z", "first", "es-1"), true},  // learned here
      // The first line's tail after its message: only the head is walked.
      {line("2026-11-29T02:54:11.250Z", "second, a bit longer than the first", "es-1"), true},
      {line("2026-11-29T02:54:11.500Z", "an escaped \\\"quote\\\" in the head", "es-1"), true},
      {line("2026-11-29T02:54:11.750Z", "log", "es-1"), false},  // a marker in the head
      {line("2026-11-29T02:54:11.750Z", "tab\there", "es-1"), false},
      {line("2026-11-29T02:54:12.500Z", "a longer one, with: \\\"quotes\\\" {and} [brackets]", "es-2"), true},
      {line("2026-11-29T02:54:12.500Z", "moving index [.ds-x] from [{\\\"phase\\\":\\\"warm\\\"}] to [{}]", "es-2"), true},
      {line("2026-11-29T02:54:12.500Z", "a quote \" too many", "es-2"), false},  // not JSON
      {line("2026-11-29T02:54:12.500Z", "a longer one, with: 'quotes' {and} [brackets]", "es-2"), true},
      {line("2026-11-29T02:54:13.000Z", "", ""), true},
      {line("2026-11-29T02:54:14.000Z", "m", "log"), false},  // a value the unwrapper takes for a marker
      {line("2026-11-29T02:54:15.000Z", "caf\u00e9 \xc3\xa9", "es-1"), false},  // not ASCII
      {line("yesterday", "m", "es-3"), true},  // no time: the full decode keeps the record too
      {R"({"@timestamp":"2026-11-29T02:54:16.000Z","log.level":"INFO","message":"m","log.logger":"o.e.Foo",)"
       R"("elasticsearch.node.name":"es-4","elasticsearch.cluster.name":"prod","elasticsearch.node.name":"x"})",
       false},  // a key twice
      {R"({"@timestamp":"2026-11-29T02:54:17.000Z","log.level":"INFO","message":"m","log.logger":"o.e.Foo",)"
       R"("node.name":"es-5","elasticsearch.cluster.name":"prod"})",
       true},  // another key for the node
      {R"({"@timestamp":"2026-11-29T02:54:18.000Z","log.level":"INFO","message":"m","log.logger":7,)"
       R"("elasticsearch.node.name":"es-6","elasticsearch.cluster.name":"prod"})",
       true},  // a number where the layout has a string
  };
  for (int round = 0; round < 2; ++round) {  // the second time, every layout has been seen
    for (const auto& c : cases) {
      RecordHeader header;
      ASSERT_EQ(decoder.DecodeHeader(c.text, DecodeOptions{}, &header), c.vouched) << c.text;
      if (!c.vouched) continue;
      LogRecord full;
      ASSERT_EQ(Decode(decoder, c.text, &full), Decoder::Outcome::kDecoded) << c.text;
      EXPECT_EQ(header.has_time, full.has_time) << c.text;
      EXPECT_EQ(header.time, full.time) << c.text;
      EXPECT_EQ(header.node, full.node) << c.text;
      EXPECT_EQ(header.cluster, full.cluster) << c.text;
      ASSERT_EQ(header.searchable().size(), 1u) << c.text;
      // The message as it stands, escapes and all: undone, it is what the full decode read.
      EXPECT_EQ(nlohmann::json::parse("\"" + std::string(header.searchable()[0]) + "\"").get<std::string>(),
                full.message())
          << c.text;
    }
  }
}

}  // namespace
}  // namespace foreshock
