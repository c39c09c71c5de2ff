// DecompressingSource: gzip and zstd archives recognised by their magic bytes, read through
// every member or frame; damage reported with its offset after the lines before it.

#include "input/decompressing_source.h"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <fstream>

#include "input/fd_source.h"
#include "input/read_placement.h"
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

// However far an archive expands (a log of one line repeated shrinks a thousandfold), a read
// hands out at most kReadChunkBytes of it, like a plain file's read, and the archive comes
// whole: what the decoder still held when a read stopped there comes with the next reads,
// also after the last compressed byte was read.
TEST_F(DecompressingSourceTest, ArchivesExpandingFarComeWholeInReadsOfAChunkAtMost) {
  const std::string line = "[2026-11-29T02:54:11,112][WARN ][o.e.s.SearchService] [node-2] same line again\n";
  for (const size_t size : {kReadChunkBytes - 1, kReadChunkBytes, kReadChunkBytes + 1, 3 * kReadChunkBytes + 7,
                            size_t{10'000'000}}) {
    std::string text;
    while (text.size() < size) text += line;
    text.resize(size);
    for (const bool zstd : {false, true}) {
      auto source = OpenInputFile(Write(zstd ? "repeat.zst" : "repeat.gz", zstd ? Zstd(text) : Gzip(text))).value();
      std::string read;
      size_t largest = 0;
      while (true) {
        std::string out;
        auto state = source->Read(&out, Duration(0));
        ASSERT_TRUE(state.ok());
        largest = std::max(largest, out.size());
        read += out;
        if (*state == Source::ReadState::kEnd) break;
      }
      const std::string what = (zstd ? "zstd of " : "gzip of ") + std::to_string(size) + " bytes";
      EXPECT_EQ(read.size(), text.size()) << what;
      EXPECT_TRUE(read == text) << what;
      EXPECT_FALSE(source->damage().has_value()) << what << ": " << source->damage().value_or("");
      EXPECT_LE(largest, kReadChunkBytes) << what;
    }
  }
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
