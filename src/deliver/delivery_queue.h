#pragma once

// DeliveryQueue is the Sink in front of one Destination. Emit() only appends the alert to
// the destination's Spool (durable under --state-dir) and returns, so a slow or dead
// receiver never holds up reading logs or the other outputs. A worker thread delivers the
// spooled alerts one at a time, in order; a failure is retried after an exponential backoff
// with jitter (the order is kept), a permanent refusal (HTTP 4xx) is set aside in
// `rejected.jsonl` next to the spool and logged, never silently dropped. While idle it lets
// the destination refresh what the receiver must be reminded of (Alertmanager).

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>

#include "base/report_limiter.h"
#include "deliver/destination.h"
#include "deliver/spool.h"
#include "sink/sink.h"

namespace foreshock {

struct RetryPolicy {
  Duration first = std::chrono::milliseconds(250);
  Duration longest = std::chrono::seconds(30);
};

struct DeliveryStats {
  uint64_t delivered = 0;
  uint64_t retries = 0;   // failed attempts, each followed by a wait and another try
  uint64_t rejected = 0;  // refused for good, set aside
  uint64_t dropped = 0;   // lost to the spool's size bound
  size_t depth = 0;       // alerts waiting
  size_t spool_bytes = 0;
  size_t unspooled = 0;     // held in memory only: the spool could not be written
  std::string spool_error;  // why, while unspooled > 0
  // Wall-clock time since which the destination has been failing; zero when it is fine.
  std::chrono::system_clock::time_point failing_since{};
  std::string last_error;
  std::string last_refusal;  // why the receiver last refused an alert for good
};

class DeliveryQueue final : public Sink {
 public:
  // `rejected_path`: where refused alerts go (empty: only logged).
  DeliveryQueue(std::unique_ptr<Destination> destination, std::unique_ptr<Spool> spool, RetryPolicy retry,
                std::string rejected_path);
  // Stops the worker; what was not delivered stays in the spool.
  ~DeliveryQueue() override;

  std::string_view name() const override { return destination_->name(); }
  Status Emit(const Alert& alert) override;
  // An alert a killed run may have spooled already: not spooled again when the spool held
  // it at start-up (then it is delivered, or on its way, from there).
  Status EmitUnlessHeld(const Alert& alert) override;

  // Waits until every spooled alert is delivered or `at_most` passed; returns how many are
  // left.
  size_t Drain(Duration at_most);
  // Writes to the spool what could not be written before; returns how many alerts are
  // still held in memory only (0: every alert is durable, or there is no --state-dir).
  size_t Sync();
  size_t unspooled() const { return spool_->unwritten(); }
  DeliveryStats stats() const;
  bool durable() const { return spool_->durable(); }

 private:
  void Work();
  // Waits for `how_long` or until stopped (or, when `wake_on_push`, a new alert arrives);
  // false when stopped.
  bool Sleep(Duration how_long, bool wake_on_push);
  void NoteFailure(const std::string& why);
  void NoteSuccess();
  void SetAside(const Spool::Entry& entry, const std::string& why);

  std::unique_ptr<Destination> destination_;
  std::unique_ptr<Spool> spool_;
  RetryPolicy retry_;
  std::string rejected_path_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool pushed_ = false;
  DeliveryStats stats_;  // guarded by mutex_ (depth and spool bytes come from the spool)
  ReportLimiter spool_reports_{3, std::chrono::seconds(30)};            // guarded by mutex_
  ReportLimiter delivery_record_reports_{3, std::chrono::seconds(30)};  // the worker's
  // AlertIdentity() of each alert the spool held at start-up, from a previous run. Set
  // before the worker starts popping them.
  const std::unordered_set<std::string> held_at_start_;
  std::thread worker_;
};

}  // namespace foreshock
