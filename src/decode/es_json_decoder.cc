#include "decode/es_json_decoder.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

#include "base/same_bytes.h"
#include "base/timestamp_parser.h"
#include "decode/json_document.h"
#include "decode/json_line_shape.h"
#include "decode/quote_index.h"
#include "framing/envelope.h"

namespace foreshock {
namespace {

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
JsonDocument::Value LookupAny(const JsonDocument& document, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (const JsonDocument::Value value = document.Find(key); value.present()) return value;
  }
  return {};
}

// Copies the first of `keys` holding a string into *out; other types are ignored.
void CopyString(const JsonDocument& document, std::initializer_list<const char*> keys, std::string* out) {
  if (const JsonDocument::Value value = LookupAny(document, keys); value.is_string()) out->assign(value.string);
}

void AppendLine(std::string_view line, std::string* text) {
  if (line.empty()) return;
  text->push_back('\n');
  text->append(line);
}

// ES 8 slow logs keep took, hits and source in fields of their own; lay them out as the
// plain and ES 7 slow logs do ("[index][0] took[1.2s], took_millis[1200], ...") so one
// pattern reads every version.
void AppendSlowLogFields(const JsonDocument& document, std::string* text) {
  static constexpr std::pair<const char*, const char*> kFields[] = {
      {"took", "elasticsearch.slowlog.took"},
      {"took_millis", "elasticsearch.slowlog.took_millis"},
      {"total_hits", "elasticsearch.slowlog.total_hits"},
      {"search_type", "elasticsearch.slowlog.search_type"},
      {"total_shards", "elasticsearch.slowlog.total_shards"},
      {"id", "elasticsearch.slowlog.id"},
      {"source", "elasticsearch.slowlog.source"}};
  bool first = true;
  for (const auto& [field, ecs_key] : kFields) {
    JsonDocument::Value value = document.Find(ecs_key);
    if (!value.present()) value = document.Find(field);
    if (!value.is_string()) {
      if (first) return;  // no took: not a slow log
      continue;
    }
    *text += first ? " " : ", ";
    *text += field;
    *text += '[';
    text->append(value.string);
    *text += ']';
    first = false;
  }
}

void AppendExceptionText(const JsonDocument& document, std::string* text) {
  for (const char* key : {"error.type", "error.message", "error.stack_trace"}) {
    if (const JsonDocument::Value value = document.Find(key); value.is_string()) AppendLine(value.string, text);
  }
  document.ForEachStringIn("stacktrace", [&](std::string_view frame) { AppendLine(frame, text); });
}

// The string value of `"key": "..."` in text that is not valid JSON (a record cut short),
// unescaped only for \" and \\.
std::string FindStringValue(std::string_view text, std::string_view key) {
  std::string quoted(1, '"');  // built up, not by operator+ (GCC 12's -Wrestrict misfires on that)
  quoted.append(key);
  quoted.push_back('"');
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

constexpr size_t kLongestHeaderKey = 64;

// The fields DecodeHeader() reads, in HeaderKeys' order.
enum HeaderField : size_t {
  kTime, kMessage, kNode, kCluster, kErrorType, kErrorMessage, kStackTrace, kLevel, kLogger, kDataset, kHeaderFields
};

// The keys of the fields the header needs, with each key's field and its rank among that
// field's keys (Decode() takes the first present), listed by key length: a key read from
// the line is compared with the few of its length only. A key names one field at most.
struct HeaderKeys {
  struct Entry {
    std::string_view key;
    size_t field;  // a HeaderField
    size_t rank;
  };
  std::vector<Entry> by_length[kLongestHeaderKey];
  explicit HeaderKeys(const FieldMap& map) {
    const std::initializer_list<const char*> errors[] = {{"error.type"}, {"error.message"}, {"error.stack_trace"}};
    const std::initializer_list<const char*>* lists[kHeaderFields] = {
        &map.time,  &map.message, &map.node,  &map.cluster, &errors[0],
        &errors[1], &errors[2],   &map.level, &map.logger,  &map.dataset};
    for (size_t field = 0; field < std::size(lists); ++field) {
      size_t rank = 0;
      for (std::string_view key : *lists[field]) {
        if (key.size() < kLongestHeaderKey) by_length[key.size()].push_back({key, field, rank});
        ++rank;
      }
    }
  }
  const Entry* Find(std::string_view key) const {
    if (key.size() >= kLongestHeaderKey) return nullptr;
    for (const Entry& entry : by_length[key.size()]) {
      if (key == entry.key) return &entry;
    }
    return nullptr;
  }
};

// What a member's key means for DecodeHeader(): whether it alone makes the line one to
// decode in full (a slow-log field, an envelope's marker), and which header field it fills.
// Lines repeat the same dozen keys, so each is worked out once, then found again in a
// small direct-mapped cache on its length and a few of its bytes. Keys longer than any
// header key are worked out every time: a slot never holds more than kLongestHeaderKey bytes.
class KeyMeanings {
 public:
  struct Meaning {
    bool doubtful = false;
    const HeaderKeys::Entry* entry = nullptr;  // null: no header field
  };

  explicit KeyMeanings(const HeaderKeys* keys) : keys_(keys) {}

  // REQUIRES: `key` is a view into its line, right after the key's opening quote.
  Meaning Of(std::string_view key) {
    if (key.size() >= kLongestHeaderKey) return WorkOut(key);
    Slot& slot = slots_[SlotOf(key)];
    if (slot.valid && slot.key.size() == key.size() && SameBytes(slot.key.data(), key.data(), key.size())) {
      return slot.meaning;
    }
    slot.key.assign(key);
    slot.valid = true;
    slot.meaning = WorkOut(key);
    return slot.meaning;
  }

 private:
  struct Slot {
    std::string key;
    Meaning meaning;
    bool valid = false;
  };
  Meaning WorkOut(std::string_view key) const {
    return {key == "took" || key.starts_with("elasticsearch.slowlog.") ||
                IsEnvelopeMarker(std::string_view(key.data() - 1, key.size() + 2)),
            keys_->Find(key)};
  }
  static size_t SlotOf(std::string_view key) {
    if (key.empty()) return 0;
    const auto byte = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(key[i])); };
    return (key.size() * 131 + byte(0) * 31 + byte(key.size() / 2) * 7 + byte(key.size() - 1)) % kSlots;
  }
  static constexpr size_t kSlots = 64;
  const HeaderKeys* keys_;
  Slot slots_[kSlots];
};

