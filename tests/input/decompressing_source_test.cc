// DecompressingSource: gzip and zstd archives recognised by their magic bytes, read through
// every member or frame; damage reported with its offset after the lines before it.

#include "input/decompressing_source.h"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <fstream>

#include "input/fd_source.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

std::string Gzip(const std::string& text) {
  z_stream stream{};
  deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, text.size()) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

std::string Zstd(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

std::string Lines(int from, int to) {
  std::string text;
  for (int i = from; i < to; ++i) text += "line " + std::to_string(i) + " of an Elasticsearch log\n";
  return text;
}

struct ReadResult {
  std::string text;
  std::string compression;
  std::optional<std::string> damage;
};

ReadResult ReadAll(const std::string& path) {
  auto source = OpenInputFile(path).value();
  ReadResult result;
  while (true) {
    auto state = source->Read(&result.text, Duration(0));
    EXPECT_TRUE(state.ok());
    if (!state.ok() || *state == Source::ReadState::kEnd) break;
  }
  result.compression = source->compression();
  result.damage = source->damage();
  return result;
}

class DecompressingSourceTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_.path() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  testing::TempDir dir_;
};

TEST_F(DecompressingSourceTest, GzipOfSeveralMembersIsReadToTheEndWhateverItsName) {
  const std::string text = Lines(0, 20000) + Lines(20000, 40000);
  const auto result = ReadAll(Write("server.log", Gzip(Lines(0, 20000)) + Gzip(Lines(20000, 40000))));
  EXPECT_EQ(result.compression, "gzip");
  EXPECT_EQ(result.text, text);
  EXPECT_FALSE(result.damage.has_value());
}

TEST_F(DecompressingSourceTest, ZstdOfSeveralFramesIsReadToTheEnd) {
  const auto result = ReadAll(Write("server.json.zst", Zstd(Lines(0, 30000)) + Zstd(Lines(30000, 31000))));
  EXPECT_EQ(result.compression, "zstd");
  EXPECT_EQ(result.text, Lines(0, 31000));
  EXPECT_FALSE(result.damage.has_value());
}

TEST_F(DecompressingSourceTest, PlainTextPassesThroughEvenWhenNamedGz) {
  const auto result = ReadAll(Write("server.json.gz", Lines(0, 100)));
  EXPECT_EQ(result.compression, "");
  EXPECT_EQ(result.text, Lines(0, 100));
}

TEST_F(DecompressingSourceTest, ATruncatedGzipGivesWhatCameBeforeAndSaysWhere) {
  const std::string whole = Gzip(Lines(0, 50000));
  const auto result = ReadAll(Write("cut.gz", whole.substr(0, whole.size() / 2)));
  ASSERT_TRUE(result.damage.has_value());
  EXPECT_NE(result.damage->find("truncated at compressed byte offset"), std::string::npos) << *result.damage;
  EXPECT_GT(result.text.size(), Lines(0, 50000).size() / 4);
  EXPECT_EQ(Lines(0, 50000).compare(0, result.text.size(), result.text), 0) << "what came out is the start, intact";
}

TEST_F(DecompressingSourceTest, CorruptZstdIsReportedWithItsOffset) {
  std::string bytes = Zstd(Lines(0, 1000)) + Zstd(Lines(1000, 2000));
  const size_t second = Zstd(Lines(0, 1000)).size();
  for (size_t i = second + 20; i < second + 60; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  const auto result = ReadAll(Write("bad.zst", bytes));
  ASSERT_TRUE(result.damage.has_value());
  EXPECT_NE(result.damage->find("corrupt zstd data"), std::string::npos) << *result.damage;
  EXPECT_NE(result.damage->find("offset"), std::string::npos);
  EXPECT_EQ(result.text.substr(0, Lines(0, 1000).size()), Lines(0, 1000)) << "the intact first frame is used";
}

}  // namespace
}  // namespace foreshock
