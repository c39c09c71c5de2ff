// Fuzzes every decoder: the input is decoded with each format --format accepts, and with
// auto. Property: whenever a decoder's fast path (DecodeHeader) vouches for a line, a full
// Decode() of it succeeds with the same time, node, cluster and message (a JSON message as
// it stands in the line, its escapes of the kinds the header says); the fast path
// decides which lines reach the matcher, so a broken promise there would silently lose
// precursors. And no
// envelope takes a line a decoder vouches for (the reader's quiet lane relies on it). On text
// without a line break, the header is the same when the caller vouches for that (one_line).
// And each line of the input, read in turn by one decoder set, keeps the first promise, and
// gets from a shape memo the shape it would get without one.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/time_zone.h"
#include "decode/decoder_registry.h"
#include "framing/envelope.h"
#include "fuzz_check.h"
#include "learn/record_shape.h"

using namespace foreshock;

// A part a JSON header handed over, as the full decode reads it, with the kinds of escape it
// holds in *kinds: the header lets through JSON's escapes, \u only for a control character.
static std::string Unescaped(std::string_view part, uint8_t* kinds) {
  std::string decoded;
  for (size_t i = 0; i < part.size(); ++i) {
    if (part[i] != '\\') {
      decoded += part[i];
      continue;
    }
    FUZZ_CHECK(i + 1 < part.size());
    const char kind = part[++i];
    switch (kind) {
      case 'n': decoded += '\n'; *kinds |= kEscapedWhitespace; break;
      case 't': decoded += '\t'; *kinds |= kEscapedWhitespace; break;
      case 'r': decoded += '\r'; *kinds |= kEscapedWhitespace; break;
      case '"': decoded += '"'; *kinds |= kEscapedQuote; break;
      case '\\': decoded += '\\'; *kinds |= kEscapedBackslash; break;
      case '/': decoded += '/'; *kinds |= kEscapedSlash; break;
      case 'b': decoded += '\b'; *kinds |= kEscapedControl; break;
      case 'f': decoded += '\f'; *kinds |= kEscapedControl; break;
      case 'u': {
        FUZZ_CHECK(i + 4 < part.size());
        const unsigned value = static_cast<unsigned>(std::stoul(std::string(part.substr(i + 1, 4)), nullptr, 16));
        FUZZ_CHECK(value < 0x20);
        decoded += static_cast<char>(value);
        *kinds |= kEscapedControl;
        i += 4;
        break;
      }
      default: FUZZ_CHECK(false && "an escape the header does not read");
    }
  }
  return decoded;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::vector<std::string> formats = [] {
    std::vector<std::string> names = {"auto"};
    for (const FormatInfo& format : KnownFormats()) names.emplace_back(format.name);
    return names;
  }();
  const DecodeOptions options;
  DecodeOptions one_line;
  one_line.one_line = true;
  const bool has_break = text.find('\n') != std::string_view::npos;
  static const TimeZone zone = TimeZone::Utc();
  // What a header vouched for promises: a full decode of the same text succeeds and reads
  // the same time, node, cluster and message.
  const auto check_vouched = [&](std::string_view vouched_text, const RecordHeader& header, DecoderSet& decoders) {
    LogRecord full;
    std::string why;
    std::string_view used;
    FUZZ_CHECK(decoders.Decode(vouched_text, options, &full, &why, &used) == Decoder::Outcome::kDecoded);
    FUZZ_CHECK(full.has_time == header.has_time);
    FUZZ_CHECK(!full.has_time || full.time == header.time);
    FUZZ_CHECK(full.node == header.node);
    FUZZ_CHECK(full.cluster == header.cluster);
    FUZZ_CHECK(!header.searchable().empty());
    const bool json = used == "ecs" || used == "es-json";
    const std::string_view message = header.searchable().front();
    uint8_t kinds = 0;
    FUZZ_CHECK((json ? Unescaped(message, &kinds) : std::string(message)) == full.message());
    FUZZ_CHECK((kinds & ~header.escapes) == 0);  // every kind the message holds is said
  };
  for (const std::string& format : formats) {
    auto set = DecoderSet::Create(format);
    FUZZ_CHECK(set.ok());
    LogRecord full;
    std::string why;
    std::string_view used;
    const Decoder::Outcome outcome = (*set)->Decode(text, options, &full, &why, &used);
    FUZZ_CHECK(outcome != Decoder::Outcome::kMalformed || !why.empty());
    FUZZ_CHECK(full.message_length <= full.text.size());

    auto fresh = DecoderSet::Create(format);
    RecordHeader header;
    const bool vouched = (*fresh)->DecodeHeader(text, options, &header, &used);
    if (vouched) {
      check_vouched(text, header, **fresh);
      for (std::string_view part : header.searchable()) {
        FUZZ_CHECK(part.data() >= text.data() && part.data() + part.size() <= text.data() + text.size());
      }
      // And no envelope takes a line vouched for: the reader's quiet lane skips the unwrapper.
      EnvelopeUnwrapper unwrapper("auto", 1 << 20, &zone);
      bool passed_through = false;
      unwrapper.Add(text, [&](std::string_view inner, const EnvelopeHints&, std::string_view envelope) {
        passed_through = envelope.empty() && inner == text;
      });
      FUZZ_CHECK(text.empty() || passed_through);
    }
    if (!has_break) {
      auto again = DecoderSet::Create(format);
      RecordHeader line_header;
      std::string_view line_used;
      const bool line_vouched = (*again)->DecodeHeader(text, one_line, &line_header, &line_used);
      FUZZ_CHECK(line_vouched == vouched);
      if (line_vouched) {
        FUZZ_CHECK(line_header.time == header.time && line_header.node == header.node &&
                   line_header.cluster == header.cluster);
        FUZZ_CHECK(std::equal(line_header.searchable().begin(), line_header.searchable().end(),
                              header.searchable().begin(), header.searchable().end()));
      }
    }
    // Line by line through one decoder set: later lines meet the layouts earlier ones
    // taught the JSON header (JsonLineShapes), and still read as the full decode does. And
    // a reader's shape memo, asked each line's shape in turn, tells the one ShapeOf() does,
    // whatever it remembers.
    auto lines = DecoderSet::Create(format);
    auto levelled = DecoderSet::Create(format);
    DecodeOptions with_level = one_line;
    with_level.header_level = true;
    ShapeMemo memo;
    for (size_t begin = 0; begin <= text.size();) {
      const size_t end = std::min(text.find('\n', begin), text.size());
      const std::string_view line = text.substr(begin, end - begin);
      begin = end + 1;
      RecordHeader line_header;
      std::string_view line_used;
      if (!(*lines)->DecodeHeader(line, one_line, &line_header, &line_used)) continue;
      check_vouched(line, line_header, **DecoderSet::Create(format));
      RecordHeader shaped;
      if ((*levelled)->DecodeHeader(line, with_level, &shaped, &line_used)) {
        FUZZ_CHECK(memo.ShapeOf(shaped) == ShapeOf(shaped));
      }
    }
  }
  return 0;
}
