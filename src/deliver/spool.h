#pragma once

// Spool is one destination's queue of alerts not yet delivered, oldest first. With a folder
// (under --state-dir) it is durable: Push() appends the entry to `queue.jsonl` and
// fdatasyncs before returning, PopFront() records how far delivery got in `delivered`, so
// pending alerts survive a restart or a crash of foreshock and go out in order afterwards.
// Without a folder it lives in memory. It is bounded by max_bytes: when full, the oldest
// non-critical entries are dropped first, then the oldest critical ones, each drop logged
// as an error and counted. When the folder cannot be written (a full disk), Push() keeps
// the entry in memory, still to be delivered, and says so; Sync() retries the write, and
// unwritten() tells the caller (which holds back its checkpoints and its reading meanwhile)
// how many entries a crash would lose. Thread-safe: the reading thread pushes, the delivery
// worker pops.

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"

namespace foreshock {

class Spool {
 public:
  struct Entry {
    uint64_t id = 0;  // increases with every push; identifies the entry being delivered
    std::string payload;
    bool critical = false;
    uint64_t file_bytes = 0;  // length of its line in queue.jsonl
  };

  // `folder` empty: in memory only. Otherwise created if needed, and what a previous run
  // left undelivered is loaded (a line cut by a crash is discarded).
  static Result<std::unique_ptr<Spool>> Open(const std::string& folder, size_t max_bytes);
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Adds an entry; an error means it is held in memory only (see Sync()).
  Status Push(std::string payload, bool critical);
  // Writes the entries Push() could not; OK when every entry is durable.
  Status Sync();
  // Entries held in memory only, for want of a writable folder.
  size_t unwritten() const;
  // The oldest entry, if any.
  bool Front(Entry* entry) const;
  // Entry `id` was delivered: forgets it (a no-op when it was dropped meanwhile).
  Status PopFront(uint64_t id);

  // The payloads of the entries waiting, oldest first.
  std::vector<std::string> Payloads() const;
  size_t depth() const;
  size_t bytes() const;
  uint64_t dropped() const;
  bool durable() const { return !folder_.empty(); }

 private:
  Spool(std::string folder, size_t max_bytes) : folder_(std::move(folder)), max_bytes_(max_bytes) {}
  Status Load();
  // Drops entries until `incoming` more bytes fit; false when the incoming entry itself
  // must go (it is not critical and only critical ones are left).
  bool MakeRoom(size_t incoming, bool incoming_critical);
  // queue.jsonl becomes exactly the pending entries; `delivered` goes back to 0.
  Status Rewrite();
  Status SyncLocked();
  Status SaveDelivered();

  mutable std::mutex mutex_;
  std::string folder_;
  size_t max_bytes_;
  std::deque<Entry> entries_;
  size_t bytes_ = 0;
  uint64_t next_id_ = 1;
  uint64_t dropped_ = 0;
  int fd_ = -1;            // queue.jsonl, O_APPEND
  uint64_t delivered_ = 0; // bytes at the start of queue.jsonl already delivered
  uint64_t file_size_ = 0;
  size_t unwritten_ = 0;         // the newest entries, not in queue.jsonl yet
  bool rewrite_pending_ = false; // queue.jsonl is to be rewritten (entries were dropped) but could not be
};

}  // namespace foreshock
