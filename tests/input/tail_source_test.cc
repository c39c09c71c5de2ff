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
  static std::string Drain(TailSource& source) {
    std::string got;
    for (int idle = 0; idle < 3;) {
      auto state = source.Read(&got, std::chrono::milliseconds(0));
      EXPECT_TRUE(state.ok());
      idle = *state == Source::ReadState::kIdle ? idle + 1 : 0;
    }
    return got;
  }
  std::string Drain() { return Drain(source_); }

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

// The path's file is empty when (re)opened after a rotation we noticed, by copytruncate or
// by rename (the new file created empty, as logrotate's `create` does). The writer then fills
// it and copytruncates it again before our first read: those lines are only in the copy.
TEST_F(TailSourceTest, AFileOpenedEmptyAndCopytruncatedBeforeItsFirstReadIsReadFromItsCopy) {
  for (const bool by_rename : {false, true}) {
    SCOPED_TRACE(by_rename ? "after a rename" : "after a copytruncate");
    TempDir dir;
    const std::string path = dir.path() + "/es.log";
    TailSource source(path, TailSource::StartAt::kBeginning, std::nullopt);
    auto append = [&](const std::string& text) { std::ofstream(path, std::ios::app) << text; };
    auto copytruncate = [&](const std::string& copy) {
      fs::copy_file(path, copy);
      std::ofstream(path, std::ios::trunc).close();
    };
    append(Lines(0, 3));
    std::string got = Drain(source);
    if (by_rename) {
      fs::rename(path, path + ".1");
      append("");
    } else {
      copytruncate(path + ".1");
    }
    got += Drain(source);  // the rotation is noticed; the file at the path is empty now
    ASSERT_EQ(source.stats().rotations + source.stats().truncations, 1u);
    append(Lines(3, 2));
    copytruncate(path + ".2");
    append(Lines(5, 1));
    got += Drain(source);
    EXPECT_EQ(got, Lines(0, 6));
  }
}

// A file that began empty and simply fills is read once, whatever older rotated files the
// folder holds.
TEST_F(TailSourceTest, AFileThatBeganEmptyAndFillsIsReadOnceBesideOlderRotations) {
  std::ofstream(path_ + ".1") << Lines(100, 2);
  Append("");
  std::string got = Drain();
  Append(Lines(0, 3));
  got += Drain();
  EXPECT_EQ(got, Lines(0, 3));
  EXPECT_EQ(source_.stats().truncations, 0u);
}

}  // namespace
}  // namespace foreshock
