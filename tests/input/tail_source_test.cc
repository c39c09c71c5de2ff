#include "input/tail_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

class TailSourceTest : public ::testing::Test {
 protected:
  void Append(const std::string& text) {
    std::ofstream file(path_, std::ios::app | std::ios::binary);
    file << text;
  }
  // Lines numbered from `first`, long enough that a few of them fill a file's fingerprint.
  static std::string Lines(int first, int count) {
    std::string out;
    for (int i = first; i < first + count; ++i) {
      out += "[2026-12-01T08:00:00,000][INFO ][o.e.n.Node] [es-1] line " + std::to_string(i) + "\n";
    }
    return out;
  }
  // Reads until the source has nothing more to give.
  std::string Drain() {
    std::string got;
    for (int idle = 0; idle < 3;) {
      auto state = source_.Read(&got, std::chrono::milliseconds(0));
      EXPECT_TRUE(state.ok());
      idle = *state == Source::ReadState::kIdle ? idle + 1 : 0;
    }
    return got;
  }

  TempDir dir_;
  std::string path_ = dir_.path() + "/es.log";
  TailSource source_{path_, TailSource::StartAt::kBeginning, std::nullopt};
};

TEST_F(TailSourceTest, RenamedFileIsFinishedBeforeTheNewOne) {
  Append(Lines(0, 3));
  std::string got = Drain();
  Append(Lines(3, 2));  // written before the rename, not read yet
  fs::rename(path_, path_ + ".1");
  Append(Lines(5, 2));
  got += Drain();
  EXPECT_EQ(got, Lines(0, 7));
  EXPECT_EQ(source_.stats().rotations, 1u);
}

TEST_F(TailSourceTest, CopytruncateReadsWhatOnlyTheCopyHoldsThenTheNewContent) {
  Append(Lines(0, 3));
  std::string got = Drain();
  Append(Lines(3, 2));  // written after our last read: only the copy will hold it
  fs::copy_file(path_, path_ + ".1");
  std::ofstream(path_, std::ios::trunc).close();
  Append(Lines(5, 8));  // refilled past the old offset
  got += Drain();
  EXPECT_EQ(got, Lines(0, 13));
  EXPECT_EQ(source_.stats().truncations, 1u);
}

TEST_F(TailSourceTest, AGenerationCopytruncatedBeforeItsFirstReadIsReadFromItsCopy) {
  Append(Lines(0, 3));
  std::string got = Drain();
  fs::rename(path_, path_ + ".1");
  Append(Lines(3, 2));
  // The rotation is noticed and the new file opened, but none of it is read yet.
  std::string more;
  auto state = source_.Read(&more, std::chrono::milliseconds(0));
  ASSERT_TRUE(state.ok());
  ASSERT_EQ(*state, Source::ReadState::kRotated);
  ASSERT_EQ(more, "");
  fs::copy_file(path_, path_ + ".2");
  std::ofstream(path_, std::ios::trunc).close();
  Append(Lines(5, 4));
  got += Drain();
  EXPECT_EQ(got, Lines(0, 9));
}

}  // namespace
}  // namespace foreshock
