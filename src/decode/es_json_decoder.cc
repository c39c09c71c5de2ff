#include "decode/es_json_decoder.h"

#include <nlohmann/json.hpp>

#include <initializer_list>

#include "base/json_path.h"
#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

using Json = nlohmann::json;

// Each field lists the keys to try, in order: 8.0 snapshots and slow logs wrote some fields
// under other names than the final ECS layout.
struct FieldMap {
  std::initializer_list<const char*> time;
  std::initializer_list<const char*> message;
  std::initializer_list<const char*> level;
  std::initializer_list<const char*> logger;
  std::initializer_list<const char*> node;
  std::initializer_list<const char*> cluster;
  std::initializer_list<const char*> dataset;
};

const FieldMap kEcsFields{{"@timestamp"},
                          {"message", "elasticsearch.slowlog.message"},
                          {"log.level"},
                          {"log.logger"},
                          {"elasticsearch.node.name", "node.name"},
                          {"elasticsearch.cluster.name", "cluster.name"},
                          {"event.dataset", "type"}};
const FieldMap kEs7Fields{{"timestamp"}, {"message"},      {"level"}, {"component"},
                          {"node.name"}, {"cluster.name"}, {"type"}};

// The first of `keys` that is present.
const Json* LookupAny(const Json& object, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (const Json* value = FindDotted(object, key)) return value;
  }
  return nullptr;
}

// Copies the first of `keys` holding a string into *out; other types are ignored.
void CopyString(const Json& object, std::initializer_list<const char*> keys, std::string* out) {
  const Json* value = LookupAny(object, keys);
  if (value != nullptr && value->is_string()) *out = value->get_ref<const std::string&>();
}

void AppendLine(std::string_view line, std::string* text) {
  if (line.empty()) return;
  text->push_back('\n');
  text->append(line);
}

// ES 8 slow logs keep took, hits and source in fields of their own; lay them out as the
// plain and ES 7 slow logs do ("[index][0] took[1.2s], took_millis[1200], ...") so one
// pattern reads every version.
void AppendSlowLogFields(const Json& object, std::string* text) {
  static constexpr const char* kFields[] = {"took", "took_millis", "total_hits", "search_type",
                                            "total_shards", "id", "source"};
  bool first = true;
  for (const char* field : kFields) {
    const Json* value = FindDotted(object, std::string("elasticsearch.slowlog.") + field);
    if (value == nullptr) value = FindDotted(object, field);
    if (value == nullptr || !value->is_string()) {
      if (first) return;  // no took: not a slow log
      continue;
    }
    *text += first ? " " : ", ";
    *text += std::string(field) + "[" + value->get_ref<const std::string&>() + "]";
    first = false;
  }
}

void AppendExceptionText(const Json& object, std::string* text) {
  for (const char* key : {"error.type", "error.message", "error.stack_trace"}) {
    const Json* value = FindDotted(object, key);
    if (value != nullptr && value->is_string()) AppendLine(value->get_ref<const std::string&>(), text);
  }
  const Json* stacktrace = FindDotted(object, "stacktrace");
  if (stacktrace != nullptr && stacktrace->is_array()) {
    for (const Json& frame : *stacktrace) {
      if (frame.is_string()) AppendLine(frame.get_ref<const std::string&>(), text);
    }
  }
}

// The string value of `"key": "..."` in text that is not valid JSON (a record cut short),
// unescaped only for \" and \\.
std::string FindStringValue(std::string_view text, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  size_t at = text.find(quoted);
  if (at == std::string_view::npos) return {};
  at = text.find_first_not_of(" \t", at + quoted.size());
  if (at == std::string_view::npos || text[at] != ':') return {};
  at = text.find_first_not_of(" \t", at + 1);
  if (at == std::string_view::npos || text[at] != '"') return {};
  std::string value;
  for (size_t i = at + 1; i < text.size() && text[i] != '"'; ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    value.push_back(text[i]);
  }
  return value;
}

// Recovers time, level, logger, node and cluster from a record that does not parse (cut
// mid-stacktrace, say) and keeps its raw text for the patterns.
void Salvage(std::string_view text, const FieldMap& fields, const DecodeOptions& options,
             LogRecord* record) {
  auto first = [&](std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
      if (std::string value = FindStringValue(text, key); !value.empty()) return value;
    }
    return std::string();
  };
  if (auto parsed = ParseTimestamp(first(fields.time), *options.zone)) {
    record->time = parsed->time;
    record->has_time = true;
  }
  record->level = ParseLevel(first(fields.level));
  record->logger = first(fields.logger);
  record->node = first(fields.node);
  record->cluster = first(fields.cluster);
  record->dataset = first(fields.dataset);
  record->text.assign(text);
  const size_t newline = text.find('\n');
  record->message_length = newline == std::string_view::npos ? text.size() : newline;
}

}  // namespace

Decoder::Outcome EsJsonDecoder::Decode(std::string_view text, const DecodeOptions& options,
                                       LogRecord* record, std::string* why) const {
  // A JSON object starts '{"' or, pretty-printed, '{' and a line break; "{Logger} text" is
  // not JSON at all.
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos || text[first] != '{') return Outcome::kNotMine;
  const size_t second = text.find_first_not_of(" \t\r\n", first + 1);
  if (second == std::string_view::npos || (text[second] != '"' && text[second] != '}')) {
    return Outcome::kNotMine;
  }
  const FieldMap& fields = dialect_ == Dialect::kEcs ? kEcsFields : kEs7Fields;
  const Json object = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    // Only this dialect's records are worth salvaging; others may be another format's.
    if (FindStringValue(text, *fields.time.begin()).empty()) {
      *why = "invalid JSON";
      return Outcome::kMalformed;
    }
    *why = "invalid JSON (time, level and node recovered; searched as it is)";
    Salvage(text, fields, options, record);
    return Outcome::kMalformed;
  }
  const Json* time = LookupAny(object, fields.time);
  const Json* message = LookupAny(object, fields.message);
  if (time == nullptr || message == nullptr) return Outcome::kNotMine;
  if (!time->is_string() || !message->is_string()) {
    *why = std::string("\"") + *fields.time.begin() + "\" and the message must be strings";
    return Outcome::kMalformed;
  }
  const std::string& stamp = time->get_ref<const std::string&>();
  if (auto parsed = ParseTimestamp(stamp, *options.zone)) {
    record->time = parsed->time;
    record->has_time = true;
  }
  std::string level;
  CopyString(object, fields.level, &level);
  record->level = ParseLevel(level);
  CopyString(object, fields.logger, &record->logger);
  CopyString(object, fields.node, &record->node);
  CopyString(object, fields.cluster, &record->cluster);
  CopyString(object, fields.dataset, &record->dataset);
  record->text = message->get_ref<const std::string&>();
  if (record->text.find("took[") == std::string::npos) AppendSlowLogFields(object, &record->text);
  record->message_length = record->text.size();
  AppendExceptionText(object, &record->text);
  return Outcome::kDecoded;
}

}  // namespace foreshock
