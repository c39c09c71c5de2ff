#include "input/fd_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include "input/read_placement.h"
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

// Reads every view ReadView() hands out until the end; the views' start addresses in *starts.
std::string ReadAllViews(Source* source, std::vector<const char*>* starts) {
  std::string got;
  std::string scratch;
  while (true) {
    std::string_view view;
    auto state = source->ReadView(&scratch, &view, std::chrono::milliseconds(1000));
    EXPECT_TRUE(state.ok());
    if (!state.ok() || *state == Source::ReadState::kEnd) break;
    EXPECT_EQ(*state, Source::ReadState::kData);
    starts->push_back(view.data());
    got.append(view);
  }
  EXPECT_TRUE(scratch.empty()) << "no copy into the caller's string";
  return got;
}

std::string NumberedLines(size_t bytes) {
  std::string contents;
  for (int i = 0; contents.size() < bytes; ++i) contents += "line " + std::to_string(i) + "\n";
  return contents;
}

// A regular file is read into the source's own buffer, reused from read to read: the
// views, one after another, are the file, 256 KiB each but the last.
TEST(FdSourceTest, ReadViewReadsAFileIntoOneBufferReused) {
  TempDir dir;
  const std::string contents = NumberedLines(2 * (256 << 10) + 12345);
  auto source = FdSource::Open(dir.Write("big.log", contents));
  ASSERT_TRUE(source.ok());
  std::vector<const char*> starts;
  EXPECT_EQ(ReadAllViews(source->get(), &starts), contents);
  ASSERT_EQ(starts.size(), 3u);
  for (const char* start : starts) EXPECT_EQ(start, starts.front()) << "the same buffer every time";
  // Off the grid of the file's pages, where the kernel's copy runs at full speed on AMD.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(starts.front()) % kPageBytes, kPageBytes / 2);
}

// A file begun with Read() (or a redirected stdin not at its start) goes on from where it
// stands.
TEST(FdSourceTest, ReadViewGoesOnFromWhereReadStopped) {
  TempDir dir;
  const std::string contents = NumberedLines((256 << 10) + 5000);
  auto source = FdSource::Open(dir.Write("big.log", contents));
  ASSERT_TRUE(source.ok());
  std::string got;
  ASSERT_TRUE((*source)->Read(&got, std::chrono::milliseconds(10)).ok());
  ASSERT_FALSE(got.empty());
  std::vector<const char*> starts;
  got += ReadAllViews(source->get(), &starts);
  EXPECT_EQ(got, contents);
}

// A pipe is read into a buffer of the source's own, reused from read to read (no string to
// resize and zero-fill each time).
TEST(FdSourceTest, ReadViewReadsAPipeIntoABufferOfItsOwn) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string contents = NumberedLines(700 * 1024);
  std::thread writer([&] {
    for (size_t at = 0; at < contents.size();) {
      const ssize_t wrote = ::write(fds[1], contents.data() + at, contents.size() - at);
      if (wrote <= 0) break;
      at += static_cast<size_t>(wrote);
    }
    ::close(fds[1]);
  });
  auto source = FdSource::Open("/proc/self/fd/" + std::to_string(fds[0]));
  ASSERT_TRUE(source.ok());
  std::vector<const char*> starts;
  EXPECT_EQ(ReadAllViews(source->get(), &starts), contents);
  writer.join();
  ::close(fds[0]);
  ASSERT_GE(starts.size(), 3u) << "256 KiB a read at most";
  for (const char* start : starts) EXPECT_EQ(start, starts.front()) << "the same buffer every time";
}

// A file cut short while it is read (copytruncate mid-scan): the read after the cut finds
// the file's end, and what was read stays what the file held.
TEST(FdSourceTest, AFileTruncatedWhileReadEndsWhereItWasCut) {
  TempDir dir;
  const std::string contents = NumberedLines(4 << 20);
  const std::string path = dir.Write("cut.log", contents);
  auto source = FdSource::Open(path);
  ASSERT_TRUE(source.ok());
  std::string scratch;
  std::string_view view;
  auto state = (*source)->ReadView(&scratch, &view, std::chrono::milliseconds(10));
  ASSERT_TRUE(state.ok());
  ASSERT_EQ(*state, Source::ReadState::kData);
  const std::string first(view);
  EXPECT_EQ(first, contents.substr(0, first.size()));
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(first.size() / 2)), 0);
  state = (*source)->ReadView(&scratch, &view, std::chrono::milliseconds(10));
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(*state, Source::ReadState::kEnd);
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
