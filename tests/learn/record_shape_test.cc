#include "learn/record_shape.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "decode/decoder_registry.h"
#include "learn/baseline.h"
#include "learn/message_template.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

// What the novelty detector would know a line by (ShapeOf() of its header), and what it
// would read from it decoded in full. Not shaped: a line the reader would not hand out by
// its shape.
struct Judged {
  bool shaped = false;
  RecordShape shape;
  RecordShape remembered;  // as a reader's ShapeMemo told it
  std::string node;
  std::string cluster;
  std::tuple<std::string, std::vector<std::string>, Level, std::string> read;  // key, classes, level, dataset
};

Judged Judge(DecoderSet* decoders, const std::string& line, ShapeMemo* memo = nullptr) {
  Judged judged;
  LogRecord record;
  std::string why;
  std::string_view format;
  if (decoders->Decode(line, DecodeOptions{}, &record, &why, &format) != Decoder::Outcome::kDecoded) return judged;
  DecodeOptions options;
  options.header_level = true;
  options.one_line = true;
  RecordHeader header;
  if (!decoders->DecodeHeader(line, options, &header, &format) || !header.notable() ||
      header.parts[0].size() >= kMaxShapedMessageBytes || (header.escapes & kEscapedControl) != 0) {
    return judged;
  }
  judged.shaped = true;
  judged.shape = ShapeOf(header);
  if (memo != nullptr) judged.remembered = memo->ShapeOf(header);
  judged.node = record.node;
  judged.cluster = record.cluster;
  judged.read = {TemplateKey(record.logger, TemplateOf(record.message(), record.node, record.cluster)),
                 ExceptionClassesIn(record.text), record.level, record.dataset};
  return judged;
}

// ES 8 ECS as ES writes it.
std::string EcsLine(const std::string& level, const std::string& message, const std::string& logger,
                    const std::string& error_type = "", const std::string& thread = "T#3",
                    const std::string& dataset = "elasticsearch.server") {
  std::string line = "{\"@timestamp\":\"2026-11-29T02:54:11.482Z\", \"log.level\": \"" + level + "\", \"message\":\"" +
                     message + "\", \"ecs.version\": \"1.2.0\",\"service.name\":\"ES_ECS\",\"event.dataset\":\"" + dataset +
                     "\",\"process.thread.name\":\"elasticsearch[es-data-1][generic][" + thread + "]\",\"log.logger\":\"" +
                     logger + "\",\"elasticsearch.node.name\":\"es-data-1\",\"elasticsearch.cluster.name\":\"prod\"";
  if (!error_type.empty()) {
    line += ",\"error.type\":\"" + error_type + "\",\"error.message\":\"boom\",\"error.stack_trace\":\"" + error_type +
            ": boom\\n\\tat org.elasticsearch.x.Y.z(Y.java:12)\"";
  }
  return line + "}";
}

TEST(ShapeTest, ValuesDoNotChangeALinesShapeAndWhatTheDetectorReadsDoes) {
  auto decoders = DecoderSet::Create("auto");
  ASSERT_TRUE(decoders.ok());
  const auto shape = [&](const std::string& line) {
    const Judged judged = Judge(decoders->get(), line);
    EXPECT_TRUE(judged.shaped) << line;
    return judged.shape;
  };
  const std::string logger = "org.elasticsearch.http.AbstractHttpServerTransport";
  const std::string netty = "caught exception while handling client http traffic, closing connection "
                            "Netty4HttpChannel{localAddress=/10.0.1.7:9200, remoteAddress=/10.2.3.1:53577}";
  const std::string netty_other = "caught exception while handling client http traffic, closing connection "
                                  "Netty4HttpChannel{localAddress=/10.0.1.17:9200, remoteAddress=/10.2.113.9:5357}";
  const std::string conflict = "[3fa9c0b1]: version conflict, required seqNo [8812], primary term [1]";
  const std::string conflict_other = "[c0ffee42]: version conflict, required seqNo [9], primary term [1]";
  // Addresses, ports, hex ids, the thread: the same shape, told apart by their values.
  EXPECT_EQ(shape(EcsLine("WARN", netty, logger)).id, shape(EcsLine("WARN", netty_other, logger, "", "T#12")).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).values, shape(EcsLine("WARN", netty_other, logger)).values);
  EXPECT_EQ(shape(EcsLine("WARN", conflict, logger)).id, shape(EcsLine("WARN", conflict_other, logger)).id);
  // A class's digits, the level, the logger, the dataset, a word becoming a value: apart.
  EXPECT_NE(shape(EcsLine("WARN", netty, logger, "org.x.Http2Exception")).id,
            shape(EcsLine("WARN", netty, logger, "org.x.Http1Exception")).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).id, shape(EcsLine("ERROR", netty, logger)).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).id, shape(EcsLine("WARN", netty, logger + "2")).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).id,
            shape(EcsLine("WARN", netty, logger, "", "T#3", "elasticsearch.slowlog")).id);
  EXPECT_NE(shape(EcsLine("WARN", "disk [abc] is slow", logger)).id, shape(EcsLine("WARN", "disk [ab1] is slow", logger)).id);
  // Plain text may hold any byte: the mark a value leaves is never text's own.
  const std::string plain = "[2026-11-29T02:54:11,482][WARN ][o.e.x.Disk               ] [es-data-1] disk ";
  EXPECT_NE(shape(plain + "\x01\x03 is slow").id, shape(plain + "7 is slow").id);
  EXPECT_EQ(shape(plain + "7 is slow").id, shape(plain + "12 is slow").id);
}

