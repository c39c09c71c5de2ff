#include "decode/decoder_registry.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testing/test_paths.h"

namespace foreshock {
namespace {

TEST(DecoderSetTest, AutoDecodesAMixedStreamRecordByRecord) {
  auto set = DecoderSet::Create("auto");
  ASSERT_TRUE(set.ok());
  LogRecord record;
  std::string why;
  std::string_view format;
  const struct {
    const char* text;
    const char* format;
  } cases[] = {
      {R"({"@timestamp":"2026-11-29T02:54:11Z","message":"m"})", "ecs"},
      {R"({"type":"server","timestamp":"2026-11-29T02:54:11,000Z","message":"m"})", "es-json"},
      {"[2026-11-29T02:54:11,123][INFO ][a] [n] m", "es-plain"},
      {R"({"@timestamp":"2026-11-29T02:54:12Z","message":"back to ecs"})", "ecs"},
  };
  for (const auto& c : cases) {
    ASSERT_EQ((*set)->Decode(c.text, DecodeOptions{}, &record, &why, &format), Decoder::Outcome::kDecoded)
        << c.text;
    EXPECT_EQ(format, c.format) << c.text;
  }
}

// A forced format skips sniffing, but what it cannot read is still searched as text.
TEST(DecoderSetTest, ForcedFormatReadsOthersAsTextAndUnknownNamesAreErrors) {
  auto set = DecoderSet::Create("es-plain");
  ASSERT_TRUE(set.ok());
  LogRecord record;
  std::string why;
  std::string_view format;
  EXPECT_EQ((*set)->Decode(R"({"@timestamp":"2026-11-29T02:54:11Z","message":"m"})", DecodeOptions{},
                           &record, &why, &format),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(format, "text");
  EXPECT_FALSE(record.has_time);
  auto unknown = DecoderSet::Create("syslog");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("known: auto, ecs, es-json, jvm-gc, es-plain, text"),
            std::string::npos);
}

TEST(DecoderSetTest, InvalidJsonIsMalformedWithAReason) {
  auto set = DecoderSet::Create("auto");
  LogRecord record;
  std::string why;
  std::string_view format;
  EXPECT_EQ((*set)->Decode("{\"@timestamp\": ", DecodeOptions{}, &record, &why, &format),
            Decoder::Outcome::kMalformed);
  EXPECT_EQ(why, "ecs: invalid JSON");
}

// Real ES 7 and ES 8 server logs published by others: every record decodes with a time,
// a level and a node.
TEST(DecoderSetTest, DecodesTheSharedCorpusJsonServerLogs) {
  const std::filesystem::path corpus(testing::kCorpusDir);
  if (!std::filesystem::is_directory(corpus)) GTEST_SKIP() << "no shared corpus at " << corpus;
  for (const char* name : {"es7-json-beats-server.json", "es8-ecs-beats-server.json"}) {
    std::ifstream in(corpus / name);
    ASSERT_TRUE(in) << name;
    auto set = DecoderSet::Create("auto");
    std::string line;
    int decoded = 0;
    while (std::getline(in, line)) {
      LogRecord record;
      std::string why;
      std::string_view format;
      ASSERT_EQ((*set)->Decode(line, DecodeOptions{}, &record, &why, &format), Decoder::Outcome::kDecoded)
          << name << ": " << line;
      EXPECT_TRUE(record.has_time) << line;
      EXPECT_NE(record.level, Level::kUnknown) << line;
      EXPECT_FALSE(record.node.empty()) << line;
      ++decoded;
    }
    EXPECT_GT(decoded, 0) << name;
  }
}

}  // namespace
}  // namespace foreshock
