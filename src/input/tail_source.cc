#include "input/tail_source.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <cstring>
#include <tuple>

namespace foreshock {
namespace {

constexpr size_t kMaxGenerations = 8;

// Only regular files are followed: a FIFO would block the open (so it is opened without
// blocking) and a device (/dev/zero behind a symlink) would never end. Anything else reads as
// absent, as a file not created yet.
int OpenReadOnly(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fd;
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  return fd;
}

std::string BaseName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::pair<uint64_t, uint64_t> IdOf(const struct stat& info) { return {info.st_dev, info.st_ino}; }

bool Earlier(const struct timespec& a, const struct timespec& b) {
  return a.tv_sec != b.tv_sec ? a.tv_sec < b.tv_sec : a.tv_nsec < b.tv_nsec;
}

// Now on the clock the kernel stamps file times with (coarser than CLOCK_REALTIME, and
// behind it by up to a tick): a file written after this call is never stamped earlier.
int64_t FileClockMicros() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000 + now.tv_nsec / 1000;
}

struct timespec TimespecOf(int64_t micros) {
  return timespec{static_cast<time_t>(micros / 1000000), static_cast<long>(micros % 1000000 * 1000)};
}

// The first bytes of the file at `path`, up to FileIdentity::kHeadBytes; empty if unreadable.
std::string HeadOf(const std::string& path) {
  const int fd = OpenReadOnly(path);
  if (fd < 0) return {};
  std::string head = FileIdentity::HeadOf(fd);
  ::close(fd);
  return head;
}

}  // namespace

TailSource::TailSource(std::string path, StartAt start, std::optional<FilePosition> resume)
    : path_(std::move(path)), start_(start), resume_(std::move(resume)) {
  if (resume_) finished_ = resume_->finished;
}

void TailSource::FinishCurrent() {
  struct stat info {};
  if (::fstat(fd_, &info) == 0) {
    spdlog::debug("{}: inode {} read to its end at offset {}", path_, info.st_ino, offset_);
    finished_.emplace_back(info.st_dev, info.st_ino);
    if (finished_.size() > 16) finished_.erase(finished_.begin());
  }
  ::close(fd_);
  fd_ = -1;
}

std::vector<std::string> TailSource::Siblings() const {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code error;
  fs::path folder = fs::path(path_).parent_path();
  if (folder.empty()) folder = ".";
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().string();
    if (!entry.is_regular_file(error) || name.ends_with(".gz") || name.ends_with(".zst")) continue;
    if (!fs::equivalent(entry.path(), path_, error)) out.push_back(name);
  }
  return out;
}

TailSource::~TailSource() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

// The line ends in bytes [0, end) of the open file `fd`: the line number where reading starts
// part way into a file (--from end, a copy read from an offset) when it is not known.
uint64_t CountLineEnds(int fd, uint64_t end) {
  uint64_t count = 0;
  std::string buffer(1 << 20, '\0');
  for (uint64_t at = 0; at < end;) {
    const ssize_t got = ::pread(fd, buffer.data(), std::min<uint64_t>(buffer.size(), end - at), static_cast<off_t>(at));
    if (got <= 0) break;
    count += static_cast<uint64_t>(std::count(buffer.data(), buffer.data() + got, '\n'));
    at += static_cast<uint64_t>(got);
  }
  return count;
}

}  // namespace

const std::string* TailSource::Intern(const std::string& path) { return &*names_.insert(path).first; }

