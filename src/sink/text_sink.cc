#include "sink/text_sink.h"

#include <unistd.h>

#include <cstdio>

#include "base/terminal_text.h"
#include "base/write_all.h"

namespace foreshock {
namespace {

constexpr size_t kShownEvidenceChars = 200;

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

std::string FormatAlertText(const Alert& alert, bool colour, bool verbose) {
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
  // The rest of the group: which pool, which index.
  std::string group;
  for (const auto& [field, value] : alert.group) {
    if (field == "node" || field == "cluster") continue;
    group += group.empty() ? " {" : ", ";
    group += EscapeForTerminal(field);
    group += '=';
    group += EscapeForTerminal(value);
  }
  if (!group.empty()) line += group + "}";
  line += ' ';
  line += EscapeForTerminal(alert.message);
  if (alert.lead_time) {
    line += " (lead time ";
    line += FormatLeadTime(ToSeconds(*alert.lead_time));
    line += ')';
  }
  line.push_back('\n');
  if (!verbose || alert.action == Alert::Action::kResolved) return line;
  for (const Evidence& evidence : alert.evidence) {
    std::string message = evidence.message.substr(0, evidence.message.find('\n'));
    if (message.size() > kShownEvidenceChars) message = message.substr(0, kShownEvidenceChars) + "...";
    line += "    evidence ";
    line += FormatTimestamp(evidence.time);
    line += ' ';
    line += EscapeForTerminal(evidence.source);
    line += " [";
    line += evidence.pattern;
    line += "] ";
    line += EscapeForTerminal(message);
    line += '\n';
  }
  size_t at = 0;
  for (const char* label = "    runbook  "; at < alert.runbook.size(); label = "             ") {
    const size_t end = std::min(alert.runbook.find('\n', at), alert.runbook.size());
    line += label;
    line += EscapeForTerminal(alert.runbook.substr(at, end - at));
    line += '\n';
    at = end + 1;
  }
  return line;
}

TextSink::TextSink(int fd, bool verbose) : fd_(fd), colour_(::isatty(fd) == 1), verbose_(verbose) {}

Status TextSink::Emit(const Alert& alert) { return WriteAll(fd_, FormatAlertText(alert, colour_, verbose_), "stdout"); }

}  // namespace foreshock
