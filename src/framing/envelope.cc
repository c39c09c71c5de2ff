#include "framing/envelope.h"

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/json_path.h"
#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

using Json = nlohmann::json;

enum Kind : int {
  kNone = 0,
  kJournaldJson,
  kFilebeat,
  kDockerJson,
  kShipperJson,
  kCri,
  kKubectl,
  kJournaldText,
  kCompose,
  kIndented,  // a record pasted with leading indentation; not forceable
  kKindCount,
};

constexpr std::string_view kKindNames[kKindCount] = {
    "", "journald-json", "filebeat", "docker-json", "shipper-json", "cri", "kubectl", "journald-text", "compose",
    "indented"};

// What marks each envelope on a line, for --explain-format.
constexpr std::string_view kKindShapes[kKindCount] = {
    "",
    "a JSON object with journald's MESSAGE and __REALTIME_TIMESTAMP (journalctl -o json)",
    "a JSON object with Filebeat's @metadata/message and log.file.path (console or file output)",
    "a JSON object {\"log\": ..., \"stream\": ..., \"time\": ...} (Docker json-file)",
    "a JSON object with the line in message or log: Logstash (@version), Vector (source_type), Fluent Bit (log "
    "or stream alone)",
    "\"<RFC3339Nano time> stdout|stderr F|P <line>\" (containerd, CRI-O)",
    "\"[pod/<pod>/<container>] <RFC3339Nano time> <line>\", either part (kubectl logs --prefix --timestamps)",
    "\"<time> <host> <identifier>[pid]: <line>\" (journalctl -o short-iso and kin)",
    "\"<service> | <line>\" (docker compose logs)",
    "a record pasted with leading indentation"};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string StringAt(const Json& object, std::string_view key) {
  const Json* value = FindDotted(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::optional<TimePoint> Stamp(std::string_view text) {
  auto parsed = ParseTimestamp(text, TimeZone::Utc());
  if (!parsed) return std::nullopt;
  return parsed->time;
}

// Host names come in many spellings (FQDN, upper case); one spelling per node keeps
// correlation keys in agreement across formats.
std::string NormalizeHost(std::string host) {
  host = host.substr(0, host.find('.'));
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host;
}

Level PriorityLevel(const Json& priority) {
  int value = -1;
  if (priority.is_string() && priority.get_ref<const std::string&>().size() == 1) {
    value = priority.get_ref<const std::string&>()[0] - '0';
  } else if (priority.is_number_integer()) {
    value = priority.get<int>();
  }
  if (value < 0 || value > 7) return Level::kUnknown;
  if (value <= 2) return Level::kFatal;
  if (value == 3) return Level::kError;
  if (value == 4) return Level::kWarn;
  return value == 7 ? Level::kDebug : Level::kInfo;
}

std::string_view StripNewline(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

struct Parsed {
  std::string inner;
  EnvelopeHints hints;
  bool piece = false;  // the line continues in the next envelope
  bool skip = false;   // an envelope carrying no line (journald MESSAGE null, "-- Boot" marker)
};

using envelope_markers::kFilebeatKey;
using envelope_markers::kLogKey;
using envelope_markers::kMarkerStarts;
using envelope_markers::kRealtimeKey;
using envelope_markers::kShipperKey;
using envelope_markers::kStreamKey;
using envelope_markers::MarkersAt;

// The marker keys of the JSON envelopes a line holds, found in one pass over its quotes
// (the same as looking for each quoted key with find(), at a fraction of the cost).
unsigned FindJsonMarkers(std::string_view line) {
  unsigned found = 0;
  // Each quote found, lowest first (bit `i << shift` for byte `base + i`): most close a
  // string or open one no marker starts like.
  const auto at_quotes = [&](size_t base, uint64_t bits, int shift) {
    while (bits != 0) {
      const size_t quote = base + (static_cast<size_t>(std::countr_zero(bits)) >> shift);
      if (quote + 1 < line.size() && kMarkerStarts[static_cast<unsigned char>(line[quote + 1])]) {
        found |= MarkersAt(line.substr(quote));
      }
      bits &= bits - 1;
    }
  };
  size_t at = 0;
#if defined(__SSE2__)
  for (; at + 16 <= line.size(); at += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line.data() + at));
    at_quotes(at, static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')))), 0);
  }
#endif
  // Eight bytes a step: exact per-byte equality with '"' (no borrow between bytes), flagged
  // at each byte's top bit.
  constexpr uint64_t kQuotes = 0x2222222222222222ULL;
  constexpr uint64_t kLows = 0x7F7F7F7F7F7F7F7FULL;
  for (; at + 8 <= line.size(); at += 8) {
    uint64_t word;
    std::memcpy(&word, line.data() + at, 8);
    const uint64_t x = word ^ kQuotes;
    at_quotes(at, ~(((x & kLows) + kLows) | x | kLows), 3);
  }
  for (; at < line.size(); ++at) {
    if (line[at] == '"') found |= MarkersAt(line.substr(at));
  }
  return found;
}

std::optional<Parsed> ParseJournaldJson(std::string_view line, unsigned markers) {
  if ((markers & kRealtimeKey) == 0) return std::nullopt;
  const Json object = Json::parse(line.begin(), line.end(), nullptr, false);
  if (object.is_discarded() || !object.is_object() || !object.contains("MESSAGE")) return std::nullopt;
  Parsed out;
  const Json& message = object["MESSAGE"];
  if (message.is_string()) {
    out.inner = message.get<std::string>();
  } else if (message.is_array()) {  // journald stores non-UTF-8 or binary messages as bytes
    for (const Json& byte : message) {
      if (byte.is_number_unsigned()) out.inner.push_back(static_cast<char>(byte.get<unsigned>()));
    }
  } else {
    out.skip = true;
  }
  out.inner = std::string(StripNewline(out.inner));
  const std::string micros = StringAt(object, "__REALTIME_TIMESTAMP");
  int64_t since_epoch = 0;
  // from_chars, not stoll: a number too large for 64 bits is no time, not an exception.
  const auto [end, error] = std::from_chars(micros.data(), micros.data() + micros.size(), since_epoch);
  if (!micros.empty() && error == std::errc() && end == micros.data() + micros.size() && since_epoch >= 0) {
    out.hints.time = TimePoint(Duration(since_epoch));
  }
  out.hints.host = NormalizeHost(StringAt(object, "_HOSTNAME"));
  if (auto it = object.find("PRIORITY"); it != object.end()) out.hints.level = PriorityLevel(*it);
  return out;
}

std::optional<Parsed> ParseFilebeat(std::string_view line, unsigned markers) {
  if ((markers & kFilebeatKey) == 0) return std::nullopt;
  const Json object = Json::parse(line.begin(), line.end(), nullptr, false);
  if (object.is_discarded() || !object.is_object()) return std::nullopt;
  const Json* message = FindDotted(object, "message");
  if (message == nullptr || !message->is_string()) return std::nullopt;
  Parsed out;
  out.inner = message->get<std::string>();
  out.hints.time = Stamp(StringAt(object, "@timestamp"));
  out.hints.host = NormalizeHost(StringAt(object, "host.name"));
  if (out.hints.host.empty()) out.hints.host = NormalizeHost(StringAt(object, "host.hostname"));
  out.hints.file = StringAt(object, "log.file.path");
  // The elasticsearch module's fields, when an ingest pipeline already parsed the line.
  const std::string level = StringAt(object, "log.level");
  if (!level.empty()) {
    out.hints.parsed = true;
    out.hints.level = ParseLevel(level);
    out.hints.node = StringAt(object, "elasticsearch.node.name");
    out.hints.cluster = StringAt(object, "elasticsearch.cluster.name");
    out.hints.logger = StringAt(object, "elasticsearch.component");
    if (out.hints.logger.empty()) out.hints.logger = StringAt(object, "log.logger");
    if (out.hints.logger.empty()) out.hints.logger = StringAt(object, "elasticsearch.slowlog.logger");
    out.hints.dataset = StringAt(object, "event.dataset");
  }
  return out;
}

// The time a shipper stamped its event with: RFC 3339 text, or (Fluent Bit's "date") seconds
// since the epoch, fractions and all.
std::optional<TimePoint> ShipperStamp(const Json& object) {
  for (std::string_view key : {"@timestamp", "timestamp", "time", "date"}) {
    const Json* value = FindDotted(object, key);
    if (value == nullptr) continue;
    if (value->is_string()) return Stamp(value->get_ref<const std::string&>());
    // Seconds since the epoch, up to the last a stamp can name (9999-12-31): past that, no time.
    if (value->is_number() && value->get<double>() > 0 && value->get<double>() < 253402300800.0) {
      return TimePoint(std::chrono::duration_cast<Duration>(std::chrono::duration<double>(value->get<double>())));
    }
  }
  return std::nullopt;
}

std::optional<Parsed> ParseShipperJson(std::string_view line, unsigned markers) {
  // ES's own lines have none of these keys; those with both "log" and "stream" are
  // docker-json's.
  const bool docker = (markers & kLogKey) != 0 && (markers & kStreamKey) != 0;
  const bool fluent_bit = (markers & (kLogKey | kStreamKey)) != 0 && !docker;
  if ((markers & kShipperKey) == 0 && !fluent_bit) return std::nullopt;
  const Json object = Json::parse(line.begin(), line.end(), nullptr, false);
  if (object.is_discarded() || !object.is_object()) return std::nullopt;
  const Json* text = nullptr;
  for (std::string_view key : {"message", "log", "event.original"}) {
    text = FindDotted(object, key);
    if (text != nullptr && text->is_string()) break;
    text = nullptr;
  }
  if (text == nullptr) return std::nullopt;
  Parsed out;
  out.inner = std::string(StripNewline(text->get_ref<const std::string&>()));
  // A containerd line's tag, as Fluent Bit's classic cri parser keeps it: P, part of a longer line.
  out.piece = StringAt(object, "logtag") == "P";
  out.hints.time = ShipperStamp(object);
  for (std::string_view key : {"host.name", "host.hostname", "host", "hostname"}) {
    if (std::string host = StringAt(object, key); !host.empty()) {
      out.hints.host = NormalizeHost(std::move(host));
      break;
    }
  }
  for (std::string_view key : {"log.file.path", "file", "path"}) {
    if (std::string file = StringAt(object, key); !file.empty()) {
      out.hints.file = std::move(file);
      break;
    }
  }
  return out;
}

std::optional<Parsed> ParseDockerJson(std::string_view line, unsigned markers) {
  if ((markers & kStreamKey) == 0 || (markers & kLogKey) == 0 || (markers & kShipperKey) != 0) return std::nullopt;
  const Json object = Json::parse(line.begin(), line.end(), nullptr, false);
  if (object.is_discarded() || !object.is_object()) return std::nullopt;
  auto log = object.find("log");
  if (log == object.end() || !log->is_string()) return std::nullopt;
  Parsed out;
  const std::string& text = log->get_ref<const std::string&>();
  // Docker splits lines longer than 16 KiB; only the last piece ends with a newline. Fluent
  // Bit's record of a containerd line has no newline, and says which it is (P, a piece).
  std::string tag = StringAt(object, "_p");
  if (tag.empty()) tag = StringAt(object, "logtag");
  out.piece = tag.empty() ? text.empty() || text.back() != '\n' : tag == "P";
  out.inner = std::string(StripNewline(text));
  out.hints.time = Stamp(StringAt(object, "time"));
  return out;
}

// "<stamp> " at the start of `line`, where the stamp is an RFC 3339 time.
std::optional<ParsedTimestamp> LeadingStamp(std::string_view line) {
  if (line.size() < 20 || !IsDigit(line[0])) return std::nullopt;
  auto parsed = ParseTimestamp(line, TimeZone::Utc());
  if (!parsed || parsed->length >= line.size() || line[parsed->length] != ' ') return std::nullopt;
  return parsed;
}

std::optional<Parsed> ParseCri(std::string_view line) {
  auto stamp = LeadingStamp(line);
  if (!stamp) return std::nullopt;
  std::string_view rest = line.substr(stamp->length + 1);
  if (!rest.starts_with("stdout ") && !rest.starts_with("stderr ")) return std::nullopt;
  rest.remove_prefix(7);
  const size_t space = rest.find(' ');
  const std::string_view tag = rest.substr(0, space);
  if (tag.empty() || (tag[0] != 'F' && tag[0] != 'P')) return std::nullopt;
  Parsed out;
  out.piece = tag[0] == 'P';
  out.inner = space == std::string_view::npos ? std::string() : std::string(rest.substr(space + 1));
  out.hints.time = stamp->time;
  return out;
}

// kubectl logs: "[pod/<pod>/<container>] " (--prefix), then "<RFC3339Nano> " (--timestamps);
// one of the two at least.
std::optional<Parsed> ParseKubectl(std::string_view line) {
  Parsed out;
  if (line.starts_with("[pod/")) {
    const size_t slash = line.find('/', 5);
    const size_t close = line.find("] ", 5);
    if (slash == std::string_view::npos || close == std::string_view::npos || slash > close) return std::nullopt;
    out.hints.host = NormalizeHost(std::string(line.substr(5, slash - 5)));
    line.remove_prefix(close + 2);
  }
  if (auto stamp = LeadingStamp(line); stamp && line[stamp->length - 1] == 'Z') {
    out.hints.time = stamp->time;
    line.remove_prefix(stamp->length + 1);
  } else if (out.hints.host.empty()) {
    return std::nullopt;
  }
  out.inner = std::string(line);
  return out;
}

// "host ident[pid]: message" after a journal stamp.
bool TakeJournalHost(std::string_view rest, Parsed* out) {
  const size_t host_end = rest.find(' ');
  if (host_end == 0 || host_end == std::string_view::npos) return false;
  const size_t ident_end = rest.find(": ", host_end + 1);
  if (ident_end == std::string_view::npos) return false;
  const std::string_view ident = rest.substr(host_end + 1, ident_end - host_end - 1);
  if (ident.empty() || ident.find(' ') != std::string_view::npos) return false;
  out->hints.host = NormalizeHost(std::string(rest.substr(0, host_end)));
  out->inner = std::string(rest.substr(ident_end + 2));
  return true;
}

// journalctl -o short / short-precise: "Nov 29 02:54:11[.123456] host ident[pid]: msg". The
// year is not written: the current one, or last year for a date that would be in the future.
std::optional<TimePoint> ShortJournalStamp(std::string_view line, const TimeZone& zone,
                                           size_t* length) {
  static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (line.size() < 16 || line[3] != ' ') return std::nullopt;
  const size_t month_at = kMonths.find(line.substr(0, 3));
  if (month_at == std::string_view::npos || month_at % 3 != 0) return std::nullopt;
  const int day = (line[4] == ' ' ? 0 : (line[4] - '0') * 10) + (line[5] - '0');
  using namespace std::chrono;
  const year_month_day today{floor<days>(system_clock::now())};
  char stamp[40];
  std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT", static_cast<int>(today.year()),
                static_cast<int>(month_at / 3 + 1), day);
  size_t end = 7;
  while (end < line.size() && line[end] != ' ') ++end;
  std::string full = std::string(stamp) + std::string(line.substr(7, end - 7));
  auto parsed = ParseTimestamp(full, zone);
  if (!parsed || parsed->length != full.size()) return std::nullopt;
  *length = end;
  TimePoint time = parsed->time;
  if (time > system_clock::now() + days(1)) time -= days(365);
  return time;
}

std::optional<Parsed> ParseJournaldText(std::string_view line, const TimeZone& zone) {
  Parsed out;
  if (line.starts_with("-- ") && (line.find("Logs begin at") != std::string_view::npos ||
                                  line.find("Boot ") != std::string_view::npos ||
                                  line.find("No entries") != std::string_view::npos)) {
    out.skip = true;
    return out;
  }
  size_t length = 0;
  if (auto stamp = LeadingStamp(line); stamp && line[stamp->length - 1] != 'Z') {
    out.hints.time = stamp->time;  // short-iso(-precise): always carries its offset
    length = stamp->length;
  } else if (auto short_stamp = ShortJournalStamp(line, zone, &length)) {
    out.hints.time = short_stamp;
  } else {
    return std::nullopt;
  }
  if (length >= line.size() || !TakeJournalHost(line.substr(length + 1), &out)) return std::nullopt;
  return out;
}

std::optional<Parsed> ParseCompose(std::string_view line) {
  size_t name_end = 0;
  while (name_end < line.size() && (std::isalnum(static_cast<unsigned char>(line[name_end])) ||
                                    line[name_end] == '_' || line[name_end] == '-' || line[name_end] == '.')) {
    ++name_end;
  }
  if (name_end == 0 || name_end >= line.size() || line[name_end] != ' ') return std::nullopt;
  size_t bar = name_end;
  while (bar < line.size() && line[bar] == ' ') ++bar;
  if (bar >= line.size() || line[bar] != '|') return std::nullopt;
  Parsed out;
  std::string_view rest = line.substr(bar + 1);
  if (rest.starts_with(' ')) rest.remove_prefix(1);
  out.inner = std::string(rest);
  out.hints.host = NormalizeHost(std::string(line.substr(0, name_end)));
  return out;
}

// A record that was pasted with indentation (a log quoted in a ticket, tabs and all).
std::optional<Parsed> ParseIndented(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  if (first == 0 || first == std::string_view::npos) return std::nullopt;
  const std::string_view rest = line.substr(first);
  const bool json_record = rest.starts_with("{\"");
  const bool plain_record = rest.size() > 5 && rest[0] == '[' && IsDigit(rest[1]) && IsDigit(rest[4]) &&
                            rest[5] == '-';
  if (!json_record && !plain_record) return std::nullopt;
  Parsed out;
  out.inner = std::string(rest);
  return out;
}

std::optional<Parsed> ParseKind(int kind, std::string_view line, const TimeZone& zone, unsigned markers) {
  switch (kind) {
    case kJournaldJson: return ParseJournaldJson(line, markers);
    case kFilebeat: return ParseFilebeat(line, markers);
    case kDockerJson: return ParseDockerJson(line, markers);
    case kShipperJson: return ParseShipperJson(line, markers);
    case kCri: return ParseCri(line);
    case kKubectl: return ParseKubectl(line);
    case kJournaldText: return ParseJournaldText(line, zone);
    case kCompose: return ParseCompose(line);
    case kIndented: return ParseIndented(line);
    default: return std::nullopt;
  }
}

// "[" and a digit: a plain record's stamp ("[2026-11-29T..."), never an envelope's start
// (kubectl's prefix is "[pod/").
bool StartsPlainRecord(std::string_view line) { return line.size() > 1 && line[0] == '[' && IsDigit(line[1]); }

// The envelopes worth trying for a line, judged by its first byte.
bool MayBe(int kind, char first) {
  switch (kind) {
    case kJournaldJson:
    case kFilebeat:
    case kDockerJson:
    case kShipperJson: return first == '{';
    case kCri: return IsDigit(first);
    case kKubectl: return IsDigit(first) || first == '[';
    case kJournaldText: return IsDigit(first) || (first >= 'A' && first <= 'Z') || first == '-';
    case kCompose: return std::isalnum(static_cast<unsigned char>(first)) != 0;
    case kIndented: return first == ' ' || first == '\t';
    default: return false;
  }
}

}  // namespace

