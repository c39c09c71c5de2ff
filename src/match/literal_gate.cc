#include "match/literal_gate.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace foreshock {
namespace {

// Bit 5 set in each byte: upper-case ASCII letters become lower-case (other bytes may merge
// too, which costs a verification, never a miss).
constexpr uint32_t kLooseFold = 0x20202020u;

// ASCII lower case without the locale (the hot path makes no locale-dependent calls).
unsigned char Lower(unsigned char byte) {
  return byte >= 'A' && byte <= 'Z' ? static_cast<unsigned char>(byte - 'A' + 'a') : byte;
}

// How common a byte is in log text, as a guess: spaces, punctuation and digits most, then
// the commonest letters.
int Commonness(unsigned char byte) {
  const int c = std::tolower(byte);
  if (std::isalpha(c) == 0) return 3;
  return std::string_view("etaoinsrlcd").find(static_cast<char>(c)) != std::string_view::npos ? 2 : 1;
}

}  // namespace

uint32_t LiteralGate::KeyAt(const unsigned char* bytes) const {
  uint32_t key = 0;
  if (key_bytes_ == 4) {
    std::memcpy(&key, bytes, 4);
  } else {
    for (size_t i = 0; i < key_bytes_; ++i) key |= uint32_t{bytes[i]} << (8 * i);
  }
  return key | (kLooseFold >> (8 * (4 - key_bytes_)));
}

LiteralGate::LiteralGate(const std::vector<std::string>& literals) {
  size_t shortest = literals.empty() ? 1 : literals.front().size();
  for (const std::string& literal : literals) shortest = std::min(shortest, literal.size());
  key_bytes_ = std::clamp<size_t>(shortest, 1, 4);
  stride_ = shortest - key_bytes_ + 1;
  for (const std::string& literal : literals) {
    std::string folded;
    for (char c : literal) folded.push_back(static_cast<char>(Lower(static_cast<unsigned char>(c))));
    folded_.push_back(std::move(folded));
  }
  // Per literal, one key for each residue of its offsets mod stride: the likely rarest.
  bitmap_.assign((size_t{1} << kBitsLog2) / 64, 0);
  for (size_t index = 0; index < folded_.size(); ++index) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(folded_[index].data());
    const size_t last = folded_[index].size() - key_bytes_;
    for (size_t residue = 0; residue < stride_; ++residue) {
      size_t best = residue;
      int best_score = 1 << 20;
      for (size_t offset = residue; offset <= last; offset += stride_) {
        int score = 0;
        for (size_t k = 0; k < key_bytes_; ++k) score += Commonness(bytes[offset + k]);
        if (score < best_score) {
          best_score = score;
          best = offset;
        }
      }
      const uint32_t hash = Hash(KeyAt(bytes + best));
      bitmap_[hash / 64] |= uint64_t{1} << (hash % 64);
      anchors_.push_back({hash, static_cast<uint32_t>(index), static_cast<uint32_t>(best)});
    }
  }
  std::sort(anchors_.begin(), anchors_.end());
  bucket_first_.assign((size_t{1} << kBucketBits) + 1, 0);
  size_t index = 0;
  for (uint32_t bucket = 0; bucket <= (1u << kBucketBits); ++bucket) {
    while (index < anchors_.size() && (anchors_[index].hash >> (kBitsLog2 - kBucketBits)) < bucket) ++index;
    bucket_first_[bucket] = static_cast<uint32_t>(index);
  }
}

bool LiteralGate::Verify(const unsigned char* text, size_t size, size_t position, uint32_t hash) const {
  const uint32_t bucket = hash >> (kBitsLog2 - kBucketBits);
  const auto end = anchors_.begin() + bucket_first_[bucket + 1];
  for (auto it = anchors_.begin() + bucket_first_[bucket]; it != end; ++it) {
    if (it->hash != hash || it->offset > position) continue;
    const size_t start = position - it->offset;
    const std::string& literal = folded_[it->literal];
    if (literal.size() > size - start) continue;
    size_t k = 0;
    while (k < literal.size() && Lower(text[start + k]) == static_cast<unsigned char>(literal[k])) ++k;
    if (k == literal.size()) return true;
  }
  return false;
}

bool LiteralGate::Contains(std::string_view text) const {
  if (folded_.empty()) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  // KeyAt reads exactly q bytes.
  for (size_t position = 0; position + key_bytes_ <= size; position += stride_) {
    const uint32_t hash = Hash(KeyAt(bytes + position));
    if (((bitmap_[hash / 64] >> (hash % 64)) & 1) != 0 && Verify(bytes, size, position, hash)) return true;
  }
  return false;
}

}  // namespace foreshock
