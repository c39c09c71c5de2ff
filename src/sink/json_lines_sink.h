#pragma once

// JsonLinesSink writes each alert as one line of JSON (the alert schema) to a file
// descriptor it does not own, typically stdout, and makes it visible at once: every alert
// is a single write(2), so `foreshock scan` behind `journalctl -f` shows alerts as they
// happen. A closed reader (EPIPE) is reported as Status kClosed. When stdout is a regular
// file, an alert it already holds is not written again (HeldAlerts).

#include "sink/held_alerts.h"
#include "sink/sink.h"

namespace foreshock {

class JsonLinesSink final : public Sink {
 public:
  explicit JsonLinesSink(int fd) : fd_(fd) {}

  std::string_view name() const override { return "stdout"; }
  Status Emit(const Alert& alert) override;

 private:
  int fd_;
  HeldAlerts held_;
};

}  // namespace foreshock
