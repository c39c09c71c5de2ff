#pragma once

// A Sink delivers alerts somewhere: JSON lines on stdout or in a file, and (later) HTTP
// receivers. Emit() is called from one thread at a time and must not throw. To support a
// new destination, implement this interface.

#include <string_view>

#include "base/status.h"
#include "correlate/alert.h"

namespace foreshock {

class Sink {
 public:
  virtual ~Sink() = default;
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  virtual std::string_view name() const = 0;
  // Delivers one alert. A Status with code kClosed means the destination is gone for good
  // (a closed pipe): the caller stops quietly.
  virtual Status Emit(const Alert& alert) = 0;
  // Delivers an alert that a run killed in the middle of delivering it may have delivered
  // already. Outputs that can read back what they hold (JSON lines in a regular file) deliver
  // it only if it is not there; the others deliver it again: a repeat, never a loss.
  virtual Status EmitUnlessHeld(const Alert& alert) { return Emit(alert); }

 protected:
  Sink() = default;
};

}  // namespace foreshock
