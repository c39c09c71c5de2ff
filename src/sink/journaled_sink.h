#pragma once

// JournaledSink makes a restart of `watch` repeat no alert. After its inner sink delivered
// an alert, it appends the alert's key (fingerprint, action, stage, event time) to a journal
// file in the state directory. A restart re-reads the lines after the last checkpoint and so
// produces those alerts again: their keys are in the journal, and they are not delivered
// twice. After each checkpoint the journal is emptied (the saved state already knows those
// alerts). Only a crash between the delivery and the journal write (one write(2)) can still
// repeat an alert; none can be lost.

#include <memory>
#include <string>
#include <unordered_set>

#include "sink/sink.h"

namespace foreshock {

class JournaledSink final : public Sink {
 public:
  JournaledSink(std::string journal_path, std::unique_ptr<Sink> inner);
  ~JournaledSink() override;

  std::string_view name() const override { return inner_->name(); }
  Status Emit(const Alert& alert) override;

  // The state was checkpointed: forget what this run sent (the state knows it). Entries of a
  // previous run stay until the replay regenerates them.
  void Truncate();
  uint64_t suppressed() const { return suppressed_; }

 private:
  std::string journal_path_;
  std::unique_ptr<Sink> inner_;
  int fd_ = -1;
  std::unordered_set<std::string> replay_;  // sent before a restart, not regenerated yet
  std::unordered_set<std::string> sent_;    // sent by this run since the last checkpoint
  uint64_t suppressed_ = 0;
};

}  // namespace foreshock
