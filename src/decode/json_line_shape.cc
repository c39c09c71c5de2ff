#include "decode/json_line_shape.h"

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
  if (shape.layout.size() > kMaxLayoutBytes) shape.tags.clear();
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
