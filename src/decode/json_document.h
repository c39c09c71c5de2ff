#pragma once

// JsonDocument is one JSON record, parsed with simdjson (gigabytes a second; the records
// decoded in full are the ones with stack traces and pattern hits, so their parse is what a
// burst of exceptions costs), and looked up the way the JSON decoders need: by dotted key,
// flat first and then as nested objects (as FindDotted does), the last of duplicate keys
// winning (the others can be visited). Both rules are those of nlohmann::json, which reads every other JSON in
// foreshock; so that both accept the same records, input simdjson refuses but nlohmann::json
// reads (integers past 64 bits, a byte-order mark) is rewritten by nlohmann::json first.
// Views it hands out stay valid until the next Parse(). Not thread-safe: one per thread.

#include <functional>
#include <memory>
#include <string_view>

namespace foreshock {

class JsonDocument {
 public:
  struct Value {
    enum class Type { kMissing, kString, kArray, kOther };
    Type type = Type::kMissing;
    std::string_view string;  // for kString
    bool present() const { return type != Type::kMissing; }
    bool is_string() const { return type == Type::kString; }
  };

  JsonDocument();
  ~JsonDocument();
  JsonDocument(const JsonDocument&) = delete;
  JsonDocument& operator=(const JsonDocument&) = delete;

  // False when `text` is not valid JSON or not an object.
  bool Parse(std::string_view text);
  // The value at `dotted` in the object last parsed.
  Value Find(std::string_view dotted) const;
  // Calls `visit` with the string value of each top-level member named `key` but the last:
  // the duplicates Find() passes over (a record written with the key twice).
  void ForEachEarlierDuplicate(std::string_view key, const std::function<void(std::string_view)>& visit) const;
  // Calls `visit` with each string in the array at `dotted` (nothing when it is no array).
  void ForEachStringIn(std::string_view dotted, const std::function<void(std::string_view)>& visit) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace foreshock
