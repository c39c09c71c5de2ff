#pragma once

// YamlNode is one YAML document as a tree, read by libyaml's event parser: maps (entries in
// file order), sequences and scalars, each with the line and column it starts at, for the
// catalog's file:line:col messages. An alias is its anchor's node (shared, never copied);
// tags are ignored; a plain `~`, `null` or empty value is null; only the first document of
// a stream is read. Nesting deeper than kMaxDepth is refused, so no input can exhaust the
// stack, and so is a document whose scalars, with every alias counted as the text it stands
// for, add up to more than kMaxExpandedBytes: a small file of aliases to one big anchor
// would otherwise become gigabytes in whatever copies it out. Immutable once parsed.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace foreshock {

struct YamlError {
  int line = 0;  // 1-based; 0 when unknown
  int column = 0;
  std::string message;
};

class YamlNode {
 public:
  enum class Kind { kUndefined, kNull, kScalar, kSequence, kMap };
  static constexpr int kMaxDepth = 64;
  static constexpr size_t kMaxExpandedBytes = 16 << 20;

  // The document `text` holds (null when it holds none), or nothing with *error set.
  static std::optional<YamlNode> Parse(std::string_view text, YamlError* error);

  YamlNode() = default;  // undefined: what operator[] gives for an absent key

  Kind kind() const { return data_ == nullptr ? Kind::kUndefined : data_->kind; }
  explicit operator bool() const { return data_ != nullptr; }  // defined (null is defined)
  bool IsNull() const { return kind() == Kind::kNull; }
  bool IsScalar() const { return kind() == Kind::kScalar; }
  bool IsSequence() const { return kind() == Kind::kSequence; }
  bool IsMap() const { return kind() == Kind::kMap; }

  // The scalar's text; empty for any other node.
  const std::string& Scalar() const;
  // The value of `key` in a map; undefined when absent or when this is not a map.
  const YamlNode& operator[](std::string_view key) const;
  // A sequence's items; empty for any other node.
  const std::vector<YamlNode>& items() const;
  // A map's keys and values, in file order; empty for any other node.
  const std::vector<std::pair<YamlNode, YamlNode>>& entries() const;
  size_t size() const { return IsMap() ? entries().size() : items().size(); }

  int line() const { return data_ == nullptr ? 0 : data_->line; }  // 1-based; 0: undefined
  int column() const { return data_ == nullptr ? 0 : data_->column; }

 private:
  struct Data {
    Kind kind = Kind::kNull;
    int line = 0;
    int column = 0;
    std::string scalar;
    size_t expanded_bytes = 0;  // of its scalars, aliases expanded
    std::vector<YamlNode> items;
    std::vector<std::pair<YamlNode, YamlNode>> entries;
  };
  friend class YamlTreeBuilder;
  explicit YamlNode(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

  std::shared_ptr<const Data> data_;
};

}  // namespace foreshock
