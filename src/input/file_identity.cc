#include "input/file_identity.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace foreshock {
namespace {

constexpr uint64_t kFnvBasis = 14695981039346656037ULL;

uint64_t Fnv1a(const char* data, size_t size, uint64_t hash = kFnvBasis) {
  for (size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

std::optional<FileIdentity> FileIdentity::Of(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return std::nullopt;
  FileIdentity identity;
  identity.device = info.st_dev;
  identity.inode = info.st_ino;
  char head[kHeadBytes];
  const ssize_t got = ::pread(fd, head, sizeof head, 0);
  if (got > 0) {
    identity.head_bytes = static_cast<uint32_t>(got);
    identity.head_hash = Fnv1a(head, static_cast<size_t>(got));
  }
  return identity;
}

void FileIdentity::Extend(const char* data, size_t size, uint64_t file_offset) {
  if (head_bytes >= kHeadBytes || file_offset > head_bytes || file_offset + size <= head_bytes) return;
  const uint64_t end = std::min<uint64_t>(kHeadBytes, file_offset + size);
  const size_t skip = static_cast<size_t>(head_bytes - file_offset);
  const size_t more = static_cast<size_t>(end - head_bytes);
  head_hash = Fnv1a(data + skip, more, head_bytes == 0 ? kFnvBasis : head_hash);
  head_bytes = static_cast<uint32_t>(end);
}

bool FileIdentity::SameContent(int fd) const {
  if (head_bytes == 0) return false;
  char head[kHeadBytes];
  const ssize_t got = ::pread(fd, head, head_bytes, 0);
  return got == static_cast<ssize_t>(head_bytes) && Fnv1a(head, head_bytes) == head_hash;
}

bool FileIdentity::Matches(int fd) const {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || info.st_dev != device || info.st_ino != inode) return false;
  if (head_bytes == 0) return true;
  char head[kHeadBytes];
  const ssize_t got = ::pread(fd, head, head_bytes, 0);
  return got == static_cast<ssize_t>(head_bytes) && Fnv1a(head, head_bytes) == head_hash;
}

}  // namespace foreshock
