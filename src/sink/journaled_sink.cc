#include "sink/journaled_sink.h"

#include "base/result.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <fstream>

namespace foreshock {
namespace {

std::string KeyOf(const Alert& alert) {
  return alert.fingerprint + " " + std::string(ActionName(alert.action)) + " " + std::to_string(alert.stage) +
         " " + std::to_string(alert.time.time_since_epoch().count());
}

}  // namespace

JournaledSink::JournaledSink(std::string journal_path, std::unique_ptr<Sink> inner)
    : journal_path_(std::move(journal_path)), inner_(std::move(inner)) {
  std::ifstream in(journal_path_);
  for (std::string line; std::getline(in, line);) replay_.insert(line);
  fd_ = ::open(journal_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd_ < 0) spdlog::error("cannot open {}: restarts may repeat alerts", journal_path_);
}

JournaledSink::~JournaledSink() {
  if (fd_ >= 0) ::close(fd_);
}

Status JournaledSink::Emit(const Alert& alert) {
  const std::string key = KeyOf(alert);
  if (replay_.erase(key) > 0 || sent_.contains(key)) {
    ++suppressed_;  // delivered before a restart
    return Status();
  }
  // Everything is prepared before the delivery so that only the journal's write(2) follows
  // it: a SIGKILL can repeat an alert only if it lands between those two system calls.
  const std::string line = key + "\n";
  FORESHOCK_RETURN_IF_ERROR(inner_->Emit(alert));
  const bool journaled = fd_ >= 0 && ::write(fd_, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  if (fd_ >= 0 && !journaled) spdlog::warn("cannot write {}: a restart may repeat this alert", journal_path_);
  sent_.insert(key);
  return Status();
}

void JournaledSink::Truncate() {
  if (sent_.empty()) return;
  sent_.clear();
  if (fd_ < 0) return;
  if (::ftruncate(fd_, 0) != 0) spdlog::warn("cannot truncate {}", journal_path_);
  for (const std::string& key : replay_) {
    const std::string line = key + "\n";
    if (::write(fd_, line.data(), line.size()) < 0) break;
  }
}

}  // namespace foreshock
