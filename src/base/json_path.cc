#include "base/json_path.h"

namespace foreshock {

const nlohmann::json* FindDotted(const nlohmann::json& object, std::string_view dotted) {
  if (auto it = object.find(dotted); it != object.end()) return &*it;
  const nlohmann::json* current = &object;
  while (!dotted.empty()) {
    if (!current->is_object()) return nullptr;
    const size_t dot = dotted.find('.');
    auto it = current->find(dotted.substr(0, dot));
    if (it == current->end()) return nullptr;
    current = &*it;
    dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
  }
  return current;
}

}  // namespace foreshock
