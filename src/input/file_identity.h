#pragma once

// FileIdentity tells whether the file at a path is still the file foreshock was reading:
// device and inode, plus a fingerprint of its first bytes, because inodes are reused after
// a delete (log rotation creates the new file with the inode of one deleted moments ago).

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace foreshock {

struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  uint64_t head_hash = 0;   // hash of the first head_bytes bytes
  uint32_t head_bytes = 0;  // how many bytes the hash covers (grows until kHeadBytes)

  static constexpr uint32_t kHeadBytes = 256;

  // Reads the identity of the open file `fd` (which is not moved).
  static std::optional<FileIdentity> Of(int fd);
  // The first bytes of the open file `fd`, up to kHeadBytes (empty if unreadable).
  static std::string HeadOf(int fd);

  // Grows the head fingerprint with `size` bytes the caller read at `file_offset`, up to
  // kHeadBytes. Built from bytes already read, not read again: a file rewritten in between
  // (copytruncate and refill) must not lend its new head to the content that was read.
  // Bytes that do not continue the fingerprint (they start past it) are ignored.
  void Extend(const char* data, size_t size, uint64_t file_offset);

  // True when the open file `fd` is this file: same device and inode, and its first
  // head_bytes bytes hash the same (a file only ever grows after its head).
  bool Matches(int fd) const;
  // True when the open file `fd` starts with the same bytes, whatever its inode: a copy
  // (logrotate's copytruncate copies the file, then truncates the original).
  bool SameContent(int fd) const;
};

}  // namespace foreshock