const std::vector<std::string_view>& EnvelopeNames() {
  static const std::vector<std::string_view> names(std::begin(kKindNames) + 1,
                                                   std::begin(kKindNames) + kIndented);
  return names;
}

std::string_view EnvelopeShape(std::string_view name) {
  for (int kind = 1; kind < kKindCount; ++kind) {
    if (kKindNames[kind] == name) return kKindShapes[kind];
  }
  return "";
}

bool EnvelopeUnwrapper::Knows(std::string_view name) {
  for (std::string_view known : EnvelopeNames()) {
    if (known == name) return true;
  }
  return false;
}

EnvelopeUnwrapper::EnvelopeUnwrapper(std::string forced, size_t max_line_bytes, const TimeZone* zone)
    : forced_(std::move(forced)), max_line_bytes_(max_line_bytes), zone_(zone) {}

EnvelopeUnwrapper::Result EnvelopeUnwrapper::TryEnvelope(int kind, std::string_view line) {
  if (line.empty() || !MayBe(kind, line[0])) return Result::kNotMine;
  // The JSON envelopes' markers, looked up once per line.
  if (line[0] == '{' && markers_for_ != line.data()) {
    json_markers_ = FindJsonMarkers(line);
    markers_for_ = line.data();
  }
  std::optional<Parsed> parsed = ParseKind(kind, line, *zone_, json_markers_);
  if (!parsed) return Result::kNotMine;
  last_kind_ = kind;
  if (parsed->skip) return Result::kSkip;
  if (!joining_) {
    inner_ = std::move(parsed->inner);
    hints_ = std::move(parsed->hints);
    envelope_ = kKindNames[kind];
  } else if (inner_.size() < max_line_bytes_) {
    inner_.append(parsed->inner, 0, max_line_bytes_ - inner_.size());
  }
  joining_ = parsed->piece;
  return parsed->piece ? Result::kPiece : Result::kWhole;
}

