#include "app/follower.h"

#include <glob.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "app/common_options.h"
#include "app/telemetry.h"

namespace foreshock::app {
namespace {

namespace fs = std::filesystem;

constexpr auto kMaxSlice = std::chrono::milliseconds(50);
// How long a record not yet ended holds back hits of the other files: a line part way written
// normally ends within microseconds, a plain record once its next record starts or after
// quiet_flush (1 s); a file left ending mid-line (a writer killed), or a stack trace written
// line by line for long, must not delay alerts for ever.
constexpr auto kMaxWaitForRecordEnd = std::chrono::seconds(2);

bool IsCompressed(const std::string& path) {
  for (const char* ext : {".gz", ".zst", ".bz2", ".xz", ".zip"}) {
    if (path.ends_with(ext)) return true;
  }
  return false;
}

std::vector<std::string> Expand(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t found{};
  if (::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &found) == 0) {
    for (size_t i = 0; i < found.gl_pathc; ++i) out.emplace_back(found.gl_pathv[i]);
  }
  ::globfree(&found);
  return out;
}

// The deepest folder of `pattern` that exists: watched for files (and folders) appearing.
std::string WatchableFolder(const std::string& pattern) {
  fs::path folder = fs::path(pattern).parent_path();
  while (!folder.empty() && folder.string().find_first_of("*?[") != std::string::npos) folder = folder.parent_path();
  std::error_code error;
  while (!folder.empty() && !fs::is_directory(folder, error)) folder = folder.parent_path();
  return folder.empty() ? "." : folder.string();
}

}  // namespace

void Follower::SayWhatMatched(const std::string& pattern, const std::vector<std::string>& paths) {
  Matched matched = Matched::kLogs;
  std::error_code error;
  if (paths.empty()) {
    matched = Matched::kNothing;
  } else if (std::all_of(paths.begin(), paths.end(), [](const std::string& path) { return IsCompressed(path); })) {
    matched = Matched::kOnlyArchives;
  } else if (paths.size() == 1 && paths[0] == pattern && !fs::exists(pattern, error)) {
    matched = Matched::kNothing;
  }
  auto [it, first] = matched_.try_emplace(pattern, matched);
  if (!first && it->second == matched) return;
  it->second = matched;
  if (matched == Matched::kNothing && pattern.find_first_of("*?[") == std::string::npos) {
    spdlog::warn("{} does not exist yet; watching {} for it", pattern, WatchableFolder(pattern));
  } else if (matched == Matched::kNothing) {
    spdlog::warn("{} matches no file yet; watching {} and following each file that appears", pattern,
                 WatchableFolder(pattern));
  } else if (matched == Matched::kOnlyArchives) {
    spdlog::warn("{} matches only compressed archives ({}{}), which watch does not follow: they are rolled logs that "
                 "no longer grow; read them with 'foreshock replay'",
                 pattern, paths.front(), paths.size() > 1 ? ", ..." : "");
  }
}

Follower::Follower(FollowerOptions options, std::map<std::string, FilePosition> resume)
    : options_(std::move(options)), carried_(std::move(resume)) {
  if (options_.use_inotify) {
    inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (inotify_fd_ < 0) spdlog::warn("inotify unavailable; polling every {}", FormatDuration(options_.poll_interval));
  }
}

Follower::~Follower() {
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
}

void Follower::AddWatch(const std::string& path) {
  if (inotify_fd_ < 0 || watches_.contains(path)) return;
  const int wd = ::inotify_add_watch(inotify_fd_, path.c_str(),
                                     IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |
                                         IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB);
  if (wd >= 0) watches_[path] = wd;
}

void Follower::Discover() {
  for (const std::string& pattern : options_.patterns) {
    AddWatch(WatchableFolder(pattern));
    std::vector<std::string> paths = Expand(pattern);
    const bool is_glob = pattern.find_first_of("*?[") != std::string::npos;
    // A plain path that does not exist yet is followed anyway: it will appear.
    if (paths.empty() && !is_glob) paths.push_back(pattern);
    SayWhatMatched(pattern, paths);
    for (const std::string& path : paths) {
      if (files_.contains(path) || IsCompressed(path)) continue;
      std::error_code error;
      const fs::file_status status = fs::status(path, error);  // through symlinks
      if (fs::exists(status) && !fs::is_regular_file(status)) {
        // A FIFO would block a read, a device (/dev/zero) never ends: neither is a log file.
        if (not_regular_.insert(path).second) {
          spdlog::warn("{}: not a regular file (a FIFO, a device, a socket or a folder); not followed", path);
        }
        continue;
      }
      not_regular_.erase(path);
      std::optional<FilePosition> resume;
      if (auto it = carried_.find(path); it != carried_.end()) {
        resume = it->second;
        carried_.erase(it);
      }
      auto source = std::make_unique<TailSource>(path, options_.start, resume);
      TailSource* raw = source.get();
      RecordReaderOptions reader_options = options_.reader;
      if (reader_options.default_node.empty()) reader_options.default_node = NodeOfFile(path);
      if (reader_options.default_cluster.empty()) reader_options.default_cluster = ClusterOfFile(path);
      auto reader = RecordReader::Create(std::move(source), reader_options);
      if (!reader.ok()) continue;  // options were validated before
      files_[path] = File{raw, std::move(reader).value(), 0, {}};
      AddWatch(path);  // the file itself: inotify follows symlinks (Kubernetes log links)
      spdlog::info("following {}", path);
    }
  }
}

