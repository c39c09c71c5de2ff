#include "learn/shape_piece.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace foreshock {
namespace {

TEST(ShapePieceTest, PiecesEndAtSeparatorsBackslashesLineBreaksAndTheMarkByte) {
  const std::string enders = std::string(" \t[](){},;\"'=<>|\\\n\r") + kShapeMarkByte;
  for (int c = 0; c < 256; ++c) {
    const char byte = static_cast<char>(c);
    EXPECT_EQ(EndsPiece(byte), enders.find(byte) != std::string::npos) << c;
  }
}

// Against the definition, byte by byte: on texts of every byte, at every length and place
// (sixteen-byte blocks, their ends, short texts), both functions find the piece that holds
// a byte, and whether it holds a digit and an 'E'.
TEST(ShapePieceTest, PiecesAreFoundAsTheirDefinitionSaysAnywhereInAnyText) {
  std::mt19937 random(3);
  const std::string common = "aE0.9:/- ,[]{}\\\x01";
  for (int round = 0; round < 20000; ++round) {
    std::string text(random() % 70, ' ');
    for (char& c : text) c = random() % 3 == 0 ? static_cast<char>(random() % 256) : common[random() % common.size()];
    for (size_t at = 0; at < text.size(); ++at) {
      if (EndsPiece(text[at])) continue;
      size_t begin = at;
      while (begin > 0 && !EndsPiece(text[begin - 1])) --begin;
      size_t end = at;
      while (end < text.size() && !EndsPiece(text[end])) ++end;
      const std::string piece = text.substr(begin, end - begin);
      const bool digit = piece.find_first_of("0123456789") != std::string::npos;
      const bool capital_e = piece.find('E') != std::string::npos;
      const Piece around = PieceAround(text, at);
      EXPECT_EQ(around.begin, begin);
      EXPECT_EQ(around.end, end);
      EXPECT_EQ(around.digit, digit);
      EXPECT_EQ(around.capital_e, capital_e);
      if (at == begin) {
        const Piece from = PieceFrom(text, begin);
        ASSERT_EQ(from.end, end) << round << " at " << at;
        EXPECT_EQ(from.digit, digit);
        EXPECT_EQ(from.capital_e, capital_e);
      }
    }
  }
}

}  // namespace
}  // namespace foreshock
