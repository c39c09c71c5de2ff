#include "input/tail_source.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace foreshock {
namespace {

constexpr size_t kChunkBytes = 256 * 1024;
constexpr size_t kMaxGenerations = 8;

int OpenReadOnly(const std::string& path) { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); }

}  // namespace

TailSource::TailSource(std::string path, StartAt start, std::optional<FilePosition> resume,
                       std::vector<std::string> previous_candidates)
    : path_(std::move(path)),
      start_(start),
      resume_(std::move(resume)),
      previous_candidates_(std::move(previous_candidates)) {}

TailSource::~TailSource() {
  if (fd_ >= 0) ::close(fd_);
}

void TailSource::StartGeneration(uint64_t file_offset) {
  offset_ = file_offset;
  Generation generation;
  generation.identity = FileIdentity::Of(fd_).value_or(FileIdentity{});
  generation.stream_start = stream_;
  generation.file_start = file_offset;
  generations_.push_back(generation);
  if (generations_.size() > kMaxGenerations) generations_.erase(generations_.begin());
}

bool TailSource::OpenPath(bool from_start) {
  const int fd = OpenReadOnly(path_);
  if (fd < 0) {
    if (!warned_missing_) {
      spdlog::warn("{}: cannot open ({}); will keep trying", path_, std::strerror(errno));
      warned_missing_ = true;
    }
    return false;
  }
  warned_missing_ = false;
  fd_ = fd;
  uint64_t offset = 0;
  if (resume_) {
    if (resume_->identity.Matches(fd_)) {
      offset = resume_->offset;  // the same file: go on where we stopped
    } else {
      // Rotated while we were stopped: finish the old file first, if it is still there.
      for (const std::string& candidate : previous_candidates_) {
        const int old = OpenReadOnly(candidate);
        if (old < 0) continue;
        if (resume_->identity.Matches(old)) {
          spdlog::info("{}: rotated while stopped; finishing {} first", path_, candidate);
          ::close(fd_);
          fd_ = old;
          draining_previous_ = true;
          StartGeneration(resume_->offset);
          resume_.reset();
          return true;
        }
        ::close(old);
      }
      ++stats_.lost;
      spdlog::warn("{}: rotated while stopped and the old file is gone; lines written to it after "
                   "offset {} are lost",
                   path_, resume_->offset);
    }
    resume_.reset();
  } else if (!from_start && start_ == StartAt::kEnd) {
    struct stat info {};
    if (::fstat(fd_, &info) == 0) offset = static_cast<uint64_t>(info.st_size);
  }
  StartGeneration(offset);
  return true;
}

ssize_t TailSource::ReadSome(std::string* out) {
  const size_t old_size = out->size();
  out->resize(old_size + kChunkBytes);
  ssize_t got = 0;
  do {
    got = ::pread(fd_, out->data() + old_size, kChunkBytes, static_cast<off_t>(offset_));
  } while (got < 0 && errno == EINTR);
  out->resize(old_size + static_cast<size_t>(std::max<ssize_t>(got, 0)));
  if (got > 0) {
    offset_ += static_cast<uint64_t>(got);
    stream_ += static_cast<uint64_t>(got);
    Generation& current = generations_.back();
    if (current.identity.head_bytes < FileIdentity::kHeadBytes) {
      current.identity = FileIdentity::Of(fd_).value_or(current.identity);
    }
  }
  return got;
}

Source::ReadState TailSource::CheckRotation() {
  if (draining_previous_) {  // the old file is finished: on to the path's current file
    ::close(fd_);
    fd_ = -1;
    draining_previous_ = false;
    ++stats_.rotations;
    return OpenPath(/*from_start=*/true) ? ReadState::kRotated : ReadState::kIdle;
  }
  struct stat at_path {};
  if (::stat(path_.c_str(), &at_path) != 0) return ReadState::kIdle;  // gone; may come back
  struct stat ours {};
  if (::fstat(fd_, &ours) != 0) return ReadState::kIdle;
  if (at_path.st_ino != ours.st_ino || at_path.st_dev != ours.st_dev) {
    // Renamed or deleted and recreated; we read the old file to its end already.
    ::close(fd_);
    fd_ = -1;
    ++stats_.rotations;
    return OpenPath(/*from_start=*/true) ? ReadState::kRotated : ReadState::kIdle;
  }
  if (static_cast<uint64_t>(ours.st_size) < offset_) {
    ++stats_.truncations;
    spdlog::info("{}: truncated (copytruncate rotation); reading again from the start", path_);
    StartGeneration(0);
    return ReadState::kRotated;
  }
  return ReadState::kIdle;
}

Result<Source::ReadState> TailSource::Read(std::string* out, Duration /*wait*/) {
  if (fd_ < 0 && !OpenPath(/*from_start=*/false)) return ReadState::kIdle;
  const ssize_t got = ReadSome(out);
  if (got < 0) return Status::IoError("read " + path_, errno);
  if (got > 0) return ReadState::kData;
  return CheckRotation();
}

std::optional<FilePosition> TailSource::PositionAt(uint64_t stream_offset) const {
  for (auto it = generations_.rbegin(); it != generations_.rend(); ++it) {
    if (stream_offset >= it->stream_start) {
      return FilePosition{it->identity, it->file_start + (stream_offset - it->stream_start)};
    }
  }
  return std::nullopt;
}

}  // namespace foreshock
