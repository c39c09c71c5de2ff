#include "input/file_identity.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::TempDir;

class FileIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; contents_.size() < 400; ++i) contents_ += "line " + std::to_string(i) + " of the log\n";
    fd_ = ::open(dir_.Write("es.log", contents_).c_str(), O_RDONLY);
    ASSERT_GE(fd_, 0);
  }
  void TearDown() override { ::close(fd_); }

  TempDir dir_;
  std::string contents_;
  int fd_ = -1;
};

TEST_F(FileIdentityTest, ExtendingWithTheBytesReadGivesTheFingerprintOfTheFile) {
  FileIdentity identity;
  identity.Extend(contents_.data(), 100, 0);
  EXPECT_EQ(identity.head_bytes, 100u);
  // A read overlapping what is already covered continues where the fingerprint ends.
  identity.Extend(contents_.data() + 60, 300, 60);
  const auto of_file = FileIdentity::Of(fd_);
  ASSERT_TRUE(of_file.has_value());
  EXPECT_EQ(identity.head_bytes, FileIdentity::kHeadBytes);
  EXPECT_EQ(identity.head_hash, of_file->head_hash);
}

TEST_F(FileIdentityTest, BytesPastTheFingerprintOrAfterItIsFullAreIgnored) {
  FileIdentity identity;
  identity.Extend(contents_.data() + 50, 100, 50);  // leaves a gap at the start
  EXPECT_EQ(identity.head_bytes, 0u);
  identity.Extend(contents_.data(), FileIdentity::kHeadBytes, 0);
  const uint64_t full = identity.head_hash;
  identity.Extend("rewritten", 9, FileIdentity::kHeadBytes);
  EXPECT_EQ(identity.head_hash, full);
  EXPECT_EQ(identity.head_bytes, FileIdentity::kHeadBytes);
}

TEST_F(FileIdentityTest, AFingerprintBuiltFromOtherBytesDoesNotMatchTheFile) {
  FileIdentity identity = *FileIdentity::Of(fd_);
  EXPECT_TRUE(identity.Matches(fd_));
  FileIdentity from_other_bytes{identity.device, identity.inode, 0, 0};
  std::string other = contents_;
  other[10] = '#';
  from_other_bytes.Extend(other.data(), 200, 0);
  EXPECT_FALSE(from_other_bytes.Matches(fd_));
  EXPECT_FALSE(from_other_bytes.SameContent(fd_));
}

}  // namespace
}  // namespace foreshock
