#include "sink/fan_out_sink.h"

#include <spdlog/spdlog.h>

namespace foreshock {

Status FanOutSink::Emit(const Alert& alert) { return EmitToEach(alert, false); }

Status FanOutSink::EmitUnlessHeld(const Alert& alert) { return EmitToEach(alert, true); }

Status FanOutSink::EmitToEach(const Alert& alert, bool unless_held) {
  Status first;
  for (auto it = outputs_.begin(); it != outputs_.end();) {
    Status status = unless_held ? (*it)->EmitUnlessHeld(alert) : (*it)->Emit(alert);
    if (status.code() == Status::Code::kClosed && outputs_.size() > 1) {
      spdlog::warn("{}: {}; the other outputs go on", (*it)->name(), status.message());
      it = outputs_.erase(it);
      continue;
    }
    if (!status.ok() && first.ok()) first = status;
    ++it;
  }
  return first;
}

}  // namespace foreshock
