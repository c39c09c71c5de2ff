#pragma once

// TailSource follows one log file by path, for `foreshock watch`: it reads what was
// appended, and survives every way logs are rotated. Rename + create (log4j RollingFile):
// the old file is read to its end, then the new one from its start. Copytruncate: a size
// below our offset means truncation; reading restarts at 0 (counted). Delete + recreate: like
// rename. A path that does not exist yet, or went away, is retried on every read.
// A rotation that happened while foreshock was stopped is caught too: when the saved
// position names another file than the path holds now, the rotated file is looked up by
// inode in the path's folder and finished first. When a file rotated more than once
// before we noticed (while stopped, or faster than we read), the generations in between
// (files of the folder named like the path, written after the file we were reading) are read in the
// order they were written before the current file, and so are files rotated away between
// the moment we knew the path's file was to be read from its start and our first read of it.
// A rotated file that still starts like the path's file is a copy being made (copytruncate
// copies, then truncates): it is left alone, and found complete once the path's file shrinks.
// Each generation (file) it has read is remembered, so PositionAt() turns a byte offset of
// the stream it returned into (file identity, offset) for checkpoints. Read() never blocks.
// Not thread-safe.

#include <sys/stat.h>

#include <ctime>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "input/file_identity.h"
#include "input/source.h"

namespace foreshock {

struct FilePosition {
  FileIdentity identity;
  uint64_t offset = 0;  // bytes of that file fully processed
  std::optional<uint64_t> lines;  // lines before `offset` (unknown in states saved by older builds)
  // Rotated generations already read to their end (device, inode): never read again.
  std::vector<std::pair<uint64_t, uint64_t>> finished;
  // When this file was opened, on the clock the kernel stamps file times with
  // (microseconds since the epoch). A file saved before any of its bytes were seen has no
  // head to recognise it by: the rotated files of the folder written since this moment hold
  // its lines (copies of it, the file itself renamed) and those of the files after it.
  int64_t opened_at = 0;
};

struct TailStats {
  uint64_t rotations = 0;   // moved on to a new file at the path
  uint64_t truncations = 0; // the file shrank below what was read (copytruncate)
  uint64_t lost = 0;        // a rotated file that could not be found to finish
  uint64_t generations = 0; // files (or truncated restarts of one) begun: each is worth saving at once
};

class TailSource final : public Source {
 public:
  enum class StartAt { kBeginning, kEnd };

  // `resume`: where a previous run stopped in this path's file, if known.
  TailSource(std::string path, StartAt start, std::optional<FilePosition> resume);
  ~TailSource() override;

  Result<ReadState> Read(std::string* out, Duration wait) override;
  const std::string& name() const override { return path_; }
  bool live() const override { return true; }

  // The file and offset that byte `stream_offset` of what Read() returned belongs to (a
  // line boundary, `stream_lines` lines into the stream), with the file's lines before it.
  std::optional<FilePosition> PositionAt(uint64_t stream_offset, uint64_t stream_lines) const;
  std::optional<FileLine> Locate(uint64_t stream_line) const override;
  const TailStats& stats() const { return stats_; }

 private:
  struct Queued {
    std::string path;
    uint64_t from = 0;  // a copy is read from where we were in the original
  };
  struct Generation {
    FileIdentity identity;
    uint64_t stream_start = 0;  // stream offset of this file's first byte we returned
    uint64_t file_start = 0;    // the file offset that byte came from
    int64_t opened_at = 0;      // see FilePosition::opened_at
    const std::string* name = nullptr;  // the file's name as we found it (interned in names_)
    uint64_t stream_first_line = 1;     // the stream's number for the line at file_start
    uint64_t lines_before = 0;          // the file's lines before file_start
  };

