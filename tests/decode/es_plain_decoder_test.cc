#include "decode/es_plain_decoder.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

struct Case {
  const char* line;
  const char* time;
  Level level;
  const char* logger;
  const char* node;
  const char* message;
};

// Decode() reads c.line as the case says, and DecodeHeader() vouches for it with the same
// time and node.
void ExpectDecodesAsTheCaseSays(const Case& c) {
  const EsPlainDecoder decoder;
  LogRecord record;
  std::string why;
  ASSERT_EQ(decoder.Decode(c.line, DecodeOptions{}, &record, &why), Decoder::Outcome::kDecoded) << c.line;
  EXPECT_EQ(FormatTimestamp(record.time), c.time) << c.line;
  EXPECT_EQ(record.level, c.level) << c.line;
  EXPECT_EQ(record.logger, c.logger) << c.line;
  EXPECT_EQ(record.node, c.node) << c.line;
  EXPECT_EQ(record.message(), c.message) << c.line;
  RecordHeader header;
  ASSERT_TRUE(decoder.DecodeHeader(c.line, DecodeOptions{}, &header)) << c.line;
  EXPECT_EQ(header.time, record.time) << c.line;
  EXPECT_EQ(header.node, c.node) << c.line;
}

TEST(EsPlainDecoderTest, DecodesEveryPlainVariant) {
  const Case cases[] = {
      {"[2026-11-29T02:54:11,123][WARN ][o.e.s.SearchService] [node-2] too many", "2026-11-29T02:54:11.123Z",
       Level::kWarn, "o.e.s.SearchService", "node-2", "too many"},
      // ES 2.x: space in the stamp, padded short logger names.
      {"[2016-09-20 07:01:33,260][WARN ][monitor.jvm              ] [Vindicator] [gc][old][1][2] duration [1m]",
       "2016-09-20T07:01:33.260Z", Level::kWarn, "monitor.jvm", "Vindicator", "[gc][old][1][2] duration [1m]"},
      // OpenSearch.
      {"[2023-02-16T09:04:28,123][INFO ][o.o.n.Node               ] [os-1] started", "2023-02-16T09:04:28.123Z",
       Level::kInfo, "o.o.n.Node", "os-1", "started"},
      // Deprecation log: no node field, message starting with a bracketed word.
      {"[2018-04-23T16:40:13,737][WARN ][o.e.d.a.a.i.t.p.PutIndexTemplateRequest] Deprecated field [template] used",
       "2018-04-23T16:40:13.737Z", Level::kWarn, "o.e.d.a.a.i.t.p.PutIndexTemplateRequest", "",
       "Deprecated field [template] used"},
      // Slow log: node, then the shard in brackets.
      {"[2018-06-29T10:06:14,933][INFO ][index.search.slowlog.query] [v_VJhjV] [metricbeat-6.3.0][0] took[4.5ms]",
       "2018-06-29T10:06:14.933Z", Level::kInfo, "index.search.slowlog.query", "v_VJhjV",
       "[metricbeat-6.3.0][0] took[4.5ms]"},
      // A logger name longer than the bytes searched inline for its bracket.
      {"[2026-11-29T02:54:11,123][INFO ][org.elasticsearch.xpack.security.authc.support.mapper.NativeRoleMappingStore] "
       "[n-1] ok",
       "2026-11-29T02:54:11.123Z", Level::kInfo,
       "org.elasticsearch.xpack.security.authc.support.mapper.NativeRoleMappingStore", "n-1", "ok"},
  };
  for (const Case& c : cases) ExpectDecodesAsTheCaseSays(c);
}

