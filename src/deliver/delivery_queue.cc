#include "deliver/delivery_queue.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <random>

#include "base/write_all.h"
#include "sink/alert_json.h"

namespace foreshock {

namespace {

std::unordered_set<std::string> IdentitiesOf(const Spool& spool) {
  std::unordered_set<std::string> identities;
  for (const std::string& payload : spool.Payloads()) {
    identities.insert(AlertIdentity(nlohmann::json::parse(payload, nullptr, false)));
  }
  return identities;
}

}  // namespace

DeliveryQueue::DeliveryQueue(std::unique_ptr<Destination> destination, std::unique_ptr<Spool> spool,
                             RetryPolicy retry, std::string rejected_path)
    : destination_(std::move(destination)),
      spool_(std::move(spool)),
      retry_(retry),
      rejected_path_(std::move(rejected_path)),
      held_at_start_(IdentitiesOf(*spool_)),
      worker_([this] { Work(); }) {}

DeliveryQueue::~DeliveryQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

Status DeliveryQueue::EmitUnlessHeld(const Alert& alert) {
  if (held_at_start_.contains(AlertIdentity(alert))) return Status();
  return Emit(alert);
}

Status DeliveryQueue::Emit(const Alert& alert) {
  std::string line = AlertToJsonLine(alert);
  line.pop_back();
  const bool critical = alert.severity == Severity::kCritical && alert.action != Alert::Action::kResolved;
  Status status = spool_->Push(std::move(line), critical);
  {
    std::lock_guard lock(mutex_);
    pushed_ = true;
  }
  wake_.notify_all();
  // A spool that cannot be written must not stop the other outputs: the alert is held in
  // memory (and delivered when the receiver answers), and the caller holds back its
  // checkpoints and reading until Sync() writes it.
  if (!status.ok()) {
    std::lock_guard lock(mutex_);
    stats_.spool_error = status.message();
    std::string more;
    if (spool_reports_.Allow(&more)) {
      spdlog::error("{}: cannot spool an alert: {}; it is held in memory and reading waits until it can be "
                    "written{}",
                    name(), status.message(), more);
    }
  }
  return Status();
}

size_t DeliveryQueue::Sync() {
  if (spool_->unwritten() == 0) return 0;
  Status status = spool_->Sync();
  std::lock_guard lock(mutex_);
  if (status.ok()) {
    spdlog::info("{}: the spool is written again; reading goes on", name());
    stats_.spool_error.clear();
    return 0;
  }
  stats_.spool_error = status.message();
  std::string more;
  if (spool_reports_.Allow(&more)) {
    spdlog::error("{}: still cannot write the spool: {}; reading waits{}", name(), status.message(), more);
  }
  return spool_->unwritten();
}

size_t DeliveryQueue::Drain(Duration at_most) {
  const auto deadline = std::chrono::steady_clock::now() + at_most;
  while (spool_->depth() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return spool_->depth();
}

DeliveryStats DeliveryQueue::stats() const {
  std::lock_guard lock(mutex_);
  DeliveryStats out = stats_;
  out.depth = spool_->depth();
  out.spool_bytes = spool_->bytes();
  out.dropped = spool_->dropped();
  out.unspooled = spool_->unwritten();
  if (out.unspooled == 0) out.spool_error.clear();
  return out;
}

bool DeliveryQueue::Sleep(Duration how_long, bool wake_on_push) {
  std::unique_lock lock(mutex_);
  wake_.wait_for(lock, how_long, [&] { return stopping_ || (wake_on_push && pushed_); });
  pushed_ = false;
  return !stopping_;
}

void DeliveryQueue::NoteFailure(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (stats_.failing_since == std::chrono::system_clock::time_point{}) {
    stats_.failing_since = std::chrono::system_clock::now();
    spdlog::warn("{}: delivery failing, will retry: {}", name(), why);
  }
  ++stats_.retries;
  stats_.last_error = why;
}

void DeliveryQueue::NoteSuccess() {
  std::lock_guard lock(mutex_);
  if (stats_.failing_since != std::chrono::system_clock::time_point{}) {
    spdlog::info("{}: delivering again after {} failed attempts", name(), stats_.retries);
  }
  stats_.failing_since = {};
  stats_.last_error.clear();
}

void DeliveryQueue::SetAside(const Spool::Entry& entry, const std::string& why) {
  spdlog::error("{}: the receiver refused an alert for good ({}); it is kept in {}", name(), why,
                rejected_path_.empty() ? "this log only: " + entry.payload : rejected_path_);
  if (!rejected_path_.empty()) {
    const int fd = ::open(rejected_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (fd >= 0) {
      (void)WriteAll(fd, entry.payload + "\n", rejected_path_);
      ::close(fd);
    }
  }
  std::lock_guard lock(mutex_);
  ++stats_.rejected;
  stats_.last_refusal = why;
}

void DeliveryQueue::Work() {
  std::mt19937_64 random(std::random_device{}());
  Duration backoff = retry_.first;
  const Duration refresh = destination_->refresh_interval();
  auto next_refresh = std::chrono::steady_clock::now() + refresh;
  // With jitter: somewhere between half and all of the current backoff.
  auto wait_after_failure = [&](const std::string& why) {
    NoteFailure(why);
    std::uniform_int_distribution<int64_t> jitter(backoff.count() / 2, backoff.count());
    const Duration wait(jitter(random));
    backoff = std::min(retry_.longest, backoff * 2);
    return Sleep(wait, /*wake_on_push=*/false);
  };
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    Spool::Entry entry;
    if (spool_->Front(&entry)) {
      const nlohmann::json alert = nlohmann::json::parse(entry.payload, nullptr, false);
      const SendResult result = alert.is_discarded() ? SendResult::Reject("not JSON") : destination_->Send(alert);
      if (result.status.ok() || result.failure == Failure::kReject) {
        if (!result.status.ok()) SetAside(entry, result.status.message());
        if (result.status.ok()) {
          std::lock_guard lock(mutex_);
          ++stats_.delivered;
        }
        if (Status popped = spool_->PopFront(entry.id); !popped.ok()) {
          std::string more;
          if (delivery_record_reports_.Allow(&more)) {
            spdlog::error("{}: cannot record a delivery in the spool: {}; after a restart it may be sent again{}",
                          name(), popped.message(), more);
          }
        }
        NoteSuccess();
        backoff = retry_.first;
        continue;
      }
      if (!wait_after_failure(result.status.message())) return;
      continue;
    }
    if (refresh > Duration(0) && std::chrono::steady_clock::now() >= next_refresh) {
      const SendResult result = destination_->Refresh();
      if (!result.status.ok()) {
        if (!wait_after_failure(result.status.message())) return;
        continue;  // next_refresh stays due: retried after the backoff
      }
      NoteSuccess();
      backoff = retry_.first;
      next_refresh = std::chrono::steady_clock::now() + refresh;
    }
    const Duration idle = refresh > Duration(0)
                              ? std::chrono::duration_cast<Duration>(next_refresh - std::chrono::steady_clock::now())
                              : Duration(std::chrono::seconds(3600));
    if (!Sleep(std::max(idle, Duration(std::chrono::milliseconds(1))), /*wake_on_push=*/true)) return;
  }
}

}  // namespace foreshock
