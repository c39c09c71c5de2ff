#pragma once

// FoldedLiteral answers whether a text contains one literal, ignoring ASCII case, without
// looking at most of the text's bytes twice: it looks for the literal's likely rarest byte
// (both cases of a letter) sixteen bytes at a time, and compares the literal around each
// byte found. The matcher asks it for the few atoms of the patterns whose gate literals a
// record holds. Immutable after construction; Contains() is const and thread-safe.

#include <cstddef>
#include <string>
#include <string_view>

namespace foreshock {

class FoldedLiteral {
 public:
  // `literal` must be non-empty.
  explicit FoldedLiteral(std::string_view literal);

  bool Contains(std::string_view text) const;

 private:
  bool SameAt(const unsigned char* start) const;

  std::string lowered_;
  size_t anchor_ = 0;            // the offset of the byte looked for
  unsigned char lower_ = 0;      // that byte, in either case
  unsigned char upper_ = 0;
};

}  // namespace foreshock
