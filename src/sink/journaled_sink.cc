#include "sink/journaled_sink.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "base/result.h"

namespace foreshock {
namespace {

std::string KeyOf(const Alert& alert) {
  return alert.fingerprint + " " + std::string(ActionName(alert.action)) + " " + std::to_string(alert.stage) +
         " " + std::to_string(alert.time.time_since_epoch().count());
}

}  // namespace

// Journal entries: "KEY" once an alert was delivered, "? KEY" just before delivering it.
constexpr std::string_view kBeingSent = "? ";

JournaledSink::JournaledSink(std::string journal_path, std::unique_ptr<Sink> inner,
                             std::function<bool()> all_durable)
    : journal_path_(std::move(journal_path)), inner_(std::move(inner)), all_durable_(std::move(all_durable)) {
  std::ifstream in(journal_path_);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(kBeingSent)) {
      uncertain_.insert(line.substr(kBeingSent.size()));
    } else {
      uncertain_.erase(line);
      replay_.insert(line);
    }
  }
  fd_ = ::open(journal_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd_ < 0) spdlog::error("cannot open {}: restarts may repeat alerts", journal_path_);
}

JournaledSink::~JournaledSink() {
  if (fd_ >= 0) ::close(fd_);
}

void JournaledSink::Append(const std::string& entry) {
  if (fd_ < 0) return;
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  if (::write(fd_, entry.data(), entry.size()) != static_cast<ssize_t>(entry.size())) {
    const int why = errno;
    // A line cut short (a full disk) must not have the next one glued to it.
    if (before >= 0 && ::ftruncate(fd_, before) != 0) return;
    std::string more;
    if (write_reports_.Allow(&more)) {
      spdlog::warn("cannot write {}: {}; a restart may repeat an alert{}", journal_path_, std::strerror(why), more);
    }
  }
}

Status JournaledSink::Emit(const Alert& alert) {
  const std::string key = KeyOf(alert);
  if (replay_.erase(key) > 0 || sent_.contains(key)) {
    ++suppressed_;  // delivered before a restart
    return Status();
  }
  const bool uncertain = uncertain_.erase(key) > 0;
  if (!uncertain) Append(std::string(kBeingSent) + key + "\n");
  FORESHOCK_RETURN_IF_ERROR(uncertain || !checkpointed_ ? inner_->EmitUnlessHeld(alert) : inner_->Emit(alert));
  if (all_durable_()) Append(key + "\n");
  sent_.insert(key);
  return Status();
}

void JournaledSink::Truncate() {
  checkpointed_ = true;
  if (sent_.empty()) return;
  sent_.clear();
  if (fd_ < 0) return;
  if (::ftruncate(fd_, 0) != 0) spdlog::warn("cannot truncate {}", journal_path_);
  for (const std::string& key : replay_) Append(key + "\n");
  for (const std::string& key : uncertain_) Append(std::string(kBeingSent) + key + "\n");
}

}  // namespace foreshock
