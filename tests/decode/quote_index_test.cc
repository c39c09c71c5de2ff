#include "decode/quote_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace foreshock {
namespace {

class QuoteIndexTest : public testing::TestWithParam<QuoteIndex::Vectors> {};

// What the walk reads of `text`, byte by byte as the index must say: whether it reads it at
// all (no control byte, nothing of 0x80 and over, every backslash begins a JSON escape, a
// \uXXXX only a control character's), the kinds of escape, and the quotes that are no
// escaped quote's.
struct Walked {
  bool reads = true;
  uint8_t escapes = 0;
  std::vector<size_t> quotes;
};

const Walked kUnread{false, 0, {}};

Walked Walk(const std::string& text) {
  Walked walked;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x80) return kUnread;
    if (c == '"') walked.quotes.push_back(i);
    if (c != '\\') continue;
    if (i + 1 == text.size()) return kUnread;
    const char kind = text[++i];
    if (kind == 'n' || kind == 't' || kind == 'r') {
      walked.escapes |= kEscapedWhitespace;
    } else if (kind == '"') {
      walked.escapes |= kEscapedQuote;
    } else if (kind == '\\') {
      walked.escapes |= kEscapedBackslash;
    } else if (kind == '/') {
      walked.escapes |= kEscapedSlash;
    } else if (kind == 'b' || kind == 'f') {
      walked.escapes |= kEscapedControl;
    } else if (kind == 'u') {
      if (i + 4 >= text.size()) return kUnread;
      const std::string hex = text.substr(i + 1, 4);
      if (hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return kUnread;
      if (std::stoi(hex, nullptr, 16) >= 0x20) return kUnread;
      walked.escapes |= kEscapedControl;
      i += 4;
    } else {
      return kUnread;
    }
  }
  return walked;
}

// Random lines over a small alphabet heavy in quotes, of every length around the 16-, 32-
// and 64-byte steps of the index: the quotes found, the escapes and the refusal equal a
// byte-by-byte look.
TEST_P(QuoteIndexTest, FindsEveryQuoteAndRefusesWhatTheWalkCannotRead) {
  std::mt19937 random(7);
  const std::string plain = "\"\"\"ab{}:, 0";
  // JSON's escapes are read (\u only for control characters); a lone backslash, other
  // escapes, raw control bytes and bytes of 0x80 and over are not.
  const std::string inserted[] = {"\\n", "\\t", "\\r", "\\", "\\\"", "\\\\", "\\/", "\\b", "\\u001f",
                                  "\\u001", "\\u0041", "\\x", "\t", "\n", std::string(1, '\0'), "\x7f\x80", "\xc3\xa9"};
  QuoteIndex index(GetParam());
  size_t read_with_escapes = 0;
  size_t escaped_quotes = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string text;
    const size_t size = random() % 200;
    for (size_t i = 0; i < size; ++i) text += plain[random() % plain.size()];
    for (int spoil = round % 3 == 0 ? 1 + static_cast<int>(random() % 3) : 0; spoil > 0 && !text.empty(); --spoil) {
      text.insert(random() % text.size(), inserted[random() % std::size(inserted)]);
    }
    const Walked want = Walk(text);
    EXPECT_EQ(index.Build(text), want.reads) << text;
    if (!want.reads) continue;
    EXPECT_EQ(index.escapes(), want.escapes) << text;
    if (want.escapes != 0) ++read_with_escapes;
    if ((want.escapes & kEscapedQuote) != 0) ++escaped_quotes;
    for (size_t at = 0; at <= text.size() + 1; ++at) {
      const auto next = std::lower_bound(want.quotes.begin(), want.quotes.end(), at);
      const size_t got = index.NextQuote(at);
      ASSERT_EQ(got, next == want.quotes.end() ? QuoteIndex::kNone : *next) << "at " << at << " in " << text;
    }
  }
  EXPECT_GT(read_with_escapes, 200u) << "lines with escapes were tried";
  EXPECT_GT(escaped_quotes, 50u) << "lines with escaped quotes were tried";
  // 0x7f (DEL) is ASCII and passes, as the walk always let it.
  EXPECT_TRUE(index.Build("{\"a\":\"\x7f\"}"));
  EXPECT_TRUE(index.Build("{\"a\":\"x\\n\\tat y\"}"));
  EXPECT_EQ(index.escapes(), kEscapedWhitespace);
  ASSERT_TRUE(index.Build("{\"a\":\"x\\\\n\"}")) << "an escaped backslash, then n";
  EXPECT_EQ(index.escapes(), kEscapedBackslash);
  EXPECT_EQ(index.NextQuote(6), 10u) << "the quote after the escaped backslash closes the string";
  // An ILM step as ES 8 writes it: the message string ends at its own quote, not an escaped one.
  const std::string step = R"({"message":"moving index [.ds-logs-1] from [{\"phase\":\"warm\"}] to [{}]", "x":"y"})";
  ASSERT_TRUE(index.Build(step));
  EXPECT_EQ(index.escapes(), kEscapedQuote);
  EXPECT_EQ(index.NextQuote(12), step.find("\", \"x\""));
  EXPECT_FALSE(index.Build("{\"a\":\"\\u00e9\"}")) << "a letter, which a literal may hold";
}