// The flat object a line holds, from '{' to '}' (trailing spaces left off), or an empty
// view. (No space before the object: an indented line is the indented envelope's, which
// strips the indentation before a decoder sees it.)
std::string_view ObjectOf(std::string_view text) {
  size_t size = text.size();
  while (size > 0 && text[size - 1] == ' ') --size;
  if (size < 2 || text[0] != '{' || text[size - 1] != '}') return {};
  return text.substr(0, size);
}

// Walks a flat JSON object (string keys; string, number, true, false or null values) whose
// text is plain printable ASCII without tabs (spaces allowed), with only the escapes
// QuoteIndex reads, calling
// `field(key, value)` for each member; values are given with their quotes for strings.
// False when the text is anything else: nested values, or not valid JSON. REQUIRES:
// `text` is ObjectOf() a line, its quotes indexed in `quotes`, no byte refused.
template <typename Field>
bool WalkFlatObject(std::string_view text, const QuoteIndex& quotes, Field field) {
  // The object's closing brace is its last byte: every scan below stops at it at the
  // latest, so none needs a bounds check of its own.
  const size_t size = text.size();
  const char* const begin = text.data();
  const char* const close = begin + size - 1;
  const char* at = begin + 1;
  const auto skip_space = [&] {
    while (*at == ' ') ++at;
  };
  // The string opening at *at (a quote): moves past its closing quote, which lies before
  // the brace. False when it does not close there.
  const auto skip_string = [&] {
    const size_t end = quotes.NextQuote(static_cast<size_t>(at - begin) + 1);
    if (end >= size - 1) return false;  // kNone too
    at = begin + end + 1;
    return true;
  };
  const auto is_digit = [&] { return *at >= '0' && *at <= '9'; };
  const auto skip_digits = [&] {
    while (is_digit()) ++at;
  };
  const auto skip_number = [&] {
    if (*at == '-') ++at;
    if (!is_digit()) return false;
    if (*at == '0') {
      ++at;
    } else {
      skip_digits();
    }
    if (*at == '.') {
      ++at;
      if (!is_digit()) return false;
      skip_digits();
    }
    if (*at == 'e' || *at == 'E') {
      ++at;
      if (*at == '+' || *at == '-') ++at;
      if (!is_digit()) return false;
      skip_digits();
    }
    return true;
  };
  const auto skip_word = [&](std::string_view word) {
    if (static_cast<size_t>(close - at) < word.size() || std::memcmp(at, word.data(), word.size()) != 0) return false;
    at += word.size();
    return true;
  };
  skip_space();
  if (*at == '}') return false;  // empty: not a log record
  while (true) {
    skip_space();
    if (*at != '"') return false;
    const char* const key_begin = at + 1;
    if (!skip_string()) return false;
    const std::string_view key(key_begin, static_cast<size_t>(at - 1 - key_begin));
    skip_space();
    if (*at != ':') return false;
    ++at;
    skip_space();
    const char* const value_begin = at;
    const bool scalar = *at == '"'   ? skip_string()
                        : *at == 't' ? skip_word("true")
                        : *at == 'n' ? skip_word("null")
                        : *at == 'f' ? skip_word("false")
                                     : skip_number();  // objects and arrays too: the full decoder handles those
    if (!scalar) return false;
    field(key, std::string_view(value_begin, static_cast<size_t>(at - value_begin)));
    skip_space();
    if (*at == '}') break;
    if (*at != ',') return false;
    ++at;
  }
  return at == close;
}

