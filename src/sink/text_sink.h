#pragma once

// TextSink prints one readable line per alert for people at a terminal (`--output
// stdout:text`): time, severity, action, rule, node, the rest of its group (pool, index),
// and message, with the lead time when an outage marker fired it; `verbose` adds the
// evidence lines and the runbook, indented, under a firing or escalation. Colour is used only when the descriptor is a TTY. Text that came
// from log lines never carries control characters to the terminal: they are shown escaped
// (base/terminal_text.h).

#include <string>

#include "sink/sink.h"

namespace foreshock {

// The line TextSink prints, ending in '\n' (with `verbose`, the indented lines after it).
std::string FormatAlertText(const Alert& alert, bool colour, bool verbose = false);

class TextSink final : public Sink {
 public:
  // `fd` is not owned; colour follows isatty(fd).
  TextSink(int fd, bool verbose);

  std::string_view name() const override { return "stdout:text"; }
  Status Emit(const Alert& alert) override;

 private:
  int fd_;
  bool colour_;
  bool verbose_;
};

}  // namespace foreshock
