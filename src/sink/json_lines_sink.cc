#include "sink/json_lines_sink.h"

#include "base/write_all.h"
#include "sink/alert_json.h"

namespace foreshock {

Status JsonLinesSink::Emit(const Alert& alert) {
  if (held_.HoldsOrNote(fd_, alert)) return Status();
  return WriteAll(fd_, AlertToJsonLine(alert), "stdout");
}

}  // namespace foreshock
