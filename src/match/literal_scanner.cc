#include "match/literal_scanner.h"

#include <algorithm>

#include <cctype>
#include <queue>

namespace foreshock {

LiteralScanner::LiteralScanner(const std::vector<std::string>& literals)
    : literal_count_(literals.size()) {
  // Byte classes: one per distinct (lower-cased) byte used by the literals.
  for (const std::string& literal : literals) {
    for (char c : literal) {
      const auto folded = static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(c)));
      if (byte_class_[folded] == 0) byte_class_[folded] = static_cast<uint8_t>(class_count_++);
    }
  }
  for (int upper = 'A'; upper <= 'Z'; ++upper) byte_class_[upper] = byte_class_[upper - 'A' + 'a'];

  // The trie, with -1 for missing edges.
  std::vector<std::vector<int>> edges(1, std::vector<int>(class_count_, -1));
  outputs_.assign(1, {});
  for (size_t i = 0; i < literals.size(); ++i) {
    int state = 0;
    for (char c : literals[i]) {
      const uint8_t cls = byte_class_[static_cast<unsigned char>(c)];
      if (edges[static_cast<size_t>(state)][cls] < 0) {
        edges[static_cast<size_t>(state)][cls] = static_cast<int>(edges.size());
        edges.emplace_back(class_count_, -1);
        outputs_.emplace_back();
      }
      state = edges[static_cast<size_t>(state)][cls];
    }
    outputs_[static_cast<size_t>(state)].push_back(static_cast<int>(i));
  }

  // Breadth-first: failure links, then complete transitions and outputs through them.
  std::vector<int> failure(edges.size(), 0);
  transitions_.assign(edges.size() * class_count_, 0);
  std::queue<int> pending;
  for (size_t cls = 0; cls < class_count_; ++cls) {
    const int child = edges[0][cls];
    transitions_[cls] = child < 0 ? 0 : child;
    if (child > 0) pending.push(child);
  }
  while (!pending.empty()) {
    const int state = pending.front();
    pending.pop();
    const auto fail = static_cast<size_t>(failure[static_cast<size_t>(state)]);
    auto& out = outputs_[static_cast<size_t>(state)];
    out.insert(out.end(), outputs_[fail].begin(), outputs_[fail].end());
    for (size_t cls = 0; cls < class_count_; ++cls) {
      const int child = edges[static_cast<size_t>(state)][cls];
      const size_t slot = static_cast<size_t>(state) * class_count_ + cls;
      if (child < 0) {
        transitions_[slot] = transitions_[fail * class_count_ + cls];
      } else {
        transitions_[slot] = child;
        failure[static_cast<size_t>(child)] = transitions_[fail * class_count_ + cls];
        pending.push(child);
      }
    }
  }
  // Every literal's first three (folded) bytes, hashed into a bitmap: a text in which no
  // three consecutive bytes hit it holds no literal, and most texts are ruled out that way
  // with independent loads instead of the automaton's dependent ones.
  trigrams_.assign(kTrigramBits / 64, 0);
  for (const std::string& literal : literals) {
    if (literal.size() < 3) {
      trigrams_.clear();  // too short to rule texts out this way
      break;
    }
    const uint32_t hash = TrigramHash(Fold(literal[0]), Fold(literal[1]), Fold(literal[2]));
    trigrams_[hash / 64] |= uint64_t{1} << (hash % 64);
  }
  // The scanning table: each entry is the next state's row offset, shifted left once, with
  // the low bit set when that state ends a literal; no multiply or output lookup per byte.
  table_.resize(transitions_.size());
  for (size_t slot = 0; slot < transitions_.size(); ++slot) {
    const auto next = static_cast<uint32_t>(transitions_[slot]);
    table_[slot] = (next * static_cast<uint32_t>(class_count_)) << 1 | (outputs_[next].empty() ? 0u : 1u);
  }
}

bool LiteralScanner::MayHold(std::string_view text) const {
  if (trigrams_.empty()) return true;
  if (text.size() < 3) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  uint32_t a = Fold(bytes[0]);
  uint32_t b = Fold(bytes[1]);
  for (size_t i = 2; i < text.size(); ++i) {
    const uint32_t c = Fold(bytes[i]);
    const uint32_t hash = TrigramHash(a, b, c);
    if ((trigrams_[hash / 64] >> (hash % 64)) & 1) return true;
    a = b;
    b = c;
  }
  return false;
}

void LiteralScanner::Scan(std::string_view text, std::vector<int>* found) const {
  if (!MayHold(text)) return;
  const size_t first_new = found->size();
  uint32_t row = 0;
  for (char c : text) {
    const uint32_t entry = table_[row + byte_class_[static_cast<unsigned char>(c)]];
    row = entry >> 1;
    if ((entry & 1) == 0) continue;
    for (int literal : outputs_[row / class_count_]) {
      // Each literal once: the list found in one text is short.
      if (std::find(found->begin() + static_cast<std::ptrdiff_t>(first_new), found->end(), literal) == found->end()) {
        found->push_back(literal);
      }
    }
  }
}

}  // namespace foreshock
