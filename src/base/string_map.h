#pragma once

// StringMap<V>: an unordered map keyed by std::string that is looked up by std::string_view
// as it stands (C++20 heterogeneous lookup), so a lookup by a view of a line or a path makes
// no std::string of it: no allocation for a key over 15 bytes, no copy of its bytes.
// Insertion still takes a std::string (operator[], try_emplace).

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace foreshock {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
};

template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringHash, std::equal_to<>>;

}  // namespace foreshock
