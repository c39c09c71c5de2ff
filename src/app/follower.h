#pragma once

// Follower finds and follows the log files of `foreshock watch`: every path or glob is
// expanded again from time to time (and at once when inotify reports a file created or moved
// in), so files created later, even in a folder that does not exist yet, are picked up;
// rolled archives (*.gz, *.zst) never grow and are not followed (replay reads them). A path
// or glob that matches nothing yet, or only archives, is said once on stderr, and again
// each time that changes. Each file is a TailSource
// (rotation-proof) with its own RecordReader; inotify wakes the follower when a file changes,
// and where inotify does not work (NFS, some overlays) it polls every poll_interval.
// Not thread-safe.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/pipeline.h"
#include "app/record_reader.h"
#include "input/tail_source.h"
#include "metrics/snapshot.h"

namespace foreshock::app {

struct FollowerOptions {
  std::vector<std::string> patterns;  // paths or globs
  TailSource::StartAt start = TailSource::StartAt::kEnd;
  bool use_inotify = true;
  Duration poll_interval = std::chrono::milliseconds(250);
  Duration rescan_interval = std::chrono::seconds(2);
  RecordReaderOptions reader;
};

class Follower {
 public:
  // `resume`: saved positions by path (from the state directory).
  Follower(FollowerOptions options, std::map<std::string, FilePosition> resume);
  ~Follower();
  Follower(const Follower&) = delete;
  Follower& operator=(const Follower&) = delete;

  // Picks up new files when due, then hands the records available in every file to
  // `pipeline`, for at most about 50 ms (the caller checkpoints between calls). *got_data is
  // set when anything was read. A step that read every file to its end tells the pipeline
  // so (Pipeline::NoteReadRound), with whether one ends part way through a line.
  Status Step(Pipeline* pipeline, bool* got_data);
  // Sleeps until a followed file or folder changes, or `at_most` passes.
  void Wait(Duration at_most);

  // A reloaded catalog's matcher becomes every reader's prefilter (see RecordReaderOptions).
  void SetPrefilter(const Matcher* matcher);
  // Where each file stands: the position up to which its records were all processed.
  std::map<std::string, FilePosition> Positions() const;
  size_t file_count() const { return files_.size(); }
  TailStats tail_stats() const;
  // Records passed over in quiet runs (Pipeline::PassQuietRun), over every file.
  uint64_t records_passed_over() const;
  // Adds each file's input counters, the files followed and the rotation counters.
  void AddCounters(TelemetrySnapshot* snapshot) const;

 private:
  struct File {
    TailSource* source = nullptr;  // owned by reader
    std::unique_ptr<RecordReader> reader;
    // The unfinished record the file ends with (RecordReader::unfinished_record_line()),
    // and since when it has been seen so (its writer is writing it).
    uint64_t unfinished_line = 0;
    std::chrono::steady_clock::time_point unfinished_since{};
  };

  // Whether a file ends with a record not yet ended, first seen so less than
  // kMaxWaitForRecordEnd ago.
  bool RecordBeingWritten();

  // What a path or glob matched when last expanded, said on stderr when it changes.
  enum class Matched { kLogs, kNothing, kOnlyArchives };

  void Discover();
  void SayWhatMatched(const std::string& pattern, const std::vector<std::string>& paths);
  void AddWatch(const std::string& path);

  FollowerOptions options_;
  std::map<std::string, FilePosition> resume_;
  std::map<std::string, File> files_;
  std::map<std::string, FilePosition> carried_;  // resume entries for files not opened yet
  std::set<std::string> not_regular_;            // matched, not followed, reported once
  std::map<std::string, Matched> matched_;       // by path or glob
  int inotify_fd_ = -1;
  std::map<std::string, int> watches_;
  std::chrono::steady_clock::time_point next_rescan_{};
  bool rescan_now_ = true;
};

}  // namespace foreshock::app