Status Follower::Step(Pipeline* pipeline, bool* got_data) {
  const auto now = std::chrono::steady_clock::now();
  if (rescan_now_ || now >= next_rescan_) {
    Discover();
    rescan_now_ = false;
    next_rescan_ = now + options_.rescan_interval;
  }
  // Before any is read: how many files interleave decides whether a hit waits for the others'
  // earlier lines, from the first step on (a backlog's lines arriving while it is read).
  pipeline->SetLiveInputs(static_cast<int>(files_.size()));
  *got_data = false;
  // A long drain (a backlog, rotated generations read after a restart) is cut into slices,
  // so that the caller checkpoints between them: a watcher killed mid-drain resumes where
  // the last slice ended, not where the drain began.
  const auto slice_end = std::chrono::steady_clock::now() + kMaxSlice;
  // What every file has now is merged by event time, as scan merges files: a backlog (a
  // restart, --from beginning) of a node's server log and slow log is read in order, not one
  // file after the other. A file with nothing more now is not waited for.
  struct Head {
    const std::string* path;
    RecordReader* reader;
    LogRecord record;
    bool full = false;
    bool drained = false;
  };
  std::vector<Head> heads;
  heads.reserve(files_.size());
  for (auto& [path, file] : files_) {
    heads.emplace_back();
    heads.back().path = &path;
    heads.back().reader = file.reader.get();
  }
  auto earliest = [&](const Head* except) {
    TimePoint at = TimePoint::max();
    for (const Head& head : heads) {
      if (&head == except || head.drained) continue;
      at = head.full ? std::min(at, head.record.time) : TimePoint::min();
    }
    return at;
  };
  const auto round_began = std::chrono::steady_clock::now();
  bool read_to_end = true;
  while (true) {
    const bool in_time = std::chrono::steady_clock::now() < slice_end;
    Head* next_head = nullptr;
    for (Head& head : heads) {
      if (!head.full && !head.drained && in_time) {
        uint64_t passed = 0;
        FORESHOCK_RETURN_IF_ERROR(pipeline->PassQuietRun(head.reader, earliest(&head), /*live=*/true, &passed));
        *got_data = *got_data || passed > 0;
        auto next = head.reader->Read(&head.record, Duration(0));
        if (!next.ok()) spdlog::warn("{}: {}; will retry", *head.path, next.status().message());
        head.full = next.ok() && *next == RecordReader::Next::kRecord;
        head.drained = !head.full;
      }
      if (head.full && (next_head == nullptr || head.record.time < next_head->record.time)) next_head = &head;
    }
    // Out of time, the records already read still go (each handed-out record is processed
    // before Step returns, so a checkpoint never passes over one).
    if (next_head == nullptr) break;
    *got_data = true;
    next_head->full = false;
    FORESHOCK_RETURN_IF_ERROR(pipeline->Process(next_head->record, /*live=*/true));
    if (!in_time) {
      next_head->drained = true;
      read_to_end = false;
    }
  }
  if (read_to_end) pipeline->NoteReadRound(round_began, RecordBeingWritten());
  return Status();
}

bool Follower::RecordBeingWritten() {
  const auto now = std::chrono::steady_clock::now();
  bool writing = false;
  for (auto& [path, file] : files_) {
    const uint64_t line = file.reader->unfinished_record_line();
    // Timed record by record: a busy plain log always ends with one not yet ended, each
    // ended by the next a moment later.
    if (line != file.unfinished_line) {
      file.unfinished_line = line;
      file.unfinished_since = now;
    }
    writing = writing || (line != 0 && now - file.unfinished_since < kMaxWaitForRecordEnd);
  }
  return writing;
}

void Follower::Wait(Duration at_most) {
  if (inotify_fd_ < 0) {
    std::this_thread::sleep_for(std::min(at_most, options_.poll_interval));
    return;
  }
  pollfd waiting{inotify_fd_, POLLIN, 0};
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(std::min(at_most, options_.poll_interval));
  if (::poll(&waiting, 1, static_cast<int>(timeout.count())) <= 0) return;
  alignas(inotify_event) char buffer[16384];
  ssize_t got = 0;
  while ((got = ::read(inotify_fd_, buffer, sizeof buffer)) > 0) {
    for (char* at = buffer; at < buffer + got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(at);
      if (event->mask & (IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)) rescan_now_ = true;
      at += sizeof(inotify_event) + event->len;
    }
  }
}

std::map<std::string, FilePosition> Follower::Positions() const {
  std::map<std::string, FilePosition> positions = carried_;
  for (const auto& [path, file] : files_) {
    if (auto position = file.source->PositionAt(file.reader->processed_offset(), file.reader->processed_lines())) {
      positions[path] = *position;
    }
  }
  return positions;
}

void Follower::SetPrefilter(const Matcher* matcher) {
  options_.reader.prefilter = matcher;
  for (auto& [path, file] : files_) file.reader->set_prefilter(matcher);
}

void Follower::AddCounters(TelemetrySnapshot* snapshot) const {
  for (const auto& [path, file] : files_) AddInputCounters(path, file.reader->stats(), snapshot);
  const TailStats tails = tail_stats();
  snapshot->files_followed = files_.size();
  snapshot->rotations = tails.rotations;
  snapshot->truncations = tails.truncations;
  snapshot->rotations_lost = tails.lost;
}

uint64_t Follower::records_passed_over() const {
  uint64_t passed = 0;
  for (const auto& [path, file] : files_) passed += file.reader->stats().quiet_run;
  return passed;
}

TailStats Follower::tail_stats() const {
  TailStats total;
  for (const auto& [path, file] : files_) {
    total.rotations += file.source->stats().rotations;
    total.truncations += file.source->stats().truncations;
    total.lost += file.source->stats().lost;
    total.generations += file.source->stats().generations;
  }
  return total;
}

}  // namespace foreshock::app
