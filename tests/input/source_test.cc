#include "input/source.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace foreshock {
namespace {

// A source that appends the chunks it was given, one a call, as a followed file or an archive
// being inflated does.
class ChunkSource final : public Source {
 public:
  explicit ChunkSource(std::vector<std::string> chunks) : chunks_(std::move(chunks)) {}
  Result<ReadState> Read(std::string* out, Duration /*wait*/) override {
    if (next_ == chunks_.size()) return ReadState::kEnd;
    out->append(chunks_[next_++]);
    return ReadState::kData;
  }
  const std::string& name() const override { return name_; }

 private:
  std::vector<std::string> chunks_;
  size_t next_ = 0;
  std::string name_ = "chunks";
};

// The default ReadView() hands out exactly what Read() appended, call after call in one
// reused string, and it lands half a page off the page grid, where the kernel copies a read
// from the page cache at full speed on AMD (read_placement.h).
TEST(SourceTest, ReadViewHandsOutEachReadPlacedOffThePageGrid) {
  const std::vector<std::string> chunks = {std::string(kReadChunkBytes, 'a'), "short\n",
                                           std::string(kReadChunkBytes - 7, 'c')};
  ChunkSource source(chunks);
  std::string scratch;
  for (const std::string& chunk : chunks) {
    std::string_view view;
    auto state = source.ReadView(&scratch, &view, std::chrono::milliseconds(0));
    ASSERT_TRUE(state.ok());
    EXPECT_EQ(*state, Source::ReadState::kData);
    EXPECT_EQ(view, chunk);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(view.data()) % kPageBytes, kPageBytes / 2);
  }
  std::string_view view;
  auto state = source.ReadView(&scratch, &view, std::chrono::milliseconds(0));
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(*state, Source::ReadState::kEnd);
  EXPECT_TRUE(view.empty());
}

TEST(SourceTest, OffGridPadReachesTheMiddleOfAPageWithinAPage) {
  alignas(kPageBytes) static char page[3 * kPageBytes];
  for (size_t offset : {size_t{0}, size_t{16}, kPageBytes / 2, kPageBytes / 2 + 1, kPageBytes - 1}) {
    const size_t pad = OffGridPad(page + offset);
    EXPECT_LT(pad, kPageBytes) << offset;
    EXPECT_EQ((offset + pad) % kPageBytes, kPageBytes / 2) << offset;
  }
}

}  // namespace
}  // namespace foreshock