// Soundness, on real logs and on them with their values changed: lines of one shape (and
// node and cluster) give the novelty detector the same template, exception classes, level
// and dataset, so settling a line by its shape is exact. A reader's memo, given the lines in
// turn, tells each the shape ShapeOf() does.
TEST(ShapeTest, LinesOfOneShapeReadTheSameOnTheCorpusWithValuesScrambled) {
  const fs::path corpus = testing::kCorpusDir;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no shared corpus at " << corpus;
  std::mt19937 random(7);
  // Past the line's stamp (its first 48 bytes), every digit run replaced by 1 to 6 random
  // digits, and a hex-looking letter after one, at times, by another.
  const auto scramble = [&](const std::string& line) {
    std::string out = line.substr(0, 48);
    for (size_t i = out.size(); i < line.size();) {
      if (line[i] >= '0' && line[i] <= '9') {
        while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
        const int length = 1 + static_cast<int>(random() % 6);
        for (int d = 0; d < length; ++d) out.push_back(static_cast<char>('0' + random() % 10));
        if (i < line.size() && line[i] >= 'a' && line[i] <= 'f' && random() % 2 == 0) {
          out.push_back(static_cast<char>('a' + random() % 6));
          ++i;
        }
        continue;
      }
      out.push_back(line[i++]);
    }
    return out;
  };
  auto decoders = DecoderSet::Create("auto");
  ASSERT_TRUE(decoders.ok());
  std::map<std::tuple<uint64_t, std::string, std::string>, Judged> by_shape;
  size_t shaped = 0;
  size_t variants = 0;  // scrambled lines whose line was shaped
  size_t kept = 0;      // of those, with their line's shape
  ShapeMemo memo;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    if (!entry.is_regular_file() || entry.path().string().ends_with("expected.json")) continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      Judged original;
      for (int variant = 0; variant < 6; ++variant) {
        const std::string text = variant == 0 ? line : scramble(line);
        const Judged judged = Judge(decoders->get(), text, &memo);
        if (variant == 0) original = judged;
        if (!judged.shaped) continue;
        EXPECT_EQ(judged.remembered, judged.shape) << entry.path().filename() << ": " << text;
        ++shaped;
        if (variant > 0 && original.shaped) {
          ++variants;
          kept += judged.shape.id == original.shape.id ? 1 : 0;
        }
        const auto [it, added] = by_shape.try_emplace({judged.shape.id, judged.node, judged.cluster}, judged);
        if (!added) {
          EXPECT_EQ(it->second.read, judged.read) << entry.path().filename() << ": " << text;
        }
      }
    }
  }
  EXPECT_GT(shaped, 200u);
  // Values are what a shape takes out: scrambled, a line mostly keeps its shape (a class's
  // digits do not).
  EXPECT_GT(variants, 200u);
  EXPECT_GT(kept, variants * 9 / 10);
}

