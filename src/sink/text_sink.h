#pragma once

// TextSink prints one readable line per alert for people at a terminal (`--output
// stdout:text`): time, severity, action, rule, node and message, with the lead time when an
// outage marker fired it. Colour is used only when the descriptor is a TTY. Text that came
// from log lines never carries control characters to the terminal: they are shown escaped
// (base/terminal_text.h).

#include <string>

#include "sink/sink.h"

namespace foreshock {

// The line TextSink prints, ending in '\n'.
std::string FormatAlertText(const Alert& alert, bool colour);

class TextSink final : public Sink {
 public:
  // `fd` is not owned; colour follows isatty(fd).
  explicit TextSink(int fd);

  std::string_view name() const override { return "stdout:text"; }
  Status Emit(const Alert& alert) override;

 private:
  int fd_;
  bool colour_;
};

}  // namespace foreshock
