#pragma once

// Random texts over a small alphabet ("abAB c": upper and lower case, a space) where short
// literals overlap, recur and share prefixes, and a case-insensitive reference search to
// check the literal scanners against.

#include <random>
#include <string>

namespace foreshock::testing {

inline std::string RandomText(std::mt19937& random, size_t length) {
  static const std::string kAlphabet = "abAB c";
  std::string text;
  for (size_t i = 0; i < length; ++i) text.push_back(kAlphabet[random() % kAlphabet.size()]);
  return text;
}

inline bool ContainsIgnoringCase(std::string text, std::string literal) {
  for (std::string* s : {&text, &literal}) {
    for (char& c : *s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return text.find(literal) != std::string::npos;
}

}  // namespace foreshock::testing
