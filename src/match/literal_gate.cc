#include "match/literal_gate.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace foreshock {
namespace {

// What an anchor's key costs in its score (see Commonness) for each other literal holding
// it: a key held by two others scores worse than four of the commonest bytes.
constexpr int kSharedKeyCost = 6;

// Bit 5 set in each byte: upper-case ASCII letters become lower-case (other bytes may merge
// too, which costs a verification, never a miss).
constexpr uint32_t kLooseFold = 0x20202020u;

}  // namespace

uint64_t LiteralGate::NextSerial() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

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
  for (const std::string& literal : literals) folded_.push_back(AsciiLowered(literal));
  ChooseAnchors(nullptr);
}

std::unique_ptr<LiteralGate> LiteralGate::Tuned(const KeyCounts& ordinary) const {
  std::unique_ptr<LiteralGate> tuned(new LiteralGate());
  tuned->key_bytes_ = key_bytes_;
  tuned->stride_ = stride_;
  tuned->folded_ = folded_;
  tuned->ChooseAnchors(ordinary.empty() ? nullptr : &ordinary);
  return tuned;
}

void LiteralGate::CountKeys(std::string_view text, KeyCounts* counts) const {
  if (counts->empty()) counts->assign(size_t{1} << kBitsLog2, 0);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t position = 0; position + key_bytes_ <= text.size(); ++position) {
    uint16_t& count = (*counts)[Hash(KeyAt(bytes + position))];
    if (count != UINT16_MAX) ++count;
  }
}

void LiteralGate::ChooseAnchors(const KeyCounts* ordinary) {
  const KeyHolders holders = LiteralsHoldingEachKey();
  // Per literal, one key for each residue of its offsets mod stride: the one least counted
  // in ordinary text, if any was seen, and of those the likely rarest.
  for (size_t index = 0; index < folded_.size(); ++index) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(folded_[index].data());
    const size_t last = folded_[index].size() - key_bytes_;
    for (size_t residue = 0; residue < stride_; ++residue) {
      size_t best = residue;
      std::pair<uint32_t, int> best_score{UINT32_MAX, 0};
      for (size_t offset = residue; offset <= last; offset += stride_) {
        // Keys that other literals hold too are Elasticsearch's vocabulary ("cluster",
        // "shard", "transport", "-ing "), which ordinary lines use as well.
        const uint32_t key = KeyAt(bytes + offset);
        const auto holding = std::lower_bound(holders.begin(), holders.end(), std::make_pair(key, 0));
        int guess = kSharedKeyCost * (holding->second - 1);
        for (size_t k = 0; k < key_bytes_; ++k) guess += Commonness(bytes[offset + k]);
        const std::pair<uint32_t, int> score{ordinary != nullptr ? (*ordinary)[Hash(key)] : 0u, guess};
        if (score < best_score) {
          best_score = score;
          best = offset;
        }
      }
      anchors_.Add(Hash(KeyAt(bytes + best)), static_cast<uint32_t>(index), static_cast<uint32_t>(best));
    }
  }
  anchors_.Seal();
}

LiteralGate::KeyHolders LiteralGate::LiteralsHoldingEachKey() const {
  std::vector<std::pair<uint32_t, uint32_t>> held;  // (key, literal)
  for (uint32_t index = 0; index < folded_.size(); ++index) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(folded_[index].data());
    for (size_t offset = 0; offset + key_bytes_ <= folded_[index].size(); ++offset) {
      held.emplace_back(KeyAt(bytes + offset), index);
    }
  }
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  KeyHolders holders;
  for (const auto& [key, literal] : held) {
    if (holders.empty() || holders.back().first != key) holders.emplace_back(key, 0);
    ++holders.back().second;
  }
  return holders;
}

bool LiteralGate::FoundAt(std::string_view text, size_t position, uint32_t hash) const {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  return anchors_.Find(bytes, text.size(), position, hash, folded_, [](uint32_t) { return true; });
}

bool LiteralGate::Contains(std::string_view text) const {
  if (folded_.empty()) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  size_t position = 0;
  if (key_bytes_ != 4) {
    for (; position + key_bytes_ <= size; position += stride_) {
      const uint32_t hash = Hash(KeyAt(bytes + position));
      if (anchors_.MayHold(hash) && FoundAt(text, position, hash)) return true;
    }
    return false;
  }
  const size_t stride = stride_;
  auto hash_at = [&](size_t at) {
    uint32_t key;
    std::memcpy(&key, bytes + at, 4);
    return Hash(key | kLooseFold);
  };
  if (size >= 3 * stride + 4) {
    // Four probes a step, tested together: most steps hit none, and take one branch. The
    // verification of a hit is out of line, so the loop keeps what it needs in registers.
    const size_t last = size - 3 * stride - 4;  // the last first probe with room for the fourth
    for (; position <= last; position += 4 * stride) {
      const bool first = anchors_.MayHold(hash_at(position));
      const bool second = anchors_.MayHold(hash_at(position + stride));
      const bool third = anchors_.MayHold(hash_at(position + 2 * stride));
      const bool fourth = anchors_.MayHold(hash_at(position + 3 * stride));
      if (!(first | second | third | fourth)) continue;
      // Rare: the hashes are worked out again rather than kept in registers.
      for (size_t at = position; at < position + 4 * stride; at += stride) {
        const uint32_t hash = hash_at(at);
        if (anchors_.MayHold(hash) && FoundAt(text, at, hash)) return true;
      }
    }
  }
  for (; position + 4 <= size; position += stride) {
    const uint32_t hash = hash_at(position);
    if (anchors_.MayHold(hash) && FoundAt(text, position, hash)) return true;
  }
  return false;
}

size_t LiteralGate::AnchoredPositions(std::string_view text) const {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t anchored = 0;
  for (size_t position = 0; position + key_bytes_ <= text.size(); ++position) {
    anchored += anchors_.MayHold(Hash(KeyAt(bytes + position))) ? 1 : 0;
  }
  return anchored;
}

void LiteralGate::Hits(std::string_view text, std::vector<uint32_t>* literals) const {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t position = 0; position + key_bytes_ <= text.size(); position += stride_) {
    const uint32_t hash = Hash(KeyAt(bytes + position));
    if (!anchors_.MayHold(hash)) continue;
    anchors_.Find(bytes, text.size(), position, hash, folded_, [&](uint32_t literal) {
      literals->push_back(literal);
      return false;  // and the others anchored here
    });
  }
}

}  // namespace foreshock
