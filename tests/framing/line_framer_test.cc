#include "framing/line_framer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace foreshock {
namespace {

struct Line {
  std::string text;
  bool truncated;
  bool operator==(const Line&) const = default;
};

std::vector<Line> FrameAll(LineFramer* framer, const std::vector<std::string>& chunks) {
  std::vector<Line> lines;
  auto collect = [&](std::string_view text, bool truncated) {
    lines.push_back({std::string(text), truncated});
  };
  for (const std::string& chunk : chunks) framer->Feed(chunk, collect);
  framer->Flush(collect);
  return lines;
}

TEST(LineFramerTest, SplitsOnNewlinesAndStripsCarriageReturns) {
  LineFramer framer(1024);
  EXPECT_EQ(FrameAll(&framer, {"one\ntwo\r\nthree\n"}),
            (std::vector<Line>{{"one", false}, {"two", false}, {"three", false}}));
  EXPECT_EQ(framer.stats().lines, 3u);
}

TEST(LineFramerTest, JoinsLinesSplitAcrossChunks) {
  LineFramer framer(1024);
  EXPECT_EQ(FrameAll(&framer, {"par", "tial li", "ne\nnext\n"}),
            (std::vector<Line>{{"partial line", false}, {"next", false}}));
}

TEST(LineFramerTest, FlushEmitsATruncatedLastLine) {
  LineFramer framer(1024);
  EXPECT_EQ(FrameAll(&framer, {"complete\nno newline at end"}),
            (std::vector<Line>{{"complete", false}, {"no newline at end", false}}));
}

TEST(LineFramerTest, CutsOverlongLinesAndKeepsTheirNeighbours) {
  LineFramer framer(8);
  // One overlong line inside a chunk, one spread over several chunks.
  EXPECT_EQ(FrameAll(&framer, {"before\n0123456789abcdef\nmid\n0123", "4567", "89\nafter\n"}),
            (std::vector<Line>{{"before", false},
                               {"01234567", true},
                               {"mid", false},
                               {"01234567", true},
                               {"after", false}}));
  EXPECT_EQ(framer.stats().truncated_lines, 2u);
}

TEST(LineFramerTest, ATenMegabyteLineCostsOnlyTheCap) {
  LineFramer framer(1 << 20);
  const std::string huge(10 << 20, 'a');
  std::vector<Line> lines;
  auto collect = [&](std::string_view text, bool truncated) {
    lines.push_back({std::string(text), truncated});
  };
  for (size_t at = 0; at < huge.size(); at += 65536) framer.Feed(std::string_view(huge).substr(at, 65536), collect);
  framer.Feed("\nok\n", collect);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text.size(), size_t{1} << 20);
  EXPECT_TRUE(lines[0].truncated);
  EXPECT_EQ(lines[1], (Line{"ok", false}));
}

TEST(LineFramerTest, KeepsNulBytesInsideLines) {
  LineFramer framer(64);
  const std::string input("a\0b\n", 4);
  auto lines = FrameAll(&framer, {input});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text, std::string("a\0b", 3));
}

}  // namespace
}  // namespace foreshock
