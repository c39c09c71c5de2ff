#include "decode/json_line_shape.h"

#include <algorithm>
#include <cstring>

#include "base/same_bytes.h"

namespace foreshock {

void JsonLineShapes::Learn(std::string_view object, const std::vector<Member>& members) {
  if (members.empty() || members.size() > kMaxMembers) return;
  Shape& shape = shapes_[next_];
  next_ = (next_ + 1) % kShapes;
  shape.layout.clear();
  shape.ends.clear();
  shape.tags.clear();
  size_t from = 0;  // the brace, then each value's closing quote
  for (const Member& member : members) {
    const auto opening = static_cast<size_t>(member.value.data() - object.data());
    shape.layout.append(object.substr(from, opening + 1 - from));
    shape.ends.push_back(static_cast<uint32_t>(shape.layout.size()));
    shape.tags.push_back(member.tag);
    from = opening + member.value.size() - 1;
  }
  shape.layout.append(object.substr(from));
  shape.ends.push_back(static_cast<uint32_t>(shape.layout.size()));
  const bool tags_fit = std::all_of(members.begin(), members.end(),
                                    [](const Member& member) { return member.tag == kNoTag || member.tag < kMaxTags; });
  if (shape.layout.size() > kMaxLayoutBytes || !tags_fit) shape.tags.clear();
  shape.head = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    if (head_tag_ != kNoTag && members[i].tag == head_tag_) shape.head = i + 1;
  }
  if (shape.head > kMaxHead) shape.head = 0;
  for (Tail& tail : shape.tails) tail.bytes.clear();
  shape.next_tail = 0;
  shape.last_tail = 0;
  KeepTail(&shape, object, members);
}

void JsonLineShapes::KeepTail(Shape* shape, std::string_view object, const std::vector<Member>& members) {
  if (shape->head == 0 || shape->tags.empty()) return;
  const std::string_view last = members[shape->head - 1].value;
  const auto from = static_cast<size_t>(last.data() - object.data()) + last.size() - 1;
  if (object.size() - from > kMaxLayoutBytes) return;
  // MatchByTail() says a kept tail holds whitespace's escapes at most: one with others is
  // not kept.
  const std::string_view rest = object.substr(from);
  for (size_t at = rest.find('\\'); at != std::string_view::npos; at = rest.find('\\', at + 2)) {
    if (at + 1 == rest.size() || (rest[at + 1] != 'n' && rest[at + 1] != 't' && rest[at + 1] != 'r')) return;
  }
  Tail& tail = shape->tails[shape->next_tail];
  shape->next_tail = (shape->next_tail + 1) % kTails;
  tail.bytes.assign(object.substr(from));
  tail.tagged.clear();
  for (size_t i = shape->head; i < members.size(); ++i) {
    if (members[i].tag == kNoTag) continue;
    const auto offset = static_cast<size_t>(members[i].value.data() - object.data()) - from;
    tail.tagged.push_back(
        {static_cast<uint32_t>(offset), static_cast<uint32_t>(members[i].value.size()), members[i].tag});
  }
}

bool JsonLineShapes::Match(std::string_view object, const QuoteIndex& quotes, std::vector<Member>* members) {
  for (size_t tried = 0; tried < kShapes; ++tried) {
    const size_t slot = (last_fit_ + tried) % kShapes;
    if (Fits(shapes_[slot], object, quotes, members)) {
      last_fit_ = slot;
      return true;
    }
  }
  return false;
}

size_t JsonLineShapes::FitsHead(const Shape& shape, std::string_view object, TailMatch* match) {
  const char* const bytes = object.data();
  const char* const layout = shape.layout.data();
  const size_t size = object.size();
  size_t at = 0;
  uint32_t part = 0;
  match->tagged = {};
  match->escapes = 0;
  for (size_t i = 0; i < shape.head; ++i) {
    const size_t length = shape.ends[i] - part;
    if (size - at < length || !SameBytes(bytes + at, layout + part, length)) return QuoteIndex::kNone;
    at += length;  // past the value's opening quote
    const size_t closing = QuoteIndex::ClosingQuote(object, at, &match->escapes);
    if (closing >= size - 1) return QuoteIndex::kNone;  // kNone too
    const std::string_view value(bytes + at - 1, closing + 2 - at);
    match->head[i] = value;
    if (shape.tags[i] != kNoTag) match->tagged[shape.tags[i]] = value;
    at = closing;
    part = shape.ends[i];
  }
  match->head_count = shape.head;
  return at;
}

bool JsonLineShapes::MatchByTail(std::string_view object, TailMatch* match) {
  if (resting_ > 0) {
    --resting_;
    return false;
  }
  bool head_fits = false;
  for (size_t tried = 0; tried < kShapes; ++tried) {
    const size_t slot = (last_fit_ + tried) % kShapes;
    Shape& shape = shapes_[slot];
    if (shape.head == 0 || shape.tags.empty()) continue;
    const size_t from = FitsHead(shape, object, match);
    if (from == QuoteIndex::kNone) continue;
    head_fits = true;
    const std::string_view rest = object.substr(from);
    for (size_t seen = 0; seen < kTails; ++seen) {
      const size_t which = (shape.last_tail + seen) % kTails;
      const Tail& tail = shape.tails[which];
      if (tail.bytes.size() != rest.size() || std::memcmp(tail.bytes.data(), rest.data(), rest.size()) != 0) continue;
      for (const TaggedValue& value : tail.tagged) match->tagged[value.tag] = rest.substr(value.offset, value.size);
      shape.last_tail = which;
      last_fit_ = slot;
      misses_ = 0;
      return true;
    }
  }
  if (head_fits && ++misses_ == kMissesBeforeRest) {
    misses_ = 0;
    resting_ = kRestLines;
  }
  return false;
}

bool JsonLineShapes::Fits(const Shape& shape, std::string_view object, const QuoteIndex& quotes,
                          std::vector<Member>* members) {
  const size_t count = shape.tags.size();
  if (count == 0) return false;
  members->resize(count);
  const char* const bytes = object.data();
  const char* const layout = shape.layout.data();
  const size_t size = object.size();
  size_t at = 0;
  uint32_t part = 0;  // where the current member's part of the layout begins
  for (size_t i = 0; i < count; ++i) {
    const size_t length = shape.ends[i] - part;
    if (size - at < length || !SameBytes(bytes + at, layout + part, length)) return false;
    at += length;  // past the value's opening quote
    const size_t closing = quotes.NextQuote(at);
    if (closing >= size - 1) return false;  // kNone too: the walk needs it before the brace
    (*members)[i] = {std::string_view(bytes + at - 1, closing + 2 - at), shape.tags[i]};
    at = closing;
    part = shape.ends[i];
  }
  const size_t length = shape.ends[count] - part;
  return size - at == length && SameBytes(bytes + at, layout + part, length);
}

}  // namespace foreshock
