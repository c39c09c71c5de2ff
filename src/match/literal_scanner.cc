#include "match/literal_scanner.h"

#include <algorithm>
#include <queue>

namespace foreshock {
namespace {

// The offset of the literal's three consecutive bytes that are likely the rarest.
uint32_t RarestTrigram(const std::string& literal) {
  uint32_t best = 0;
  int best_score = 1 << 20;
  for (size_t i = 0; i + 3 <= literal.size(); ++i) {
    const int score = Commonness(static_cast<unsigned char>(literal[i])) +
                      Commonness(static_cast<unsigned char>(literal[i + 1])) +
                      Commonness(static_cast<unsigned char>(literal[i + 2]));
    if (score < best_score) {
      best_score = score;
      best = static_cast<uint32_t>(i);
    }
  }
  return best;
}

}  // namespace

LiteralScanner::LiteralScanner(const std::vector<std::string>& literals)
    : by_trigrams_(std::all_of(literals.begin(), literals.end(),
                               [](const std::string& literal) { return literal.size() >= 3; })),
      literal_count_(literals.size()) {
  // Only one of the two is built: the automaton's tables run to megabytes for a large
  // catalog, and touching them costs start-up time (page faults) the index does not need.
  if (by_trigrams_) {
    BuildTrigramIndex(literals);
  } else {
    BuildAutomaton(literals);
  }
}

void LiteralScanner::BuildTrigramIndex(const std::vector<std::string>& literals) {
  // Each literal's anchor, hashed into the index.
  for (size_t i = 0; i < literals.size(); ++i) {
    const std::string& literal = literals[i];
    const uint32_t offset = RarestTrigram(literal);
    trigrams_.Add(TrigramHash(Fold(literal[offset]), Fold(literal[offset + 1]), Fold(literal[offset + 2])),
                  static_cast<uint32_t>(i), offset);
  }
  trigrams_.Seal();
  for (const std::string& literal : literals) folded_.push_back(AsciiLowered(literal));
}

void LiteralScanner::BuildAutomaton(const std::vector<std::string>& literals) {
  // Byte classes: one per distinct (lower-cased) byte used by the literals.
  for (const std::string& literal : literals) {
    for (char c : literal) {
      const auto folded = kAsciiLower[static_cast<unsigned char>(c)];
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
  std::vector<int> transitions(edges.size() * class_count_, 0);  // state * class_count_ + class -> next
  std::queue<int> pending;
  for (size_t cls = 0; cls < class_count_; ++cls) {
    const int child = edges[0][cls];
    transitions[cls] = child < 0 ? 0 : child;
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
        transitions[slot] = transitions[fail * class_count_ + cls];
      } else {
        transitions[slot] = child;
        failure[static_cast<size_t>(child)] = transitions[fail * class_count_ + cls];
        pending.push(child);
      }
    }
  }
  // The scanning table: each entry is the next state's row offset, shifted left once, with
  // the low bit set when that state ends a literal; no multiply or output lookup per byte.
  table_.resize(transitions.size());
  for (size_t slot = 0; slot < transitions.size(); ++slot) {
    const auto next = static_cast<uint32_t>(transitions[slot]);
    table_[slot] = (next * static_cast<uint32_t>(class_count_)) << 1 | (outputs_[next].empty() ? 0u : 1u);
  }
}

void LiteralScanner::Scan(std::string_view text, std::vector<int>* found) const {
  if (by_trigrams_) {
    ScanByTrigrams(text, found);
  } else {
    ScanByAutomaton(text, found);
  }
}

void LiteralScanner::ScanByTrigrams(std::string_view text, std::vector<int>* found) const {
  if (text.size() < 3) return;
  const size_t first_new = found->size();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  uint32_t a = Fold(bytes[0]);
  uint32_t b = Fold(bytes[1]);
  for (size_t i = 2; i < size; ++i) {
    const uint32_t c = Fold(bytes[i]);
    const uint32_t hash = TrigramHash(a, b, c);
    a = b;
    b = c;
    if (!trigrams_.MayHold(hash)) continue;
    // Some literal is anchored on these three bytes' hash: compare those literals here.
    trigrams_.Find(bytes, size, i - 2, hash, folded_, [&](uint32_t literal) {
      // Each literal once: the list found in one text is short.
      if (std::find(found->begin() + static_cast<std::ptrdiff_t>(first_new), found->end(), static_cast<int>(literal)) ==
          found->end()) {
        found->push_back(static_cast<int>(literal));
      }
      return false;
    });
  }
}

void LiteralScanner::ScanByAutomaton(std::string_view text, std::vector<int>* found) const {
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
