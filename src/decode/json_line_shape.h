#pragma once

// JsonLineShapes remembers the layout of the last few flat JSON lines the header walk
// vouched for whose values are all strings: the bytes around each value's content (the
// object's opening brace or the previous value's closing quote, the comma, the next key, its
// colon and the value's opening quote), and a tag per member. A log writes the same keys in
// the same order line after line, so most lines have a learned layout: the same bytes
// around values that hold no quote. The walk would take such a line exactly as it took the
// learned one, member by member, so its values come out by one comparison and one quote
// search each, without looking the keys up. Holds kShapes layouts, the oldest replaced
// first. What follows a line's head (its members up to the one tagged head_tag, the message)
// is often the same bytes line after line (the same logger, thread, node and cluster): each
// layout also keeps the last kTails such tails it saw, and MatchByTail() takes a line whose
// tail is one of them by walking its head alone, without a quote index. That pays only
// where lines repeat their tails: after kMissesBeforeRest lines in a row whose head fit but
// whose tail was not kept, MatchByTail() rests for kRestLines lines (answers no at once, keeps
// no tail). Tags are below kMaxTags. Not thread-safe: one per thread.

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
  static constexpr size_t kTails = 16;
  static constexpr size_t kMissesBeforeRest = 32;
  static constexpr size_t kRestLines = 1024;
  static constexpr size_t kMaxMembers = 64;
  static constexpr size_t kMaxLayoutBytes = 4096;
  static constexpr size_t kMaxTags = 10;
  static constexpr size_t kMaxHead = 16;  // a layout with a longer head is never matched by its tail

  struct Member {
    std::string_view value;  // with its quotes, a view into the line
    uint8_t tag = kNoTag;
  };
  // What MatchByTail() reads of a line: its head's values in order, and the value of each
  // member with a tag (the head's, and the kept tail's), by tag. Values with their quotes,
  // views into the line; an empty view where no member has the tag.
  struct TailMatch {
    std::array<std::string_view, kMaxHead> head;
    size_t head_count = 0;
    std::array<std::string_view, kMaxTags> tagged;
    uint8_t escapes = 0;  // the kinds of escape the head's values hold (JsonEscape bits)
  };

  // `head_tag`: the tag of the member that ends a line's head (kNoTag: no line has a tail).
  explicit JsonLineShapes(uint8_t head_tag = kNoTag) : head_tag_(head_tag) {}

  // Learns the layout of `object` (a flat JSON object from '{' to '}', as the header walk
  // vouched for it) from its members in order, each a string value inside `object`, and
  // its tail (unless it holds escapes but whitespace's, \n \t \r: MatchByTail() reads a
  // tail as it stands, and says it holds those at most). A layout of more members or bytes
  // than the limits above, or with a tag of kMaxTags or more, is not kept.
  void Learn(std::string_view object, const std::vector<Member>& members);
  // True when `object` (its quotes indexed in `quotes`, no byte refused) has a learned
  // layout; *members then holds its members in order, values in `object`, tags as learned.
  bool Match(std::string_view object, const QuoteIndex& quotes, std::vector<Member>* members);
  // Keeps the tail of the line Match() last matched, `object` with its *members, once the
  // header walk vouched for it (Learn() keeps the tail of the line it learns from).
  void KeepTail(std::string_view object, const std::vector<Member>& members) {
    if (resting_ == 0) KeepTail(&shapes_[last_fit_], object, members);
  }
  // True when `object`'s head fits a learned layout (its values hold no quote, no byte
  // QuoteIndex refuses, and only escapes it reads) and the rest of it, from the head's last
  // value's closing quote on, is a tail kept for that layout, byte for byte. *match then
  // holds the values Match() would give, but of the tail's members only those with a tag:
  // the others are those of a line vouched for.
  bool MatchByTail(std::string_view object, TailMatch* match);

 private:
  struct TaggedValue {
    uint32_t offset = 0;  // of the value (with its quotes) in the tail
    uint32_t size = 0;
    uint8_t tag = kNoTag;
  };
  struct Tail {
    std::string bytes;                 // from the closing quote of the head's last value to the brace
    std::vector<TaggedValue> tagged;   // its members with a tag
  };
  struct Shape {
    std::string layout;          // the bytes around the values, back to back
    std::vector<uint32_t> ends;  // where each member's part of `layout` ends; the last, the closing part's
    std::vector<uint8_t> tags;   // empty: no layout learned here
    size_t head = 0;             // members up to the head_tag one (0: none has it)
    std::array<Tail, kTails> tails;
    size_t next_tail = 0;  // the slot the next tail kept takes
    size_t last_tail = 0;  // the slot of the last tail matched: tried first
  };
  static bool Fits(const Shape& shape, std::string_view object, const QuoteIndex& quotes,
                   std::vector<Member>* members);
  // Walks the head of `object` as laid out in `shape`, into *match; the offset of the
  // closing quote of the head's last value, or QuoteIndex::kNone.
  static size_t FitsHead(const Shape& shape, std::string_view object, TailMatch* match);
  static void KeepTail(Shape* shape, std::string_view object, const std::vector<Member>& members);

  uint8_t head_tag_;
  size_t misses_ = 0;   // MatchByTail() calls in a row whose head fit and tail did not
  size_t resting_ = 0;  // calls MatchByTail() still answers no to at once
  std::array<Shape, kShapes> shapes_;
  size_t next_ = 0;      // the slot the next layout learned takes
  size_t last_fit_ = 0;  // the slot of the last layout that fit: tried first
};

}  // namespace foreshock
