#include "deliver/spool.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/write_all.h"

namespace foreshock {
namespace {

constexpr uint64_t kCompactAfter = 1 << 20;  // delivered bytes before queue.jsonl is rewritten

std::string LineOf(const Spool::Entry& entry) {
  return std::string(entry.critical ? "! " : ". ") + entry.payload + "\n";
}

}  // namespace

Result<std::unique_ptr<Spool>> Spool::Open(const std::string& folder, size_t max_bytes) {
  std::unique_ptr<Spool> spool(new Spool(folder, max_bytes));
  if (!folder.empty()) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) return Status::IoError("create " + folder + ": " + error.message());
    FORESHOCK_RETURN_IF_ERROR(spool->Load());
  }
  return spool;
}

Spool::~Spool() {
  if (fd_ >= 0) ::close(fd_);
}

Status Spool::Load() {
  const std::string queue = folder_ + "/queue.jsonl";
  {
    std::ifstream in(folder_ + "/delivered");
    in >> delivered_;
  }
  std::string content;
  {
    std::ifstream in(queue, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    content = all.str();
  }
  if (delivered_ > content.size()) delivered_ = content.size();
  size_t at = delivered_;
  while (at < content.size()) {
    const size_t end = content.find('\n', at);
    if (end == std::string::npos) break;  // cut by a crash mid-append: never acknowledged
    if (end - at >= 2) {
      Entry entry;
      entry.id = next_id_++;
      entry.critical = content[at] == '!';
      entry.payload = content.substr(at + 2, end - at - 2);
      entry.file_bytes = end + 1 - at;
      bytes_ += entry.payload.size();
      entries_.push_back(std::move(entry));
    }
    at = end + 1;
  }
  if (!entries_.empty()) {
    spdlog::info("{}: {} undelivered alerts from the previous run", folder_, entries_.size());
  }
  // Start from a clean file holding exactly the pending entries.
  return Rewrite();
}

Status Spool::Rewrite() {
  std::string content;
  for (const Entry& entry : entries_) content += LineOf(entry);
  const std::string queue = folder_ + "/queue.jsonl";
  // `delivered` first: a crash between the two then re-sends the old file's entries, where
  // the other order would skip the new file's.
  if (delivered_ > 0) FORESHOCK_RETURN_IF_ERROR(WriteFileDurably(folder_ + "/delivered", "0\n"));
  FORESHOCK_RETURN_IF_ERROR(WriteFileDurably(queue, content));
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(queue.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) return Status::IoError("open " + queue, errno);
  file_size_ = content.size();
  delivered_ = 0;
  unwritten_ = 0;
  rewrite_pending_ = false;
  return SaveDelivered();
}

Status Spool::SaveDelivered() { return WriteFileDurably(folder_ + "/delivered", std::to_string(delivered_) + "\n"); }

bool Spool::MakeRoom(size_t incoming, bool incoming_critical) {
  auto drop = [&](std::deque<Entry>::iterator it) {
    ++dropped_;
    spdlog::error("{}: spool full ({} bytes): dropped the oldest {} alert: {}", folder_.empty() ? "memory" : folder_,
                  max_bytes_, it->critical ? "critical" : "non-critical", it->payload.substr(0, 200));
    bytes_ -= it->payload.size();
    return entries_.erase(it);
  };
  for (auto it = entries_.begin(); bytes_ + incoming > max_bytes_ && it != entries_.end();) {
    it = it->critical ? std::next(it) : drop(it);
  }
  if (bytes_ + incoming <= max_bytes_) return true;
  if (!incoming_critical) return false;
  while (bytes_ + incoming > max_bytes_ && !entries_.empty()) drop(entries_.begin());
  return true;
}

Status Spool::Push(std::string payload, bool critical) {
  std::lock_guard lock(mutex_);
  const size_t before = entries_.size();
  if (!MakeRoom(payload.size(), critical)) {
    ++dropped_;
    spdlog::error("spool full ({} bytes) of critical alerts: dropped the new alert: {}", max_bytes_,
                  payload.substr(0, 200));
    return Status();
  }
  Entry entry{next_id_++, std::move(payload), critical, 0};
  entry.file_bytes = entry.payload.size() + 3;
  bytes_ += entry.payload.size();
  entries_.push_back(std::move(entry));
  if (folder_.empty()) return Status();
  if (entries_.size() != before + 1) rewrite_pending_ = true;  // something was dropped
  ++unwritten_;
  return SyncLocked();
}

Status Spool::Sync() {
  std::lock_guard lock(mutex_);
  return SyncLocked();
}

Status Spool::SyncLocked() {
  if (rewrite_pending_) return Rewrite();
  if (unwritten_ == 0) return Status();
  std::string lines;
  for (auto it = entries_.end() - static_cast<std::ptrdiff_t>(unwritten_); it != entries_.end(); ++it) {
    lines += LineOf(*it);
  }
  const std::string queue = folder_ + "/queue.jsonl";
  Status status = WriteAll(fd_, lines, queue);
  if (status.ok() && ::fdatasync(fd_) != 0) status = Status::IoError("fdatasync " + queue, errno);
  if (!status.ok()) {
    // A line cut short by the full disk must not have the next append glued to it.
    if (::ftruncate(fd_, static_cast<off_t>(file_size_)) != 0) rewrite_pending_ = true;
    return status;
  }
  file_size_ += lines.size();
  unwritten_ = 0;
  return Status();
}

size_t Spool::unwritten() const {
  std::lock_guard lock(mutex_);
  return rewrite_pending_ ? entries_.size() : unwritten_;
}

bool Spool::Front(Entry* entry) const {
  std::lock_guard lock(mutex_);
  if (entries_.empty()) return false;
  *entry = entries_.front();
  return true;
}

Status Spool::PopFront(uint64_t id) {
  std::lock_guard lock(mutex_);
  if (entries_.empty() || entries_.front().id != id) return Status();
  // An entry delivered before it could be written never reached queue.jsonl; and while a
  // rewrite is pending, the rewrite leaves out what was delivered.
  const bool in_file = entries_.size() > unwritten_ && !rewrite_pending_;
  if (!in_file && unwritten_ == entries_.size()) --unwritten_;
  bytes_ -= entries_.front().payload.size();
  const uint64_t file_bytes = entries_.front().file_bytes;
  entries_.pop_front();
  if (folder_.empty() || !in_file) return Status();
  delivered_ += file_bytes;
  if (delivered_ >= kCompactAfter && delivered_ * 2 >= file_size_) return Rewrite();
  return SaveDelivered();
}

std::vector<std::string> Spool::Payloads() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> payloads;
  for (const Entry& entry : entries_) payloads.push_back(entry.payload);
  return payloads;
}

size_t Spool::depth() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

size_t Spool::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

uint64_t Spool::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace foreshock
