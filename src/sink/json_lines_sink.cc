#include "sink/json_lines_sink.h"

#include "base/write_all.h"
#include "sink/alert_json.h"

namespace foreshock {

Status JsonLinesSink::Emit(const Alert& alert) { return WriteAll(fd_, AlertToJsonLine(alert), "stdout"); }

Status JsonLinesSink::EmitUnlessHeld(const Alert& alert) {
  return FileHoldsAlert(fd_, alert) ? Status() : Emit(alert);
}

}  // namespace foreshock
