#pragma once

// Text from logs (messages, node names, file names) can carry bytes a terminal obeys: ESC
// sequences that retitle the window, clear the screen or fake a prompt, and Unicode bidi
// controls that reorder what is shown (U+202E makes "gpj.exe" read "exe.jpg"). Whatever
// foreshock prints for people, on stdout or stderr, passes through EscapeForTerminal first.

#include <string>
#include <string_view>

namespace foreshock {

// Control characters (C0, DEL, C1) become "\x1b"-style escapes, and bidi controls (U+061C,
// U+200E/F, U+202A..E, U+2066..9) "\u202e"-style ones; all other text is kept byte for byte.
std::string EscapeForTerminal(std::string_view text);

// How many bytes of `text` at `i` encode a character EscapeForTerminal escapes (0: none),
// with its code point in *code.
size_t TerminalHazardAt(std::string_view text, size_t i, unsigned* code);

}  // namespace foreshock
