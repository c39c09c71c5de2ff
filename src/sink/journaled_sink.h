#pragma once

// JournaledSink makes a restart of `watch` repeat no alert. Around each delivery by its
// inner sink it appends two entries to a journal file in the state directory: the alert's
// key (fingerprint, action, stage, event time) marked as being sent, then the key as sent.
// A restart re-reads the lines after the last checkpoint and so produces those alerts
// again: a sent key suppresses its alert; a key still marked "being sent" (the previous run
// was killed during that delivery) is delivered with EmitUnlessHeld(), so outputs that can
// read back what they hold (JSON lines in regular files) skip it if it got there, and the
// others send it again, never losing it. An alert some output holds in memory only (its
// spool could not be written) stays "being sent" too, for the same treatment. And until
// this run's first checkpoint, every alert not in the journal gets that treatment: the
// previous run may have sent it without journaling it (its journal sat on a full disk).
// After each checkpoint the journal is emptied (the saved state already knows those alerts).

#include <functional>
#include <memory>
#include <string>
#include <unordered_set>

#include "base/report_limiter.h"
#include "sink/sink.h"

namespace foreshock {

class JournaledSink final : public Sink {
 public:
  // `all_durable`: whether every output now holds what it was given durably.
  JournaledSink(std::string journal_path, std::unique_ptr<Sink> inner, std::function<bool()> all_durable);
  ~JournaledSink() override;

  std::string_view name() const override { return inner_->name(); }
  Status Emit(const Alert& alert) override;

  // The state was checkpointed: forget what this run sent (the state knows it). Entries of a
  // previous run stay until the replay regenerates them.
  void Truncate();
  uint64_t suppressed() const { return suppressed_; }

 private:
  void Append(const std::string& entry);

  std::string journal_path_;
  std::unique_ptr<Sink> inner_;
  std::function<bool()> all_durable_;
  int fd_ = -1;
  std::unordered_set<std::string> replay_;     // sent before a restart, not regenerated yet
  std::unordered_set<std::string> uncertain_;  // being sent when the previous run died
  std::unordered_set<std::string> sent_;    // sent by this run since the last checkpoint
  uint64_t suppressed_ = 0;
  bool checkpointed_ = false;
  ReportLimiter write_reports_{3, std::chrono::seconds(30)};  // Truncate() was called: the lines from here on were never read before
};

}  // namespace foreshock
