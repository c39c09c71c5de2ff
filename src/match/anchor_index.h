#pragma once

// AnchorIndex is what the two literal searches (LiteralScanner, LiteralGate) share: each
// literal is "anchored" on a few of its bytes at some offset, whose hash is marked in a table
// (one byte load per text position rules most positions out: a byte per hash, not a bit,
// since picking a bit out of a word takes a shift by a variable count, which costs the hot
// loop more than the table's 64 KiB cost in cache) and goes into a list sorted by hash with
// an index on the hash's top bits; a text position whose bytes hash to a marked entry is
// compared, ignoring ASCII case, with the few literals anchored there. Literals are stored
// lower-cased by the owner and passed to Find(). Immutable after Seal().

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace foreshock {

// ASCII lower case by table: no locale on the hot path.
inline constexpr auto kAsciiLower = [] {
  std::array<uint8_t, 256> lower{};
  for (int i = 0; i < 256; ++i) lower[i] = static_cast<uint8_t>(i >= 'A' && i <= 'Z' ? i - 'A' + 'a' : i);
  return lower;
}();

// `text` in ASCII lower case.
inline std::string AsciiLowered(std::string_view text) {
  std::string lowered(text);
  for (char& c : lowered) c = static_cast<char>(kAsciiLower[static_cast<unsigned char>(c)]);
  return lowered;
}

// How common a byte is in log text, as a guess: spaces, punctuation and digits most (3),
// then the commonest letters (2), other letters (1). Anchors of rare bytes are hit by few
// positions.
int Commonness(unsigned char byte);

class AnchorIndex {
 public:
  // Hashes are `hash_bits` wide; the sorted list is indexed on their top `bucket_bits`.
  AnchorIndex(uint32_t hash_bits, uint32_t bucket_bits);

  void Add(uint32_t hash, uint32_t literal, uint32_t offset);
  // Sorts the anchors and builds the index; call once, after the last Add().
  void Seal();

  // True when some literal is anchored on `hash`.
  bool MayHold(uint32_t hash) const { return held_[hash] != 0; }

  // For each literal anchored on `hash` that occurs in text[0, size) with its anchor at
  // `position`, calls on_found(literal index); stops and returns true as soon as that
  // returns true.
  template <typename OnFound>
  bool Find(const unsigned char* text, size_t size, size_t position, uint32_t hash,
            const std::vector<std::string>& lowered, OnFound&& on_found) const {
    const uint32_t bucket = hash >> (hash_bits_ - bucket_bits_);
    const auto end = anchors_.begin() + bucket_first_[bucket + 1];
    for (auto it = anchors_.begin() + bucket_first_[bucket]; it != end; ++it) {
      if (it->hash != hash || it->offset > position) continue;
      const size_t start = position - it->offset;
      const std::string& literal = lowered[it->literal];
      if (literal.size() > size - start) continue;
      // The last byte first: ordinary text often holds a literal's first words ("cluster
      // state ") and rarely its end.
      if (kAsciiLower[text[start + literal.size() - 1]] != static_cast<unsigned char>(literal.back())) continue;
      size_t k = 0;
      while (k < literal.size() && kAsciiLower[text[start + k]] == static_cast<unsigned char>(literal[k])) ++k;
      if (k == literal.size() && on_found(it->literal)) return true;
    }
    return false;
  }

 private:
  struct Anchor {
    uint32_t hash;
    uint32_t literal;
    uint32_t offset;  // of the anchored bytes in the literal
    bool operator<(const Anchor& other) const { return hash < other.hash; }
  };
  uint32_t hash_bits_;
  uint32_t bucket_bits_;
  std::vector<uint8_t> held_;           // by hash: 1 when some literal is anchored on it
  std::vector<Anchor> anchors_;         // sorted by hash once sealed
  std::vector<uint32_t> bucket_first_;  // top bucket_bits_ of a hash -> first anchor index
};

}  // namespace foreshock
