#include "sink/text_sink.h"

#include <unistd.h>

#include <cstdio>

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

std::string EscapeForTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    // C1 controls arrive in UTF-8 as 0xC2 0x80..0x9F.
    const bool c1 = byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if (byte < 0x20 || byte == 0x7F || c1) {
      const unsigned value = c1 ? static_cast<unsigned char>(text[++i]) : byte;
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", value);
      out += escaped;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

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
    line += ']';
  }
  line += ' ';
  line += EscapeForTerminal(alert.message);
  if (alert.lead_time) {
    char lead[48];
    std::snprintf(lead, sizeof lead, " (lead time %.0fs)", ToSeconds(*alert.lead_time));
    line += lead;
  }
  line.push_back('\n');
  return line;
}

TextSink::TextSink(int fd) : fd_(fd), colour_(::isatty(fd) == 1) {}

Status TextSink::Emit(const Alert& alert) { return WriteAll(fd_, FormatAlertText(alert, colour_), "stdout"); }

}  // namespace foreshock
