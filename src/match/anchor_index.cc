#include "match/anchor_index.h"

#include <algorithm>
#include <string_view>

namespace foreshock {

int Commonness(unsigned char byte) {
  const unsigned char c = kAsciiLower[byte];
  if (c < 'a' || c > 'z') return 3;
  return std::string_view("etaoinsrlcd").find(static_cast<char>(c)) != std::string_view::npos ? 2 : 1;
}

AnchorIndex::AnchorIndex(uint32_t hash_bits, uint32_t bucket_bits)
    : hash_bits_(hash_bits), bucket_bits_(bucket_bits), held_(size_t{1} << hash_bits, 0) {}

void AnchorIndex::Add(uint32_t hash, uint32_t literal, uint32_t offset) {
  held_[hash] = 1;
  anchors_.push_back({hash, literal, offset});
}

void AnchorIndex::Seal() {
  std::stable_sort(anchors_.begin(), anchors_.end());
  bucket_first_.assign((size_t{1} << bucket_bits_) + 1, 0);
  size_t index = 0;
  for (uint32_t bucket = 0; bucket <= (1u << bucket_bits_); ++bucket) {
    while (index < anchors_.size() && (anchors_[index].hash >> (hash_bits_ - bucket_bits_)) < bucket) ++index;
    bucket_first_[bucket] = static_cast<uint32_t>(index);
  }
}

}  // namespace foreshock
