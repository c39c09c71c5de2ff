#include "base/command_words.h"

namespace foreshock {

Result<std::vector<std::string>> CommandWords(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i == line.size()) return Status::InvalidArgument("a backslash ends the command; escape it as \\\\");
      word.push_back(line[i]);
    } else if (c == '\'') {
      const size_t close = line.find('\'', i + 1);
      if (close == std::string_view::npos) {
        return Status::InvalidArgument("the ' at character " + std::to_string(i + 1) + " is never closed");
      }
      word.append(line.substr(i + 1, close - i - 1));
      i = close;
    } else if (c == '"') {
      const size_t open = i;
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word.push_back(line[i]);
      }
      if (i == line.size()) {
        return Status::InvalidArgument("the \" at character " + std::to_string(open + 1) + " is never closed");
      }
    } else {
      word.push_back(c);
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace foreshock
