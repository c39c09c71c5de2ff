#include "input/fd_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::TempDir;

TEST(FdSourceTest, ReadsAFileToItsEnd) {
  TempDir dir;
  const std::string contents(600 * 1024, 'x');  // more than one read chunk
  auto source = FdSource::Open(dir.Write("big.log", contents));
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->name(), dir.path() + "/big.log");
  std::string got;
  while (true) {
    auto state = (*source)->Read(&got, std::chrono::milliseconds(10));
    ASSERT_TRUE(state.ok());
    if (*state == Source::ReadState::kEnd) break;
  }
  EXPECT_EQ(got, contents);
}

// ReadView() reads into a buffer of the source's own, reused from read to read (no string
// to resize and zero-fill each time): the views, one after another, are the file.
TEST(FdSourceTest, ReadViewHandsOutTheFileFromABufferOfItsOwn) {
  TempDir dir;
  std::string contents;
  for (int i = 0; contents.size() < 700 * 1024; ++i) contents += "line " + std::to_string(i) + "\n";
  auto source = FdSource::Open(dir.Write("big.log", contents));
  ASSERT_TRUE(source.ok());
  std::string got;
  std::string scratch;
  const char* buffer = nullptr;
  size_t reads = 0;
  while (true) {
    std::string_view view;
    auto state = (*source)->ReadView(&scratch, &view, std::chrono::milliseconds(10));
    ASSERT_TRUE(state.ok());
    if (*state == Source::ReadState::kEnd) break;
    ASSERT_EQ(*state, Source::ReadState::kData);
    if (buffer == nullptr) buffer = view.data();
    EXPECT_EQ(view.data(), buffer) << "the same buffer every time";
    got.append(view);
    ++reads;
  }
  EXPECT_EQ(got, contents);
  EXPECT_EQ(reads, 3u) << "256 KiB a read";
  EXPECT_TRUE(scratch.empty());
}

TEST(FdSourceTest, MissingFileAndFolderAreErrorsThatNameThePath) {
  TempDir dir;
  auto missing = FdSource::Open(dir.path() + "/nope.log");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.log"), std::string::npos);
  EXPECT_NE(missing.status().message().find("No such file"), std::string::npos);
  auto folder = FdSource::Open(dir.path());
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.status().message().find("is a directory"), std::string::npos);
}

TEST(FdSourceTest, AnIdlePipeReportsIdleInsteadOfBlocking) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const int saved_stdin = ::dup(STDIN_FILENO);
  ::dup2(fds[0], STDIN_FILENO);
  auto source = FdSource::Open("-");
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->name(), "stdin");
  std::string got;
  auto state = (*source)->Read(&got, std::chrono::milliseconds(20));
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(*state, Source::ReadState::kIdle);
  ASSERT_EQ(::write(fds[1], "line\n", 5), 5);
  state = (*source)->Read(&got, std::chrono::milliseconds(1000));
  EXPECT_EQ(*state, Source::ReadState::kData);
  EXPECT_EQ(got, "line\n");
  ::close(fds[1]);
  state = (*source)->Read(&got, std::chrono::milliseconds(1000));
  EXPECT_EQ(*state, Source::ReadState::kEnd);
  ::dup2(saved_stdin, STDIN_FILENO);
  ::close(saved_stdin);
  ::close(fds[0]);
}

}  // namespace
}  // namespace foreshock