TEST(EsPlainDecoderTest, HeadersNearTheUsualLayoutReadAsTheirBracketsSay) {
  // The usual layout (a ']' at 24 and 31, a '[' at 25 and 32) is read in one look; lines
  // that differ from it in any of those places are read bracket by bracket, and must say
  // what their brackets say.
  const Case cases[] = {
      {"[2026-11-29T02:54:11,123][WARN ][o.e.s.SearchService] [node-2] ok", "2026-11-29T02:54:11.123Z",
       Level::kWarn, "o.e.s.SearchService", "node-2", "ok"},
      // A four-letter level without its pad: the logger's bracket opens at 31.
      {"[2026-11-29T02:54:11,123][WARN][o.e.s.SearchService] [node-2] ok", "2026-11-29T02:54:11.123Z",
       Level::kWarn, "o.e.s.SearchService", "node-2", "ok"},
      // A stamp with its zone: every bracket further on.
      {"[2026-11-29T02:54:11,123+0100][ERROR][o.e.b] [n] ok", "2026-11-29T01:54:11.123Z", Level::kError, "o.e.b",
       "n", "ok"},
      // An empty logger right after the usual level.
      {"[2026-11-29T02:54:11,123][INFO ][] [n] ok", "2026-11-29T02:54:11.123Z", Level::kInfo, "", "n", "ok"},
      // The shortest line in the usual layout: the logger's brackets end it.
      {"[2026-11-29T02:54:11,123][INFO ][]", "2026-11-29T02:54:11.123Z", Level::kInfo, "", "", ""},
  };
  for (const Case& c : cases) ExpectDecodesAsTheCaseSays(c);
  // A ']' inside the stamp's 23 bytes or the level's five ends that field there, and what
  // follows is not the next field's '[': the record is broken, whichever way it is read.
  const EsPlainDecoder decoder;
  for (const char* broken :
       {"[2026-11-29T02:54:11]123][WARN ][o.e.s] [n] m", "[2026-11-29T02:54:11,123][WA]N ][o.e.s] [n] m"}) {
    LogRecord record;
    std::string why;
    EXPECT_NE(decoder.Decode(broken, DecodeOptions{}, &record, &why), Decoder::Outcome::kDecoded) << broken;
    RecordHeader header;
    EXPECT_FALSE(decoder.DecodeHeader(broken, DecodeOptions{}, &header)) << broken;
  }
}

TEST(EsPlainDecoderTest, ContinuationLinesFollowTheMessage) {
  const EsPlainDecoder decoder;
  LogRecord record;
  std::string why;
  ASSERT_EQ(decoder.Decode("[2026-11-29T02:54:11,123][WARN ][r.suppressed] [n] path: /x\n"
                           "Caused by: org.elasticsearch.ElasticsearchException: boom",
                           DecodeOptions{}, &record, &why),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.message(), "path: /x");
  EXPECT_EQ(record.text, "path: /x\nCaused by: org.elasticsearch.ElasticsearchException: boom");
}

TEST(EsPlainDecoderTest, ZoneLessTimeUsesTheConfiguredOffset) {
  const EsPlainDecoder decoder;
  LogRecord record;
  std::string why;
  const TimeZone minus_five = *TimeZone::Parse("-05:00");
  DecodeOptions options;
  options.zone = &minus_five;
  ASSERT_EQ(decoder.Decode("[2026-11-29T02:54:11,123][INFO ][a] [n] m", options, &record, &why),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(FormatTimestamp(record.time), "2026-11-29T07:54:11.123Z");
}

TEST(EsPlainDecoderTest, TellsForeignAndBrokenInputApart) {
  const EsPlainDecoder decoder;
  LogRecord record;
  std::string why;
  EXPECT_EQ(decoder.Decode("{\"json\":1}", DecodeOptions{}, &record, &why), Decoder::Outcome::kNotMine);
  EXPECT_EQ(decoder.Decode("[not a time][INFO ][a] m", DecodeOptions{}, &record, &why),
            Decoder::Outcome::kNotMine);
  EXPECT_EQ(decoder.Decode("[2026-11-29T02:54:11,123] header cut short", DecodeOptions{}, &record, &why),
            Decoder::Outcome::kMalformed);
  EXPECT_NE(why.find("[level][logger]"), std::string::npos);
}

TEST(EsPlainDecoderTest, HeaderReadsTheFirstLineOfARecordUnlessToldItIsOneLine) {
  const EsPlainDecoder decoder;
  LogRecord record;
  // The logger's bracket closes only on the next line: Decode() calls that malformed, so the
  // header must not vouch for it.
  const std::string_view broken = "[2026-11-29T02:54:11,123][INFO ][o.e.Logger\nCaused by: x] m";
  std::string why;
  EXPECT_EQ(decoder.Decode(broken, DecodeOptions{}, &record, &why), Decoder::Outcome::kMalformed);
  RecordHeader broken_header;
  EXPECT_FALSE(decoder.DecodeHeader(broken, DecodeOptions{}, &broken_header));

  // A single line reads the same with and without the caller's promise.
  const std::string_view line = "[2026-11-29T02:54:11,123][WARN ][o.e.s.SearchService] [node-2] too many [x]";
  DecodeOptions one_line;
  one_line.one_line = true;
  for (const DecodeOptions& options : {DecodeOptions{}, one_line}) {
    RecordHeader header;
    ASSERT_TRUE(decoder.DecodeHeader(line, options, &header));
    EXPECT_EQ(FormatTimestamp(header.time), "2026-11-29T02:54:11.123Z");
    EXPECT_EQ(header.node, "node-2");
    const std::vector<std::string_view> parts(header.searchable().begin(), header.searchable().end());
    EXPECT_EQ(parts, std::vector<std::string_view>{"too many [x]"});
  }
}

}  // namespace
}  // namespace foreshock
