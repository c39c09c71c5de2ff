#include "decode/quote_index.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

namespace foreshock {
namespace {

class QuoteIndexTest : public testing::TestWithParam<QuoteIndex::Vectors> {};

// Whether the walk reads `text`: no control byte and nothing of 0x80 and over, and every
// backslash begins one of the escapes \n, \t and \r (byte by byte, as the index must say).
bool WalkReads(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x80) return false;
    if (c != '\\') continue;
    if (i + 1 == text.size() || std::string_view("ntr").find(text[i + 1]) == std::string_view::npos) return false;
    ++i;
  }
  return true;
}

// Random lines over a small alphabet heavy in quotes, of every length around the 16-, 32-
// and 64-byte steps of the index: the quotes found and the refusal equal a byte-by-byte look.
TEST_P(QuoteIndexTest, FindsEveryQuoteAndRefusesWhatTheWalkCannotRead) {
  std::mt19937 random(7);
  const std::string plain = "\"\"\"ab{}:, 0";
  // Whitespace escapes are read; other escapes, a lone backslash, raw control bytes and
  // bytes of 0x80 and over are not.
  const std::string inserted[] = {"\\n", "\\t", "\\r", "\\", "\\\"", "\\\\",
                                  "\\u0041", "\t", "\n", std::string(1, '\0'), "\x7f\x80", "\xc3\xa9"};
  QuoteIndex index(GetParam());
  size_t read_with_escapes = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string text;
    const size_t size = random() % 200;
    for (size_t i = 0; i < size; ++i) text += plain[random() % plain.size()];
    for (int spoil = round % 3 == 0 ? 1 + static_cast<int>(random() % 3) : 0; spoil > 0 && !text.empty(); --spoil) {
      text.insert(random() % text.size(), inserted[random() % std::size(inserted)]);
    }
    const bool expect_ok = WalkReads(text);
    EXPECT_EQ(index.Build(text), expect_ok) << text;
    if (!expect_ok) continue;
    EXPECT_EQ(index.escapes(), text.find('\\') != std::string::npos) << text;
    if (text.find('\\') != std::string::npos) ++read_with_escapes;
    for (size_t at = 0; at <= text.size() + 1; ++at) {
      const size_t want = at < text.size() ? text.find('"', at) : std::string::npos;
      const size_t got = index.NextQuote(at);
      ASSERT_EQ(got, want == std::string::npos ? QuoteIndex::kNone : want) << "at " << at << " in " << text;
    }
  }
  EXPECT_GT(read_with_escapes, 200u) << "lines with whitespace escapes were tried";
  // 0x7f (DEL) is ASCII and passes, as the walk always let it.
  EXPECT_TRUE(index.Build("{\"a\":\"\x7f\"}"));
  EXPECT_TRUE(index.Build("{\"a\":\"x\\n\\tat y\"}"));
  EXPECT_FALSE(index.Build("{\"a\":\"x\\\\n\"}")) << "an escaped backslash, then n";
  EXPECT_FALSE(index.Build("{\"a\":\"x\\\"}\"}")) << "an escaped quote";
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

INSTANTIATE_TEST_SUITE_P(Vectors, QuoteIndexTest,
                         testing::Values(QuoteIndex::Vectors::kWidest, QuoteIndex::Vectors::kSse2));

}  // namespace
}  // namespace foreshock
