#include "sink/text_sink.h"

#include <unistd.h>

#include <cstdio>

#include "base/terminal_text.h"
#include "base/write_all.h"

namespace foreshock {
namespace {

const char* ColourOf(const Alert& alert) {
  if (alert.action == Alert::Action::kResolved) return "\x1b[32m";  // green
  switch (alert.severity) {
    case Severity::kCritical: return "\x1b[1;31m";  // bold red
    case Severity::kWarning: return "\x1b[33m";     // yellow
    case Severity::kInfo: return "\x1b[36m";        // cyan
  }
  return "";
}

}  // namespace

std::string FormatAlertText(const Alert& alert, bool colour) {
  std::string severity(SeverityName(alert.severity));
  for (char& c : severity) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string line = FormatTimestamp(alert.time) + " ";
  if (colour) line += ColourOf(alert);
  char head[64];
  std::snprintf(head, sizeof head, "%-8s %-9s", severity.c_str(), std::string(ActionName(alert.action)).c_str());
  line += head;
  if (colour) line += "\x1b[0m";
  // Appended piece by piece: `" " + string` trips GCC 12's -Wrestrict at -O3 (bug 105329).
  line += ' ';
  line += EscapeForTerminal(alert.rule->id);
  if (!alert.node.empty()) {
    line += " [";
    line += EscapeForTerminal(alert.node);
    if (!alert.observer.empty() && alert.observer != alert.node) {
      line += ", reported by ";  // a line about this node, logged by another (the master)
      line += EscapeForTerminal(alert.observer);
    }
    line += ']';
  }
  line += ' ';
  line += EscapeForTerminal(alert.message);
  if (alert.lead_time) {
    line += " (lead time ";
    line += FormatLeadTime(ToSeconds(*alert.lead_time));
    line += ')';
  }
  line.push_back('\n');
  return line;
}

TextSink::TextSink(int fd) : fd_(fd), colour_(::isatty(fd) == 1) {}

Status TextSink::Emit(const Alert& alert) { return WriteAll(fd_, FormatAlertText(alert, colour_), "stdout"); }

}  // namespace foreshock
