#pragma once

// JsonLineShapes remembers the layout of the last few flat JSON lines the header walk
// vouched for whose values are all strings: the bytes around each value's content (the
// object's opening brace or the previous value's closing quote, the comma, the next key, its
// colon and the value's opening quote), and a tag per member. A log writes the same keys in
// the same order line after line, so most lines have a learned layout: the same bytes
// around values that hold no quote. The walk would take such a line exactly as it took the
// learned one, member by member, so its values come out by one comparison and one quote
// search each, without looking the keys up. Holds kShapes layouts, the oldest replaced
// first. Not thread-safe: one per thread.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "decode/quote_index.h"

namespace foreshock {

class JsonLineShapes {
 public:
  static constexpr uint8_t kNoTag = 0xff;
  static constexpr size_t kShapes = 4;
  static constexpr size_t kMaxMembers = 64;
  static constexpr size_t kMaxLayoutBytes = 4096;

  struct Member {
    std::string_view value;  // with its quotes, a view into the line
    uint8_t tag = kNoTag;
  };

  // Learns the layout of `object` (a flat JSON object from '{' to '}', as the header walk
  // vouched for it) from its members in order, each a string value inside `object`. A
  // layout of more members or bytes than the limits above is not kept.
  void Learn(std::string_view object, const std::vector<Member>& members);
  // True when `object` (its quotes indexed in `quotes`, no byte refused) has a learned
  // layout; *members then holds its members in order, values in `object`, tags as learned.
  bool Match(std::string_view object, const QuoteIndex& quotes, std::vector<Member>* members);

 private:
  struct Shape {
    std::string layout;          // the bytes around the values, back to back
    std::vector<uint32_t> ends;  // where each member's part of `layout` ends; the last, the closing part's
    std::vector<uint8_t> tags;   // empty: no layout learned here
  };
  static bool Fits(const Shape& shape, std::string_view object, const QuoteIndex& quotes,
                   std::vector<Member>* members);

  std::array<Shape, kShapes> shapes_;
  size_t next_ = 0;      // the slot the next layout learned takes
  size_t last_fit_ = 0;  // the slot of the last layout that fit: tried first
};

}  // namespace foreshock
