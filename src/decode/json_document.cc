#include "decode/json_document.h"

#include <simdjson.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace foreshock {
namespace {

using simdjson::dom::element;

// The last member of `object` named `key`, as nlohmann::json keeps the last of duplicates.
bool LastMember(const simdjson::dom::object& object, std::string_view key, element* out) {
  bool found = false;
  for (const simdjson::dom::key_value_pair field : object) {
    if (field.key == key) {
      *out = field.value;
      found = true;
    }
  }
  return found;
}

}  // namespace

struct JsonDocument::State {
  // The parser's buffers grow to the largest record parsed (several times its size): after
  // a record larger than this, they are let go before the next smaller one.
  static constexpr size_t kKeptCapacity = 64 * 1024;

  simdjson::dom::parser parser;
  std::string padded;  // the record, followed by the padding simdjson reads ahead into
  element root;
  // The root object's members, in order, read once a record: a lookup compares sizes and
  // then bytes, where a pass over simdjson's object decodes each member again.
  struct Member {
    std::string_view key;
    element value;
  };
  std::vector<Member> members;

  bool ParsePadded(std::string_view text) {
    if (parser.capacity() > kKeptCapacity && text.size() <= kKeptCapacity) {
      parser = simdjson::dom::parser();
      std::string().swap(padded);
    }
    padded.assign(text);
    padded.append(simdjson::SIMDJSON_PADDING, '\0');
    members.clear();
    simdjson::dom::object object;
    if (parser.parse(padded.data(), text.size(), /*realloc_if_needed=*/false).get(root) != simdjson::SUCCESS ||
        root.get_object().get(object) != simdjson::SUCCESS) {
      return false;
    }
    for (const simdjson::dom::key_value_pair field : object) members.push_back({field.key, field.value});
    return true;
  }

  // The last root member named `key`, as nlohmann::json keeps the last of duplicates.
  bool LastRootMember(std::string_view key, element* out) const {
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
      if (it->key.size() == key.size() && it->key == key) {
        *out = it->value;
        return true;
      }
    }
    return false;
  }

  // FindDotted's rule (base/json_path.h): the flat key, else the nested path.
  bool FindDotted(std::string_view dotted, element* out) const {
    if (LastRootMember(dotted, out)) return true;
    const size_t first_dot = dotted.find('.');
    if (first_dot == std::string_view::npos) return false;
    element current;
    if (!LastRootMember(dotted.substr(0, first_dot), &current)) return false;
    dotted = dotted.substr(first_dot + 1);
    while (!dotted.empty()) {
      simdjson::dom::object level;
      if (current.get_object().get(level) != simdjson::SUCCESS) return false;
      const size_t dot = dotted.find('.');
      if (!LastMember(level, dotted.substr(0, dot), &current)) return false;
      dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
    }
    *out = current;
    return true;
  }
};

JsonDocument::JsonDocument() : state_(std::make_unique<State>()) {}

JsonDocument::~JsonDocument() = default;

bool JsonDocument::Parse(std::string_view text) {
  if (state_->ParsePadded(text)) return true;
  // Most refused records are not JSON at all, and nlohmann::json refuses them too; what it
  // reads, it writes out again in a form simdjson takes.
  const nlohmann::json object = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) return false;
  return state_->ParsePadded(object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

JsonDocument::Value JsonDocument::Find(std::string_view dotted) const {
  element found;
  if (!state_->FindDotted(dotted, &found)) return {};
  Value value;
  std::string_view string;
  if (found.get_string().get(string) == simdjson::SUCCESS) {
    value.type = Value::Type::kString;
    value.string = string;
  } else {
    value.type = found.is_array() ? Value::Type::kArray : Value::Type::kOther;
  }
  return value;
}

void JsonDocument::ForEachEarlierDuplicate(std::string_view key,
                                           const std::function<void(std::string_view)>& visit) const {
  std::optional<std::string_view> pending;  // a string member, visited once a later one shows it is not the last
  for (const State::Member& member : state_->members) {
    if (member.key.size() != key.size() || member.key != key) continue;
    if (pending) visit(*pending);
    std::string_view string;
    pending.reset();
    if (member.value.get_string().get(string) == simdjson::SUCCESS) pending = string;
  }
}

void JsonDocument::ForEachStringIn(std::string_view dotted, const std::function<void(std::string_view)>& visit) const {
  element found;
  simdjson::dom::array array;
  if (!state_->FindDotted(dotted, &found) || found.get_array().get(array) != simdjson::SUCCESS) return;
  for (const element item : array) {
    std::string_view string;
    if (item.get_string().get(string) == simdjson::SUCCESS) visit(string);
  }
}

}  // namespace foreshock
