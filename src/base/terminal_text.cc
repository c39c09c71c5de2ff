#include "base/terminal_text.h"

#include <cstdio>

namespace foreshock {
namespace {

// The code point of the bidi control encoded at text[i], or 0.
unsigned BidiControlAt(std::string_view text, size_t i) {
  const auto at = [&](size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
  if (at(0) == 0xD8 && at(1) == 0x9C) return 0x061C;
  if (at(0) != 0xE2) return 0;
  const unsigned code = 0x2000 | ((at(1) & 0x3Fu) << 6) | (at(2) & 0x3Fu);
  if ((at(1) & 0xC0u) != 0x80 || (at(2) & 0xC0u) != 0x80) return 0;
  const bool bidi = code == 0x200E || code == 0x200F || (code >= 0x202A && code <= 0x202E) ||
                    (code >= 0x2066 && code <= 0x2069);
  return bidi ? code : 0;
}

}  // namespace

size_t TerminalHazardAt(std::string_view text, size_t i, unsigned* code) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x20 || byte == 0x7F) {
    *code = byte;
    return 1;
  }
  // C1 controls arrive in UTF-8 as 0xC2 0x80..0x9F.
  if (byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
      static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
    *code = static_cast<unsigned char>(text[i + 1]);
    return 2;
  }
  *code = BidiControlAt(text, i);
  return *code == 0 ? 0 : *code == 0x061C ? 2 : 3;
}

std::string EscapeForTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char escaped[12];
  for (size_t i = 0; i < text.size();) {
    unsigned code = 0;
    const size_t length = TerminalHazardAt(text, i, &code);
    if (length == 0) {
      out.push_back(text[i++]);
      continue;
    }
    std::snprintf(escaped, sizeof escaped, code < 0x100 ? "\\x%02x" : "\\u%04x", code);
    out += escaped;
    i += length;
  }
  return out;
}

}  // namespace foreshock