void TailSource::StartGeneration(uint64_t file_offset, std::optional<uint64_t> lines_before,
                                 const std::string& name) {
  ++stats_.generations;
  const int64_t opened_at = FileClockMicros();  // before the head is read
  offset_ = file_offset;
  // Listed before the head is read: a copy made after that read must not be among them.
  if (file_offset == 0 && !draining_previous_) NotePathStartsOver();
  Generation generation;
  generation.identity = FileIdentity::Of(fd_).value_or(FileIdentity{});
  generation.stream_start = stream_;
  generation.file_start = file_offset;
  generation.opened_at = opened_at;
  generation.name = Intern(name.empty() ? path_ : name);
  generation.stream_first_line = stream_newlines_ + 1;
  generation.lines_before = lines_before ? *lines_before : file_offset == 0 ? 0 : CountLineEnds(fd_, file_offset);
  generations_.push_back(generation);
  spdlog::debug("{}: reading inode {} from offset {}", path_, generation.identity.inode, file_offset);
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
  std::optional<uint64_t> lines;  // before `offset`, when known
  if (resume_) {
    if (resume_->identity.head_bytes == 0 && resume_->offset == 0 && resume_->opened_at > 0) {
      // Saved before we saw a byte of it: every line it got was written since it was opened.
      // If it was copytruncated or renamed while we were down, they are in the rotated files
      // written since (its copies, itself, the files after it); read those first.
      NotePathStartsOver();
      QueueWrittenSince(TimespecOf(resume_->opened_at), std::nullopt);
      resume_.reset();
      if (!queued_.empty()) {
        ::close(fd_);
        fd_ = -1;
        if (OpenQueued()) return true;
        return OpenPath(/*from_start=*/true);
      }
    } else if (resume_->identity.Matches(fd_)) {
      offset = resume_->offset;  // the same file: go on where we stopped
      lines = resume_->lines;
    } else {
      NotePathStartsOver();
      // Rotated while we were stopped: finish the old file first, if it is still there.
      for (const std::string& candidate : Siblings()) {
        const int old = OpenReadOnly(candidate);
        if (old < 0) continue;
        if (resume_->identity.Matches(old)) {
          spdlog::info("{}: rotated while stopped; finishing {} first", path_, candidate);
          ::close(fd_);
          fd_ = old;
          draining_previous_ = true;
          QueueMissedGenerations(fd_);
          StartGeneration(resume_->offset, resume_->lines, candidate);
          resume_.reset();
          return true;
        }
        ::close(old);
      }
      // Copytruncate while stopped: the copy starts like the file we were reading, and holds
      // its lines past our offset when it holds more than we read. What was written since we
      // opened the file is in the files rotated since, oldest first (the file itself, refilled
      // and renamed, and those after it; other copies of it hold nothing unread), then at the
      // path.
      if (auto copy = CopyOf(resume_->identity, resume_->offset)) {
        spdlog::info("{}: truncated while stopped; finishing its copy {} first", path_, copy->path);
        queued_.push_back(*copy);
      }
      if (resume_->opened_at > 0) {
        QueueWrittenSince(TimespecOf(resume_->opened_at), std::nullopt, &resume_->identity);
      }
      if (!queued_.empty()) {
        ::close(fd_);
        fd_ = -1;
        resume_.reset();
        if (OpenQueued()) return true;
        return OpenPath(/*from_start=*/true);
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
  StartGeneration(offset, lines);
  return true;
}

void TailSource::QueueMissedGenerations(int previous) {
  struct stat last {};
  if (::fstat(previous, &last) != 0) return;
  QueueWrittenSince(last.st_mtim, std::make_pair(static_cast<uint64_t>(last.st_dev), static_cast<uint64_t>(last.st_ino)));
}

std::vector<TailSource::Sibling> TailSource::RotatedSiblings() const {
  std::vector<Sibling> out;
  const std::string base = BaseName(path_);
  for (const std::string& candidate : Siblings()) {
    struct stat info {};
    if (BaseName(candidate).rfind(base, 0) != 0 || ::stat(candidate.c_str(), &info) != 0) continue;
    out.push_back({IdOf(info), candidate, info.st_mtim, info.st_ctim});
  }
  return out;
}

void TailSource::QueueWrittenSince(struct timespec since, std::optional<std::pair<uint64_t, uint64_t>> except,
                                   const FileIdentity* read) {
  std::vector<Sibling> later;
  for (Sibling& sibling : RotatedSiblings()) {
    if (sibling.id == except || std::find(finished_.begin(), finished_.end(), sibling.id) != finished_.end()) continue;
    if (std::find_if(queued_.begin(), queued_.end(), [&](const Queued& q) { return q.path == sibling.path; }) !=
        queued_.end()) {
      continue;
    }
    if (Earlier(sibling.written, since) || (read != nullptr && StartsLike(*read, sibling.path))) continue;
    later.push_back(std::move(sibling));
  }
  QueueOldestFirst(std::move(later));
}

bool TailSource::QueueOldestFirst(std::vector<Sibling> files) {
  auto order = [](const Sibling& file) {
    return std::tuple(file.written.tv_sec, file.written.tv_nsec, file.changed.tv_sec, file.changed.tv_nsec);
  };
  std::sort(files.begin(), files.end(), [&](const Sibling& x, const Sibling& y) { return order(x) < order(y); });
  bool any = false;
  const std::string path_head = files.empty() ? std::string() : HeadOf(path_);
  for (const Sibling& file : files) {
    if (PathStillHolds(file, path_head)) {
      spdlog::debug("{}: {} holds nothing the path lacks (a copy being made?); not queued", path_, file.path);
      continue;
    }
    spdlog::debug("{}: queued the rotated file {} (inode {}), from its start", path_, file.path, file.id.second);
    queued_.push_back({file.path, 0});
    any = true;
  }
  return any;
}

bool TailSource::PathStillHolds(const Sibling& file, std::string_view at_path) const {
  const std::string copy = HeadOf(file.path);
  if (copy.empty()) return true;
  const size_t common = std::min(copy.size(), at_path.size());
  return common > 0 && copy.compare(0, common, at_path, 0, common) == 0;
}

void TailSource::NotePathStartsOver() {
  if (siblings_before_path_start_) return;  // the earliest moment counts
  siblings_before_path_start_.emplace();
  for (const Sibling& sibling : RotatedSiblings()) siblings_before_path_start_->push_back(sibling.id);
}

bool TailSource::QueueCopiesMadeBeforePathStart() {
  struct stat ours {};
  if (::fstat(fd_, &ours) != 0) return false;
  const std::vector<std::pair<uint64_t, uint64_t>> before = std::move(*siblings_before_path_start_);
  siblings_before_path_start_.reset();
  std::vector<Sibling> copies;
  std::optional<Sibling> ours_renamed;  // renamed away since we began it, before our first read
  for (Sibling& sibling : RotatedSiblings()) {  // never the path's own file
    if (sibling.id == IdOf(ours)) {
      ours_renamed = std::move(sibling);
    } else if (std::find(before.begin(), before.end(), sibling.id) == before.end() &&
               std::find(finished_.begin(), finished_.end(), sibling.id) == finished_.end()) {
      copies.push_back(std::move(sibling));
    }
  }
  if (!QueueOldestFirst(std::move(copies))) return false;
  // Read again from its start after them: by its new name, the path holding another file.
  if (ours_renamed) queued_.push_back({ours_renamed->path, 0});
  return true;
}

bool TailSource::StartsLike(const FileIdentity& identity, const std::string& path) {
  const int fd = OpenReadOnly(path);
  if (fd < 0) return false;
  const bool same = identity.SameContent(fd);
  ::close(fd);
  return same;
}

std::optional<TailSource::Queued> TailSource::CopyOf(const FileIdentity& identity, uint64_t offset) const {
  for (const std::string& candidate : Siblings()) {
    const int fd = OpenReadOnly(candidate);
    if (fd < 0) continue;
    struct stat info {};
    const bool copy = identity.SameContent(fd) && ::fstat(fd, &info) == 0 &&
                      static_cast<uint64_t>(info.st_size) > offset;
    ::close(fd);
    if (copy) return Queued{candidate, offset};
  }
  return std::nullopt;
}

bool TailSource::OpenQueued() {
  while (!queued_.empty()) {
    const Queued next = queued_.front();
    queued_.erase(queued_.begin());
    const int fd = OpenReadOnly(next.path);
    if (fd < 0) continue;
    struct stat at_path {};
    struct stat candidate {};
    // The path's own current file comes last, through OpenPath.
    if (::stat(path_.c_str(), &at_path) == 0 && ::fstat(fd, &candidate) == 0 &&
        at_path.st_ino == candidate.st_ino && at_path.st_dev == candidate.st_dev) {
      ::close(fd);
      continue;
    }
    spdlog::info("{}: reading the rotated generation {} first", path_, next.path);
    fd_ = fd;
    draining_previous_ = true;
    StartGeneration(next.from, std::nullopt, next.path);
    return true;
  }
  return false;
}

ssize_t TailSource::ReadSome(std::string* out) {
  const size_t old_size = out->size();
  out->resize(old_size + kReadChunkBytes);
  ssize_t got = 0;
  do {
    got = ::pread(fd_, out->data() + old_size, kReadChunkBytes, static_cast<off_t>(offset_));
  } while (got < 0 && errno == EINTR);
  // Copytruncate followed by a quick refill leaves the file longer than our offset: only its
  // head tells that it was rewritten. Checked after the read (one fstat and a pread of at
  // most 256 bytes per 256 KiB chunk), so that bytes of new content read at the old offset
  // are dropped, never passed on: CheckRotation then finds the copy and reads on from there.
  Generation& current = generations_.back();
  if (got > 0 && !current.identity.Matches(fd_)) got = 0;
  out->resize(old_size + static_cast<size_t>(std::max<ssize_t>(got, 0)));
  if (got > 0) {
    current.identity.Extend(out->data() + old_size, static_cast<size_t>(got), offset_);
    offset_ += static_cast<uint64_t>(got);
    stream_ += static_cast<uint64_t>(got);
    stream_newlines_ += static_cast<uint64_t>(std::count(out->data() + old_size, out->data() + out->size(), '\n'));
  }
  return got;
}

bool TailSource::Rewritten(const struct stat& ours) const {
  return static_cast<uint64_t>(ours.st_size) < offset_ || !generations_.back().identity.Matches(fd_);
}

Source::ReadState TailSource::CheckRotation(std::string* out) {
  if (draining_previous_) {  // this generation is finished: on to the next, or the path's file
    // The path's file may have rotated again while we drained: those generations come first.
    if (queued_.empty()) QueueMissedGenerations(fd_);
    FinishCurrent();
    draining_previous_ = false;
    ++stats_.rotations;
    if (OpenQueued()) return ReadState::kRotated;
    return OpenPath(/*from_start=*/true) ? ReadState::kRotated : ReadState::kIdle;
  }
  struct stat at_path {};
  if (::stat(path_.c_str(), &at_path) != 0) return ReadState::kIdle;  // gone; may come back
  struct stat ours {};
  if (::fstat(fd_, &ours) != 0) return ReadState::kIdle;
  if (at_path.st_ino != ours.st_ino || at_path.st_dev != ours.st_dev) {
    NotePathStartsOver();
    // Renamed or deleted and recreated. The writer may have appended to the old file after
    // our last read and before the rename: finish it first.
    if (ReadSome(out) > 0) return ReadState::kData;
    if (!Rewritten(ours)) {
      // If it rotated again meanwhile, the generations in between come first.
      QueueMissedGenerations(fd_);
      FinishCurrent();
      ++stats_.rotations;
      if (OpenQueued()) return ReadState::kRotated;
      return OpenPath(/*from_start=*/true) ? ReadState::kRotated : ReadState::kIdle;
    }
    // Copytruncated, then renamed, before we looked again: a truncation like the one below.
    // The file itself (renamed) holds what was written after it; read again from its start
    // after the copy, it is among the files written after the copy.
  } else if (!Rewritten(ours)) {
    return ReadState::kIdle;
  }
  NotePathStartsOver();
  ++stats_.truncations;
  spdlog::info("{}: truncated (copytruncate rotation); reading again from the start", path_);
  // Lines appended after our last read and before the copy are only in the copy.
  if (auto copy = CopyOf(generations_.back().identity, offset_)) {
    queued_.push_back(*copy);
    ::close(fd_);  // not finished: read again from its start after the copy
    fd_ = -1;
    if (OpenQueued()) return ReadState::kRotated;
    return OpenPath(/*from_start=*/true) ? ReadState::kRotated : ReadState::kIdle;
  }
  StartGeneration(0);
  return ReadState::kRotated;
}

Result<Source::ReadState> TailSource::Read(std::string* out, Duration /*wait*/) {
  if (fd_ < 0 && !OpenPath(/*from_start=*/false)) return ReadState::kIdle;
  const size_t had = out->size();
  const ssize_t got = ReadSome(out);
  if (got < 0) return Status::IoError("read " + path_, errno);
  // Checked after the read: a copy made later holds the bytes just read as well.
  if (got > 0 && siblings_before_path_start_ && !draining_previous_ && QueueCopiesMadeBeforePathStart()) {
    // The bytes just read may be the refill after the copy: the copies come first, then
    // this file again from its start.
    stream_newlines_ -= static_cast<uint64_t>(std::count(out->data() + had, out->data() + out->size(), '\n'));
    out->resize(had);
    stream_ -= static_cast<uint64_t>(got);
    ++stats_.truncations;
    spdlog::info("{}: rotated again before we read it; reading what was rotated away first", path_);
    const int current = fd_;
    if (OpenQueued()) {
      ::close(current);
    } else {
      generations_.pop_back();  // the copies went away: read this file again from its start
      StartGeneration(0);
    }
    return ReadState::kRotated;
  }
  if (got > 0) return ReadState::kData;
  return CheckRotation(out);
}

std::optional<FilePosition> TailSource::PositionAt(uint64_t stream_offset, uint64_t stream_lines) const {
  if (generations_.empty()) return resume_;  // not opened yet: still where we were told to resume
  for (auto it = generations_.rbegin(); it != generations_.rend(); ++it) {
    if (stream_offset >= it->stream_start) {
      const uint64_t lines_here = stream_lines + 1 >= it->stream_first_line ? stream_lines + 1 - it->stream_first_line : 0;
      return FilePosition{it->identity, it->file_start + (stream_offset - it->stream_start), it->lines_before + lines_here,
                          finished_, it->opened_at};
    }
  }
  return std::nullopt;
}

std::optional<Source::FileLine> TailSource::Locate(uint64_t stream_line) const {
  for (auto it = generations_.rbegin(); it != generations_.rend(); ++it) {
    if (stream_line >= it->stream_first_line || std::next(it) == generations_.rend()) {
      const uint64_t into = stream_line >= it->stream_first_line ? stream_line - it->stream_first_line : 0;
      return FileLine{*it->name, it->lines_before + 1 + into};
    }
  }
  return std::nullopt;
}

}  // namespace foreshock