// Records made to stress what a memo reads: one of a few messages at a time, its values
// redrawn (digits only, or other lengths), at times a word changed, a value becoming a word,
// a class's digits, text's own kShapeMarkByte, values at the ends of parts, parts short and
// long (some too long to remember), one to four of them. Every record must get the shape
// ShapeOf() gives it, whatever the memo remembers.
TEST(ShapeMemoTest, EveryRecordGetsItsShapeWhateverWasRememberedBefore) {
  std::mt19937 random(11);
  const auto pick = [&](size_t n) { return static_cast<size_t>(random() % n); };
  const std::vector<std::string> words = {"closing", "E", "Engine", "Http2Exception", "Error7", "x", "ab", "node_",
                                          "[", "]", "{", "}", "=", ",", " ", ":", "/", ".", "-", "\\", "\x01"};
  const std::vector<std::string> enders = {" ", "[", "]", "{", "}", "(", ")", "=", ",", ";", "\"", "'", "<", ">",
                                           "|", "\\", "\n", "\r", "\t", "\x01"};
  const auto number = [&]() {
    std::string digits;
    const size_t length = 1 + pick(6);
    for (size_t i = 0; i < length; ++i) digits.push_back(static_cast<char>('0' + pick(10)));
    if (pick(4) == 0) digits += pick(2) == 0 ? "ms" : ".5gb";
    return digits;
  };
  // A message: tokens, each a word, an ender or a number (0 in `numbers` means a word).
  struct Message {
    std::vector<std::string> tokens;
    std::vector<bool> numbers;
  };
  const auto message = [&]() {
    Message m;
    const size_t count = pick(24);
    for (size_t i = 0; i < count; ++i) {
      const size_t kind = pick(3);
      m.numbers.push_back(kind == 0);
      m.tokens.push_back(kind == 0 ? number() : kind == 1 ? words[pick(words.size())] : enders[pick(enders.size())]);
    }
    return m;
  };
  std::vector<std::vector<Message>> records;  // per template, its parts
  for (int t = 0; t < 6; ++t) {
    std::vector<Message> parts(1 + pick(4));
    for (Message& part : parts) part = message();
    records.push_back(parts);
  }
  const std::vector<std::string> loggers = {"\"org.elasticsearch.http.AbstractHttpServerTransport\"", "\"o.e.x\"", ""};
  ShapeMemo memo;
  size_t same_as_before = 0;
  RecordShape before;
  size_t run = 0;  // records left of the same template, level, logger and dataset
  size_t shown = 0;
  RecordHeader header;
  for (int n = 0; n < 200000; ++n) {
    if (run == 0) {
      run = 1 + pick(20);
      shown = pick(records.size());
      header.level = pick(8) == 0 ? Level::kError : Level::kWarn;
      header.logger = loggers[pick(loggers.size())];
      header.dataset = pick(2) == 0 ? "\"elasticsearch.server\"" : "";
    }
    --run;
    std::vector<Message>& parts = records[shown];
    const size_t change = pick(40);
    if (change == 0) {  // a word changes, for good
      Message& part = parts[pick(parts.size())];
      if (!part.tokens.empty()) {
        const size_t at = pick(part.tokens.size());
        part.tokens[at] = words[pick(words.size())];
        part.numbers[at] = false;
      }
    } else if (change == 1) {  // a value's digits, for good: a word with a digit, or a class
      Message& part = parts[pick(parts.size())];
      if (!part.tokens.empty()) part.tokens[pick(part.tokens.size())] += std::to_string(pick(3));
    }
    std::vector<std::string> texts;
    for (const Message& part : parts) {
      std::string text;
      for (size_t i = 0; i < part.tokens.size(); ++i) {
        if (!part.numbers[i]) {
          text += part.tokens[i];
        } else if (pick(3) == 0) {  // the same length, other digits
          for (char c : part.tokens[i]) text.push_back(c >= '0' && c <= '9' ? static_cast<char>('0' + pick(10)) : c);
        } else {
          text += number();
        }
      }
      if (pick(200) == 0) text += std::string(5000, 'x') + number();  // too long to remember
      texts.push_back(text);
    }
    header.part_count = 0;
    for (const std::string& text : texts) header.AddPart(text);
    const RecordShape shape = ShapeOf(header);
    ASSERT_EQ(memo.ShapeOf(header), shape) << "record " << n << ": " << texts[0];
    same_as_before += shape.id == before.id ? 1 : 0;
    before = shape;
  }
  // The records repeat their shapes often enough for the memo to be read against them.
  EXPECT_GT(same_as_before, 40000u);
}

}  // namespace
}  // namespace foreshock
