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
  // Creates the file empty and returns the position a reader that saw it so would save.
  std::optional<FilePosition> PositionSavedWhileEmpty() {
    Append("");
    TailSource first(path_, TailSource::StartAt::kBeginning, std::nullopt);
    EXPECT_EQ(Drain(first), "");
    return first.PositionAt(0, 0);
  }
  void Copytruncate(const std::string& copy) {
    fs::copy_file(path_, copy);
    std::ofstream(path_, std::ios::trunc).close();
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

// Saved before a byte of it was read (a watcher killed moments after the file was created):
// the position knows only the inode. Filled, copytruncated, refilled and renamed away while
// stopped, its lines are in the copy, then in itself renamed, then in the new file.
TEST_F(TailSourceTest, AFileSavedUnreadIsFoundInItsCopyAndItsRenamedSelfAfterARestart) {
  const std::optional<FilePosition> saved = PositionSavedWhileEmpty();
  ASSERT_TRUE(saved.has_value());
  ASSERT_EQ(saved->identity.head_bytes, 0u);
  Append(Lines(0, 3));
  Copytruncate(path_ + ".c");
  Append(Lines(3, 2));
  fs::rename(path_, path_ + ".r");
  Append(Lines(5, 1));
  TailSource second(path_, TailSource::StartAt::kBeginning, saved);
  EXPECT_EQ(Drain(second), Lines(0, 6));
}

// copytruncate copies, then truncates: a reader that lists the folder in between meets a
// copy that is still being written. It must not read that copy as a finished rotation (its
// other half would be lost, or read twice): the path's file still holds those lines.
TEST_F(TailSourceTest, ACopyBeingMadeWhenARestartedReaderLooksIsLeftUntilThePathShrinks) {
  const std::optional<FilePosition> saved = PositionSavedWhileEmpty();
  Append(Lines(0, 5));
  std::ofstream(path_ + ".1") << Lines(0, 2);  // two of the five lines copied so far
  TailSource second(path_, TailSource::StartAt::kBeginning, saved);
  std::string got = Drain(second);
  EXPECT_EQ(got, Lines(0, 5));
  std::ofstream(path_ + ".1", std::ios::app) << Lines(2, 3);  // the copy is done
  std::ofstream(path_, std::ios::trunc).close();
  Append(Lines(5, 2));
  got += Drain(second);
  EXPECT_EQ(got, Lines(0, 7));
}

TEST_F(TailSourceTest, ACopyBeingMadeBeforeTheFirstReadOfANewFileIsLeftUntilThePathShrinks) {
  Append(Lines(0, 3));
  std::string got = Drain();
  fs::rename(path_, path_ + ".1");
  Append("");
  got += Drain();  // the rotation is noticed; the file at the path is empty
  ASSERT_EQ(source_.stats().rotations, 1u);
  Append(Lines(3, 3));
  std::ofstream(path_ + ".2") << Lines(3, 1);  // a copy of the new file, being made
  got += Drain();
  EXPECT_EQ(got, Lines(0, 6));
  std::ofstream(path_ + ".2", std::ios::app) << Lines(4, 2);
  std::ofstream(path_, std::ios::trunc).close();
  Append(Lines(6, 1));
  got += Drain();
  EXPECT_EQ(got, Lines(0, 7));
}

// The writer copytruncates and then renames the file before we read on: the lines we had
// not read are in the copy, those of the refill in the file renamed, then the new file.
TEST_F(TailSourceTest, AFileCopytruncatedAndThenRenamedBeforeWeReadOnIsReadFromItsCopyThenItself) {
  for (const int refill : {1, 8}) {  // shorter than what we had read, and longer
    SCOPED_TRACE(refill);
    TempDir dir;
    const std::string path = dir.path() + "/es.log";
    TailSource source(path, TailSource::StartAt::kBeginning, std::nullopt);
    auto append = [&](const std::string& text) { std::ofstream(path, std::ios::app) << text; };
    append(Lines(0, 3));
    std::string got = Drain(source);
    append(Lines(3, 2));  // not read yet
    fs::copy_file(path, path + ".c");
    std::ofstream(path, std::ios::trunc).close();
    append(Lines(5, refill));
    fs::rename(path, path + ".r");
    append(Lines(5 + refill, 1));
    got += Drain(source);
    EXPECT_EQ(got, Lines(0, 6 + refill));
  }
}

// Begun again from its start after a truncation, the file is filled, copytruncated again,
// refilled and renamed before our first read of it: the copy comes first, then the file
// by its new name, then the new file.
TEST_F(TailSourceTest, AFileBegunAgainAndCopytruncatedAndRenamedBeforeItsFirstReadLosesNothing) {
  Append(Lines(0, 3));
  std::string got = Drain();
  Copytruncate(path_ + ".1");
  got += Drain();  // the truncation is noticed; the file is empty
  ASSERT_EQ(source_.stats().truncations, 1u);
  Append(Lines(3, 2));
  Copytruncate(path_ + ".2");
  Append(Lines(5, 1));
  fs::rename(path_, path_ + ".r");
  Append(Lines(6, 1));
  got += Drain();
  EXPECT_EQ(got, Lines(0, 7));
}

}  // namespace
}  // namespace foreshock
