#include "decode/json_document.h"

#include <simdjson.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

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

// FindDotted's rule (base/json_path.h): the flat key, else the nested path.
bool FindDotted(const element& root, std::string_view dotted, element* out) {
  simdjson::dom::object object;
  if (root.get_object().get(object) != simdjson::SUCCESS) return false;
  if (LastMember(object, dotted, out)) return true;
  element current = root;
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

}  // namespace

struct JsonDocument::State {
  // The parser's buffers grow to the largest record parsed (several times its size): after
  // a record larger than this, they are let go before the next smaller one.
  static constexpr size_t kKeptCapacity = 64 * 1024;

  simdjson::dom::parser parser;
  std::string padded;  // the record, followed by the padding simdjson reads ahead into
  element root;

  bool ParsePadded(std::string_view text) {
    if (parser.capacity() > kKeptCapacity && text.size() <= kKeptCapacity) {
      parser = simdjson::dom::parser();
      std::string().swap(padded);
    }
    padded.assign(text);
    padded.append(simdjson::SIMDJSON_PADDING, '\0');
    return parser.parse(padded.data(), text.size(), /*realloc_if_needed=*/false).get(root) == simdjson::SUCCESS &&
           root.is_object();
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
  if (!FindDotted(state_->root, dotted, &found)) return {};
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
  simdjson::dom::object object;
  if (state_->root.get_object().get(object) != simdjson::SUCCESS) return;
  std::optional<std::string_view> pending;  // a string member, visited once a later one shows it is not the last
  for (const simdjson::dom::key_value_pair field : object) {
    if (field.key != key) continue;
    if (pending) visit(*pending);
    std::string_view string;
    pending.reset();
    if (field.value.get_string().get(string) == simdjson::SUCCESS) pending = string;
  }
}

void JsonDocument::ForEachStringIn(std::string_view dotted, const std::function<void(std::string_view)>& visit) const {
  element found;
  simdjson::dom::array array;
  if (!FindDotted(state_->root, dotted, &found) || found.get_array().get(array) != simdjson::SUCCESS) return;
  for (const element item : array) {
    std::string_view string;
    if (item.get_string().get(string) == simdjson::SUCCESS) visit(string);
  }
}

}  // namespace foreshock
