#include "input/file_identity.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "base/fnv1a.h"

namespace foreshock {
namespace {

// Whether the open file `fd` has at least `bytes` bytes (<= kHeadBytes) and they hash to `hash`.
bool HeadHashes(int fd, uint32_t bytes, uint64_t hash) {
  char head[FileIdentity::kHeadBytes];
  const ssize_t got = ::pread(fd, head, bytes, 0);
  return got == static_cast<ssize_t>(bytes) && Fnv1a(std::string_view(head, bytes)) == hash;
}

}  // namespace

std::optional<FileIdentity> FileIdentity::Of(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return std::nullopt;
  FileIdentity identity;
  identity.device = info.st_dev;
  identity.inode = info.st_ino;
  const std::string head = HeadOf(fd);
  if (!head.empty()) {
    identity.head_bytes = static_cast<uint32_t>(head.size());
    identity.head_hash = Fnv1a(std::string_view(head.data(), head.size()));
  }
  return identity;
}

std::string FileIdentity::HeadOf(int fd) {
  std::string head(kHeadBytes, '\0');
  const ssize_t got = ::pread(fd, head.data(), head.size(), 0);
  head.resize(static_cast<size_t>(std::max<ssize_t>(got, 0)));
  return head;
}

void FileIdentity::Extend(const char* data, size_t size, uint64_t file_offset) {
  if (head_bytes >= kHeadBytes || file_offset > head_bytes || file_offset + size <= head_bytes) return;
  const uint64_t end = std::min<uint64_t>(kHeadBytes, file_offset + size);
  const size_t skip = static_cast<size_t>(head_bytes - file_offset);
  const size_t more = static_cast<size_t>(end - head_bytes);
  head_hash = Fnv1a(std::string_view(data + skip, more), head_bytes == 0 ? kFnv1aBasis : head_hash);
  head_bytes = static_cast<uint32_t>(end);
}

bool FileIdentity::SameContent(int fd) const {
  return head_bytes > 0 && HeadHashes(fd, head_bytes, head_hash);
}

bool FileIdentity::Matches(int fd) const {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || info.st_dev != device || info.st_ino != inode) return false;
  return head_bytes == 0 || HeadHashes(fd, head_bytes, head_hash);
}

}  // namespace foreshock
