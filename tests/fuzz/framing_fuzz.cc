// Fuzzes the framing stage: bytes fed in chunks of varying size to LineFramer, each line
// through EnvelopeUnwrapper (auto-detecting every envelope) and RecordAssembler.
// Properties: no line holds a newline or exceeds the cap, lines plus newlines account for
// every byte when nothing was cut, offsets only grow, and no record exceeds its byte cap.

#include <cstdint>
#include <string_view>

#include "framing/envelope.h"
#include "framing/line_framer.h"
#include "framing/record_assembler.h"
#include "fuzz_check.h"

using namespace foreshock;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 64;  // the first byte picks how the stream is cut
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  constexpr size_t kMaxLine = 256;
  constexpr size_t kMaxRecord = 2048;
  LineFramer framer(kMaxLine);
  EnvelopeUnwrapper unwrapper("auto", kMaxLine, &TimeZone::Utc());
  RecordAssembler assembler(AssemblerLimits{kMaxRecord, 20});

  size_t line_bytes = 0;
  size_t lines = 0;
  bool any_truncated = false;
  uint64_t last_end = 0;
  auto on_record = [&](const RawRecord& record) {
    FUZZ_CHECK(record.text.size() <= kMaxRecord);
    FUZZ_CHECK(record.line_count >= 1);
  };
  auto on_line = [&](std::string_view line, bool truncated) {
    FUZZ_CHECK(line.find('\n') == std::string_view::npos);
    FUZZ_CHECK(line.size() <= kMaxLine);
    FUZZ_CHECK(framer.line_end() >= last_end && framer.line_end() <= input.size());
    last_end = framer.line_end();
    any_truncated |= truncated;
    line_bytes += line.size();
    ++lines;
    unwrapper.Add(line, [&](std::string_view inner, const EnvelopeHints& hints, std::string_view envelope) {
      assembler.Add(inner, truncated, lines, framer.line_end(), hints, envelope, on_record);
    });
  };
  for (size_t at = 0; at < input.size(); at += chunk) framer.Feed(input.substr(at, chunk), on_line);
  framer.Flush(on_line);
  assembler.Flush(on_record);

  if (!any_truncated) {
    // Every byte is in a line or is a line's "\n" (or the "\r" of a "\r\n").
    size_t newlines = 0, carriage_returns = 0;
    for (char c : input) {
      newlines += c == '\n';
      carriage_returns += c == '\r';
    }
    FUZZ_CHECK(line_bytes + newlines <= input.size());
    FUZZ_CHECK(line_bytes + newlines + carriage_returns >= input.size());
  }
  return 0;
}
