// Nothing from a log line may reach a terminal as a control sequence or a bidi override.

#include "base/terminal_text.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(TerminalTextTest, ControlCharactersAreShownEscaped) {
  EXPECT_EQ(EscapeForTerminal("a\x1b]0;pwned\x07z"), "a\\x1b]0;pwned\\x07z");
  EXPECT_EQ(EscapeForTerminal("tab\there\r\n"), "tab\\x09here\\x0d\\x0a");
  EXPECT_EQ(EscapeForTerminal("c1 \xc2\x9b" "31m"), "c1 \\x9b31m");
  EXPECT_EQ(EscapeForTerminal("del\x7f"), "del\\x7f");
}

TEST(TerminalTextTest, BidiControlsAreShownEscapedSoTextReadsInTheOrderItIs) {
  EXPECT_EQ(EscapeForTerminal("node-\xe2\x80\xae" "1gol"), "node-\\u202e1gol");  // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(EscapeForTerminal("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");  // isolates
  EXPECT_EQ(EscapeForTerminal("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"), "\\u200e\\u200f\\u061c");
}

TEST(TerminalTextTest, PrintableUtf8AndCutSequencesAreKeptByteForByte) {
  EXPECT_EQ(EscapeForTerminal("caf\xc3\xa9 \xe2\x86\x92 ok \xe2\x80\x94"), "caf\xc3\xa9 \xe2\x86\x92 ok \xe2\x80\x94");
  EXPECT_EQ(EscapeForTerminal("cut \xe2\x80"), "cut \xe2\x80");
  EXPECT_EQ(EscapeForTerminal("cut \xe2"), "cut \xe2");
}

}  // namespace
}  // namespace foreshock