// A long line after a short one: nothing of the short one's index is left over.
TEST_P(QuoteIndexTest, ReusedForLongerAndShorterLines) {
  QuoteIndex index(GetParam());
  const std::string long_line = std::string(300, 'x') + "\"";
  ASSERT_TRUE(index.Build(long_line));
  EXPECT_EQ(index.NextQuote(0), 300u);
  ASSERT_TRUE(index.Build("ab\"c"));
  EXPECT_EQ(index.NextQuote(3), QuoteIndex::kNone);
  ASSERT_TRUE(index.Build(std::string(300, 'y')));
  EXPECT_EQ(index.NextQuote(0), QuoteIndex::kNone);
}

// ClosingQuote() finds, without an index, the quote a string ends at, unless a byte the
// walk refuses comes first: on random texts, at every offset, what a byte-by-byte look says.
// Half the texts are long with rare quotes and refused bytes, so whole 16- and 32-byte
// blocks are passed over.
TEST(QuoteIndexClosingQuoteTest, FindsTheNextQuoteUnlessARefusedByteComesFirst) {
  std::mt19937 random(3);
  const std::string dense = std::string("ab \"\\\t\x01\x7f\x80\xe9") + std::string(12, 'x');
  const std::string sparse = std::string("\"\\\t\x80") + std::string(200, 'x');
  size_t found = 0;
  size_t refused = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::string& alphabet = round % 2 == 0 ? dense : sparse;
    std::string text;
    const size_t size = random() % (round % 2 == 0 ? 60 : 200);
    for (size_t i = 0; i < size; ++i) text += alphabet[random() % alphabet.size()];
    for (size_t at = 0; at <= text.size(); ++at) {
      size_t want = QuoteIndex::kNone;
      for (size_t i = at; i < text.size(); ++i) {
        if (text[i] == '"') {
          want = i;
          break;
        }
        if (QuoteIndex::Refuses(static_cast<unsigned char>(text[i]))) break;
      }
      ASSERT_EQ(QuoteIndex::ClosingQuote(text, at), want) << "at " << at << " in " << text;
      (want == QuoteIndex::kNone ? refused : found) += 1;
    }
  }
  EXPECT_GT(found, 5000u);
  EXPECT_GT(refused, 5000u);
  EXPECT_TRUE(QuoteIndex::Refuses('\\') && QuoteIndex::Refuses('\t') && QuoteIndex::Refuses(0x80));
  EXPECT_FALSE(QuoteIndex::Refuses('"') || QuoteIndex::Refuses(0x7f) || QuoteIndex::Refuses(' '));
}

// With escapes read, ClosingQuote() ends where Build() of the text from `at` would put the
// first quote, having read the same escapes on the way; when it finds none, no such string
// is there: every text from `at` up to a quote is one Build() refuses or reads an escaped
// quote in. Random texts dense in escapes, at every offset.
TEST(QuoteIndexClosingQuoteTest, ReadsTheEscapesBuildReadsOnTheWay) {
  std::mt19937 random(5);
  const std::string pieces[] = {"a", "b", " ", "\"", "\\\"", "\\\\", "\\n", "\\/", "\\u0007", "\\u00e9",
                                "\\x", "\\", "\t", "\x80", std::string(20, 'x')};
  size_t found = 0;
  size_t none = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const size_t count = random() % 12;
    for (size_t i = 0; i < count; ++i) text += pieces[random() % std::size(pieces)];
    for (size_t at = 0; at <= text.size(); ++at) {
      uint8_t escapes = 0;
      const size_t closing = QuoteIndex::ClosingQuote(text, at, &escapes);
      QuoteIndex index;
      if (closing != QuoteIndex::kNone) {
        ++found;
        const std::string_view string(text.data() + at, closing + 1 - at);
        ASSERT_TRUE(index.Build(string)) << "at " << at << " in " << text;
        EXPECT_EQ(index.NextQuote(0), closing - at) << "at " << at << " in " << text;
        EXPECT_EQ(index.escapes(), escapes) << "at " << at << " in " << text;
        continue;
      }
      ++none;
      for (size_t end = at; end < text.size(); ++end) {
        if (text[end] != '"') continue;
        const std::string_view string(text.data() + at, end + 1 - at);
        EXPECT_TRUE(!index.Build(string) || index.NextQuote(0) != end - at) << "at " << at << " in " << text;
      }
    }
  }
  EXPECT_GT(found, 5000u);
  EXPECT_GT(none, 5000u);
}

INSTANTIATE_TEST_SUITE_P(Vectors, QuoteIndexTest,
                         testing::Values(QuoteIndex::Vectors::kWidest, QuoteIndex::Vectors::kSse2));

}  // namespace
}  // namespace foreshock