  bool OpenPath(bool from_start);
  // The other readable, uncompressed files of the path's folder: where rotated files go.
  std::vector<std::string> Siblings() const;
  // Queues the rotated generations written after `previous` (an open fd) and not read yet.
  void QueueMissedGenerations(int previous);
  // Queues the path's rotated files (named like it) written at or after `since`, other than
  // `except` (device, inode), not read yet and (when `read` is given) not starting like that
  // file, whose copies hold nothing unread, oldest first, each from its start.
  void QueueWrittenSince(struct timespec since, std::optional<std::pair<uint64_t, uint64_t>> except,
                         const FileIdentity* read = nullptr);
  // Whether the file at `path` starts with the bytes `identity` has seen of its own file.
  static bool StartsLike(const FileIdentity& identity, const std::string& path);
  // The path's rotated files (named like it): identity, name and when last written.
  struct Sibling {
    std::pair<uint64_t, uint64_t> id;  // device, inode
    std::string path;
    struct timespec written;
    struct timespec changed;  // breaks ties of `written`: a copy before the file renamed after it
  };
  std::vector<Sibling> RotatedSiblings() const;
  // Queues `files`, each from its start, in the order they were last written (then changed:
  // renamed), but not a copy whose lines the path's file still holds; true if any was queued.
  bool QueueOldestFirst(std::vector<Sibling> files);
  // True when `file` holds nothing the path's file lacks: it is empty, or starts with the
  // bytes the path's file starts with now (`at_path`, its HeadOf()), as a copy being made (copytruncate copies, then
  // truncates) or made and not truncated yet does. Taken for finished, a copy half made would
  // lose its other half; the path's file is read instead, and once it is truncated the copy
  // is complete and CopyOf finds it.
  bool PathStillHolds(const Sibling& file, std::string_view at_path) const;
  // Opens the next queued generation, from its start. False when none is left.
  bool OpenQueued();
  // From the moment we know the path's file is to be read from its start (a rotation or
  // truncation noticed, a generation opened at 0) until our first read of it, the writer
  // may fill it and rotate it again (copytruncate, or rename): the rotated files that
  // appear in the folder meanwhile hold its lines. Notes the folder's rotated files at
  // the earliest such moment.
  void NotePathStartsOver();
  // At the first read of the file begun then (not of a rotated file being finished), even
  // if it was renamed since: queues the rotated files that appeared since, oldest first;
  // true if any (the file is then read again from its start after them).
  bool QueueCopiesMadeBeforePathStart();
  // Closes the current file, remembering it as read to its end.
  void FinishCurrent();
  // After a copytruncate: the copy of the file we were reading, if it holds more than we
  // read, to be read from our offset. Empty when there is none.
  std::optional<Queued> CopyOf(const FileIdentity& identity, uint64_t offset) const;
  // `lines_before`: the file's lines before `file_offset`, when known (else counted).
  void StartGeneration(uint64_t file_offset, std::optional<uint64_t> lines_before = std::nullopt,
                       const std::string& name = {});
  // The name `path` interned: its address stays valid while the source lives.
  const std::string* Intern(const std::string& path);
  // Reads what is there; 0 at end of file, -1 on error.
  ssize_t ReadSome(std::string* out);
  // Whether the current file (`ours`: its fstat) shrank below our offset or no longer
  // starts as it did: truncated, and perhaps refilled.
  bool Rewritten(const struct stat& ours) const;
  // At the end of the current file: has it been rotated or truncated? Lines the writer
  // appended between our last read and the rotation are read into *out first.
  ReadState CheckRotation(std::string* out);

  std::string path_;
  StartAt start_;
  std::optional<FilePosition> resume_;
  int fd_ = -1;
  bool draining_previous_ = false;  // reading a rotated-away generation, not the path
  std::vector<Queued> queued_;  // rotated generations still to read, oldest first
  std::vector<std::pair<uint64_t, uint64_t>> finished_;  // generations read to their end
  uint64_t offset_ = 0;             // file offset of the next byte to read
  uint64_t stream_ = 0;             // bytes returned so far
  uint64_t stream_newlines_ = 0;    // line ends among them
  std::set<std::string> names_;     // every file name a generation was read under
  std::vector<Generation> generations_;
  // Until the first read of the path's file from its start: the rotated files that were
  // there when we knew it would start over (see NotePathStartsOver).
  std::optional<std::vector<std::pair<uint64_t, uint64_t>>> siblings_before_path_start_;
  bool warned_missing_ = false;
  TailStats stats_;
};

}  // namespace foreshock