bool EnvelopeUnwrapper::PassesThrough(std::string_view line) const {
  if (joining_ || !sniffing()) return false;
  if (StartsPlainRecord(line)) return true;  // as in Unwrap()
  const unsigned markers = line[0] == '{' ? FindJsonMarkers(line) : 0;
  for (int kind = 1; kind < kKindCount; ++kind) {
    if (MayBe(kind, line[0]) && ParseKind(kind, line, *zone_, markers)) return false;
  }
  return true;
}

EnvelopeUnwrapper::Result EnvelopeUnwrapper::Unwrap(std::string_view line) {
  if (line.empty()) return Result::kNotMine;
  markers_for_ = nullptr;  // a new line
  if (forced_ != "auto") {
    for (int kind = 1; kind < kKindCount; ++kind) {
      if (kKindNames[kind] == forced_) return TryEnvelope(kind, line);
    }
    return Result::kNotMine;  // forced to an inner format: no envelope
  }
  // No envelope starts as a plain record does: those of a plain log skip the sniffing.
  if (StartsPlainRecord(line)) return Result::kNotMine;
  if (last_kind_ != kNone) {
    const Result result = TryEnvelope(last_kind_, line);
    if (result != Result::kNotMine) return result;
  }
  for (int kind = 1; kind < kKindCount; ++kind) {
    if (kind == last_kind_) continue;
    const Result result = TryEnvelope(kind, line);
    if (result != Result::kNotMine) return result;
  }
  return Result::kNotMine;
}

}  // namespace foreshock