// A header field's value: the value of the first of its keys present.
struct FoundField {
  std::string_view value;
  size_t rank = SIZE_MAX;  // of the key found
};

// Walks `object` (as WalkFlatObject) for the header fields, in *fields, and its members, in
// *members. False when the walk fails, or a key or string value makes the line one to
// decode in full: slow-log records get fields folded into their text, and a line with an
// envelope's marker is left to the unwrapper (so a line vouched for is no envelope). When
// every value is a string, each member that gives a field is tagged with it, and
// *all_strings is set: the layout is worth learning.
bool WalkHeader(std::string_view object, const QuoteIndex& quotes, KeyMeanings& meanings, FoundField* fields,
                std::vector<JsonLineShapes::Member>* members, bool* all_strings) {
  members->clear();
  bool doubtful = false;
  bool strings = true;
  const bool flat = WalkFlatObject(object, quotes, [&](std::string_view key, std::string_view value) {
    const KeyMeanings::Meaning meaning = meanings.Of(key);
    const bool string = !value.empty() && value.front() == '"';
    strings = strings && string;
    members->push_back({value, JsonLineShapes::kNoTag});
    if (meaning.doubtful || (string && IsEnvelopeMarker(value))) doubtful = true;
    if (meaning.entry == nullptr) return;
    FoundField& found = fields[meaning.entry->field];
    if (meaning.entry->rank == found.rank) doubtful = true;  // a duplicate key
    if (meaning.entry->rank < found.rank) {
      found.rank = meaning.entry->rank;
      found.value = value;
    }
  });
  if (!flat || doubtful) return false;
  *all_strings = strings;
  if (strings) {
    for (size_t field = 0; field < kHeaderFields; ++field) {
      if (fields[field].rank == SIZE_MAX) continue;
      for (JsonLineShapes::Member& member : *members) {
        if (member.value.data() == fields[field].value.data()) member.tag = static_cast<uint8_t>(field);
      }
    }
  }
  return true;
}

// The level a JSON value names, quotes and all as it stands in the line: "INFO" and "WARN",
// on most lines, are told by comparing two words (overlapping) each.
Level QuotedLevel(std::string_view value) {
  if (value.size() == 6) {
    uint32_t head;
    uint32_t tail;
    std::memcpy(&head, value.data(), 4);
    std::memcpy(&tail, value.data() + 2, 4);
    const auto is = [&](const char (&quoted)[7]) {  // memcmp() of four bytes is one comparison
      return std::memcmp(&head, quoted, 4) == 0 && std::memcmp(&tail, quoted + 2, 4) == 0;
    };
    if (is("\"INFO\"")) return Level::kInfo;
    if (is("\"WARN\"")) return Level::kWarn;
  }
  if (value.size() < 2 || value.front() != '"' || value.back() != '"') return Level::kUnknown;
  return ParseAnyLevel(value.substr(1, value.size() - 2));
}

// Reads the header fields into *header from their values (with their quotes, as the walk or
// a learned layout found them; an empty view for a field absent). False when the time or
// the message is absent or not a string (Decode() calls such a line malformed or another
// format's), or, on a line with `escapes`, the time, node or cluster holds one: those are
// read as they stand, and must be what the full decode reads. The text's parts may hold
// escapes (header->escapes says which: see QuoteIndex).
bool ReadHeaderFields(std::span<const std::string_view, kHeaderFields> values, uint8_t escapes,
                      const DecodeOptions& options, RecordHeader* header) {
  auto string_value = [](std::string_view value) -> std::optional<std::string_view> {
    if (value.size() < 2 || value.front() != '"') return std::nullopt;
    return value.substr(1, value.size() - 2);
  };
  if (escapes != 0) {
    for (const size_t field : {kTime, kNode, kCluster, kLevel}) {
      if (values[field].find('\\') != std::string_view::npos) return false;
    }
  }
  const auto stamp = string_value(values[kTime]);
  const auto message = string_value(values[kMessage]);
  if (!stamp || !message) return false;
  if (auto parsed = ParseTimestamp(*stamp, *options.zone)) {
    header->time = parsed->time;
    header->has_time = true;
  }
  if (auto value = string_value(values[kNode])) header->node = *value;
  if (auto value = string_value(values[kCluster])) header->cluster = *value;
  header->AddPart(*message);
  for (const size_t field : {kErrorType, kErrorMessage, kStackTrace}) {
    if (auto value = string_value(values[field])) header->AddPart(*value);
  }
  if (options.header_level) {
    header->level = QuotedLevel(values[kLevel]);
    header->logger = values[kLogger];  // as they stand, quotes and all
    header->dataset = values[kDataset];
  }
  header->escapes = escapes;
  return true;
}

}  // namespace

