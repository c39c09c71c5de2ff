#include "catalog/yaml_document.h"

#include <yaml.h>

#include <map>

namespace foreshock {

// Turns libyaml's events into nodes: containers are open on a stack until their end event.
class YamlTreeBuilder {
 public:
  using Data = YamlNode::Data;

  std::optional<YamlNode> Build(std::string_view text, YamlError* error) {
    yaml_parser_t parser;
    if (yaml_parser_initialize(&parser) == 0) {
      *error = {0, 0, "out of memory"};
      return std::nullopt;
    }
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    std::optional<YamlNode> root;
    bool done = false;
    while (!done) {
      yaml_event_t event;
      if (yaml_parser_parse(&parser, &event) == 0) {
        const yaml_mark_t& at = parser.problem_mark;
        std::string message = parser.problem != nullptr ? parser.problem : "invalid YAML";
        if (parser.context != nullptr) message = std::string(parser.context) + ": " + message;
        *error = {static_cast<int>(at.line) + 1, static_cast<int>(at.column) + 1, std::move(message)};
        yaml_parser_delete(&parser);
        return std::nullopt;
      }
      done = !OnEvent(event, &root, error);
      yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    if (!error->message.empty()) return std::nullopt;
    return root ? *root : YamlNode(std::make_shared<const Data>());  // no document: null
  }

 private:
  struct Open {
    std::shared_ptr<Data> node;
    std::string anchor;
    std::optional<YamlNode> key;  // a map's key waiting for its value
  };

  static std::shared_ptr<Data> Start(YamlNode::Kind kind, const yaml_mark_t& mark) {
    auto data = std::make_shared<Data>();
    data->kind = kind;
    data->line = static_cast<int>(mark.line) + 1;
    data->column = static_cast<int>(mark.column) + 1;
    return data;
  }
  static std::string Text(const yaml_char_t* text) { return text == nullptr ? "" : reinterpret_cast<const char*>(text); }

  // False when the document is complete (or an error was set).
  bool OnEvent(const yaml_event_t& event, std::optional<YamlNode>* root, YamlError* error) {
    switch (event.type) {
      case YAML_SCALAR_EVENT: {
        const auto& scalar = event.data.scalar;
        std::string value(reinterpret_cast<const char*>(scalar.value), scalar.length);
        const bool null = scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                          (value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL");
        auto data = Start(null ? YamlNode::Kind::kNull : YamlNode::Kind::kScalar, event.start_mark);
        if (!null) data->scalar = std::move(value);
        data->expanded_bytes = scalar.length;
        return Complete(YamlNode(std::move(data)), Text(scalar.anchor), root, event.start_mark, error);
      }
      case YAML_ALIAS_EVENT: {
        auto it = anchors_.find(Text(event.data.alias.anchor));
        if (it == anchors_.end()) {
          *error = {static_cast<int>(event.start_mark.line) + 1, static_cast<int>(event.start_mark.column) + 1,
                    "alias to an unknown anchor '" + Text(event.data.alias.anchor) + "'"};
          return false;
        }
        return Complete(it->second, "", root, event.start_mark, error);
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        if (open_.size() >= static_cast<size_t>(YamlNode::kMaxDepth)) {
          *error = {static_cast<int>(event.start_mark.line) + 1, static_cast<int>(event.start_mark.column) + 1,
                    "nested deeper than " + std::to_string(YamlNode::kMaxDepth) + " levels"};
          return false;
        }
        const bool map = event.type == YAML_MAPPING_START_EVENT;
        open_.push_back({Start(map ? YamlNode::Kind::kMap : YamlNode::Kind::kSequence, event.start_mark),
                         Text(map ? event.data.mapping_start.anchor : event.data.sequence_start.anchor), std::nullopt});
        return true;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: {
        Open closed = std::move(open_.back());
        open_.pop_back();
        const yaml_mark_t start = {0, static_cast<size_t>(closed.node->line - 1), static_cast<size_t>(closed.node->column - 1)};
        return Complete(YamlNode(std::move(closed.node)), closed.anchor, root, start, error);
      }
      case YAML_DOCUMENT_END_EVENT:
      case YAML_STREAM_END_EVENT:
        return false;  // the first document is the catalog file's
      default:
        return true;  // stream and document starts
    }
  }

  // A finished node: the root, or the next item or key or value of the innermost container.
  // False (with *error set, at `mark`, where the node starts) when the document grows past
  // kMaxExpandedBytes.
  bool Complete(YamlNode node, const std::string& anchor, std::optional<YamlNode>* root, const yaml_mark_t& mark,
                YamlError* error) {
    if (!anchor.empty()) anchors_[anchor] = node;
    if (!open_.empty()) {
      size_t& parent_bytes = open_.back().node->expanded_bytes;
      parent_bytes += node.data_->expanded_bytes;
      if (parent_bytes > YamlNode::kMaxExpandedBytes) {
        *error = {static_cast<int>(mark.line) + 1, static_cast<int>(mark.column) + 1,
                  "the document, with its aliases expanded, grows past " +
                      std::to_string(YamlNode::kMaxExpandedBytes >> 20) + " MiB here"};
        return false;
      }
    }
    if (open_.empty()) {
      *root = std::move(node);
      return true;
    }
    Open& parent = open_.back();
    if (parent.node->kind == YamlNode::Kind::kSequence) {
      parent.node->items.push_back(std::move(node));
    } else if (!parent.key) {
      parent.key = std::move(node);
    } else {
      parent.node->entries.emplace_back(std::move(*parent.key), std::move(node));
      parent.key.reset();
    }
    return true;
  }

  std::vector<Open> open_;
  std::map<std::string, YamlNode> anchors_;
};

std::optional<YamlNode> YamlNode::Parse(std::string_view text, YamlError* error) {
  *error = {};
  return YamlTreeBuilder().Build(text, error);
}

const std::string& YamlNode::Scalar() const {
  static const std::string kEmpty;
  return IsScalar() ? data_->scalar : kEmpty;
}

const YamlNode& YamlNode::operator[](std::string_view key) const {
  static const YamlNode kUndefined;
  if (!IsMap()) return kUndefined;
  for (const auto& [name, value] : data_->entries) {
    if (name.IsScalar() && name.Scalar() == key) return value;
  }
  return kUndefined;
}

const std::vector<YamlNode>& YamlNode::items() const {
  static const std::vector<YamlNode> kNone;
  return IsSequence() ? data_->items : kNone;
}

const std::vector<std::pair<YamlNode, YamlNode>>& YamlNode::entries() const {
  static const std::vector<std::pair<YamlNode, YamlNode>> kNone;
  return IsMap() ? data_->entries : kNone;
}

}  // namespace foreshock
