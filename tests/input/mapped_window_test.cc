#include "input/mapped_window.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::TempDir;

struct OpenFile {
  explicit OpenFile(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
  int fd;
};

std::string Digits(size_t size) {
  std::string text;
  for (size_t i = 0; i < size; ++i) text += static_cast<char>('0' + i % 10);
  return text;
}

// A window starts where asked, page-aligned or not, and ends a window's worth later or at
// the file's end.
TEST(MappedWindowTest, MapsTheStretchAskedForAtAnyOffset) {
  TempDir dir;
  const std::string contents = Digits(MappedWindow::kWindowBytes + 10000);
  OpenFile file(dir.Write("digits.log", contents));
  ASSERT_GE(file.fd, 0);
  MappedWindow window;
  for (const uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{4095}, uint64_t{4096}, uint64_t{12345}}) {
    ASSERT_TRUE(window.Map(file.fd, offset, contents.size()));
    EXPECT_EQ(window.view(), std::string_view(contents).substr(offset, MappedWindow::kWindowBytes)) << offset;
    EXPECT_FALSE(window.cut());
  }
  ASSERT_TRUE(window.Map(file.fd, MappedWindow::kWindowBytes + 9000, contents.size()));
  EXPECT_EQ(window.view(), std::string_view(contents).substr(MappedWindow::kWindowBytes + 9000));
  EXPECT_FALSE(window.Map(file.fd, contents.size(), contents.size())) << "nothing left to map";
  EXPECT_TRUE(window.view().empty());
}

// At most kMaxWindows at once in the process: the next fails (its reader reads instead)
// until one is unmapped.
TEST(MappedWindowTest, MapsAtMostTheCappedNumberOfWindowsAtOnce) {
  TempDir dir;
  const std::string contents = Digits(10000);
  OpenFile file(dir.Write("digits.log", contents));
  std::vector<std::unique_ptr<MappedWindow>> windows;
  for (size_t i = 0; i < MappedWindow::kMaxWindows; ++i) {
    windows.push_back(std::make_unique<MappedWindow>());
    ASSERT_TRUE(windows.back()->Map(file.fd, i, contents.size())) << i;
  }
  MappedWindow one_more;
  EXPECT_FALSE(one_more.Map(file.fd, 0, contents.size()));
  windows.front()->Unmap();
  EXPECT_TRUE(one_more.Map(file.fd, 0, contents.size()));
  EXPECT_EQ(one_more.view(), contents);
}

// The handler takes only the faults of its windows: a SIGBUS anywhere else (a truncated
// mapping of someone else's, a kill -BUS) still ends the process.
TEST(MappedWindowDeathTest, ASigbusOutsideEveryWindowStillEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  TempDir dir;
  const std::string contents = Digits(64 * 1024);
  const std::string path = dir.Write("digits.log", contents);
  EXPECT_DEATH(
      {
        OpenFile file(path);
        MappedWindow window;  // installs the handler
        if (!window.Map(file.fd, 0, contents.size())) std::abort();
        void* foreign = ::mmap(nullptr, contents.size(), PROT_READ, MAP_PRIVATE, file.fd, 0);
        if (foreign == MAP_FAILED || ::truncate(path.c_str(), 0) != 0) std::abort();
        volatile char touched = static_cast<const char*>(foreign)[contents.size() - 1];
        (void)touched;
        std::_Exit(0);  // not reached: the touch faults
      },
      "");
  const std::string other = dir.Write("other.log", contents);
  EXPECT_DEATH(
      {
        OpenFile file(other);
        MappedWindow window;
        if (!window.Map(file.fd, 0, contents.size())) std::abort();
        ::raise(SIGBUS);
        std::_Exit(0);
      },
      "");
}

}  // namespace
}  // namespace foreshock