bool EsJsonDecoder::DecodeHeader(std::string_view text, const DecodeOptions& options, RecordHeader* header) const {
  static_assert(kHeaderFields <= JsonLineShapes::kMaxTags);
  static const HeaderKeys kEcsKeys(kEcsFields);
  static const HeaderKeys kEs7Keys(kEs7Fields);
  thread_local KeyMeanings ecs_meanings(&kEcsKeys);
  thread_local KeyMeanings es7_meanings(&kEs7Keys);
  thread_local JsonLineShapes ecs_shapes(kMessage);
  thread_local JsonLineShapes es7_shapes(kMessage);
  const bool ecs = dialect_ == Dialect::kEcs;
  JsonLineShapes& shapes = ecs ? ecs_shapes : es7_shapes;
  const std::string_view object = ObjectOf(text);
  if (object.empty()) return false;
  // When all after its message is an earlier vouched line's, only the head is read: its
  // values are new, and checked for envelope markers; the tail's were, when it was kept.
  thread_local JsonLineShapes::TailMatch by_tail;
  if (shapes.MatchByTail(object, &by_tail)) {
    for (size_t i = 0; i < by_tail.head_count; ++i) {
      if (IsEnvelopeMarker(by_tail.head[i])) return false;
    }
    // The head's values hold the escapes read in them, and the tail's are those of a line
    // vouched for, kept only when it held no escape but whitespace's.
    return ReadHeaderFields(std::span(by_tail.tagged).first<kHeaderFields>(), by_tail.escapes | kEscapedWhitespace,
                            options, header);
  }
  // A line laid out like one vouched for before has the same keys, so each value's field
  // is known: only its string values are still to be checked for envelope markers.
  thread_local QuoteIndex quotes;
  thread_local std::vector<JsonLineShapes::Member> members;
  if (!quotes.Build(object)) return false;
  std::array<std::string_view, kHeaderFields> values{};
  bool learn = false;  // a layout to remember once the line is vouched for
  const bool known_layout = shapes.Match(object, quotes, &members);
  if (known_layout) {
    for (const JsonLineShapes::Member& member : members) {
      if (IsEnvelopeMarker(member.value)) return false;
      if (member.tag != JsonLineShapes::kNoTag) values[member.tag] = member.value;
    }
  } else {
    FoundField fields[kHeaderFields];
    if (!WalkHeader(object, quotes, ecs ? ecs_meanings : es7_meanings, fields, &members, &learn)) return false;
    for (size_t field = 0; field < kHeaderFields; ++field) values[field] = fields[field].value;
  }
  if (!ReadHeaderFields(values, quotes.escapes(), options, header)) return false;
  // (JsonLineShapes keeps no tail holding escapes but whitespace's.)
  if (learn) shapes.Learn(object, members);
  if (known_layout) shapes.KeepTail(object, members);
  return true;
}

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
  thread_local JsonDocument document;
  if (!document.Parse(text)) {
    // Only this dialect's records are worth salvaging; others may be another format's.
    if (FindStringValue(text, *fields.time.begin()).empty()) {
      *why = "invalid JSON";
      return Outcome::kMalformed;
    }
    *why = "invalid JSON (time, level and node recovered; searched as it is)";
    Salvage(text, fields, options, record);
    return Outcome::kMalformed;
  }
  const JsonDocument::Value time = LookupAny(document, fields.time);
  const JsonDocument::Value message = LookupAny(document, fields.message);
  if (!time.present() || !message.present()) return Outcome::kNotMine;
  if (!time.is_string() || !message.is_string()) {
    *why = std::string("\"") + *fields.time.begin() + "\" and the message must be strings";
    return Outcome::kMalformed;
  }
  if (auto parsed = ParseTimestamp(time.string, *options.zone)) {
    record->time = parsed->time;
    record->has_time = true;
  }
  std::string level;
  CopyString(document, fields.level, &level);
  record->level = ParseLevel(level);
  CopyString(document, fields.logger, &record->logger);
  CopyString(document, fields.node, &record->node);
  CopyString(document, fields.cluster, &record->cluster);
  CopyString(document, fields.dataset, &record->dataset);
  record->text.assign(message.string);
  if (record->text.find("took[") == std::string::npos) AppendSlowLogFields(document, &record->text);
  record->message_length = record->text.size();
  AppendExceptionText(document, &record->text);
  // A record with its message key twice: the last is the message, the others are searched too.
  for (const char* key : fields.message) {
    document.ForEachEarlierDuplicate(key, [&](std::string_view other) { AppendLine(other, &record->text); });
  }
  return Outcome::kDecoded;
}

}  // namespace foreshock
