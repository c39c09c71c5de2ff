#include "decode/es_plain_decoder.h"

#include "base/timestamp_parser.h"

namespace foreshock {
namespace {

std::string_view Trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(' ');
  return text.substr(begin, end - begin + 1);
}

// Reads "[content]" at the start of *rest, advancing past it. False if absent.
bool TakeBracketed(std::string_view* rest, std::string_view* content) {
  if (rest->empty() || rest->front() != '[') return false;
  const size_t close = rest->find(']');
  if (close == std::string_view::npos) return false;
  *content = rest->substr(1, close - 1);
  rest->remove_prefix(close + 1);
  return true;
}

}  // namespace

Decoder::Outcome EsPlainDecoder::Decode(std::string_view text, const DecodeOptions& options,
                                        LogRecord* record, std::string* why) const {
  const size_t newline = text.find('\n');
  std::string_view rest = text.substr(0, newline);
  std::string_view stamp;
  if (!TakeBracketed(&rest, &stamp)) return Outcome::kNotMine;
  auto parsed = ParseTimestamp(stamp, *options.zone);
  if (!parsed) return Outcome::kNotMine;
  std::string_view level;
  std::string_view logger;
  if (!TakeBracketed(&rest, &level) || !TakeBracketed(&rest, &logger)) {
    *why = "plain record without [level][logger] after its timestamp";
    return Outcome::kMalformed;
  }
  record->time = parsed->time;
  record->has_time = true;
  record->level = ParseLevel(Trim(level));
  record->logger.assign(Trim(logger));

  // " [node] message": the node field is absent in the deprecation log, so take a bracket
  // only when a space or the end of the line follows it.
  if (rest.starts_with(" [")) {
    std::string_view after = rest.substr(1);
    std::string_view node;
    if (TakeBracketed(&after, &node) && (after.empty() || after.front() == ' ')) {
      record->node.assign(node);
      rest = after;
    }
  }
  if (rest.starts_with(' ')) rest.remove_prefix(1);
  record->text.assign(rest);
  record->message_length = record->text.size();
  if (newline != std::string_view::npos) record->text.append(text.substr(newline));
  return Outcome::kDecoded;
}

}  // namespace foreshock
