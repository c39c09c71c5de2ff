#include "decode/decoder_registry.h"

#include <functional>

#include "decode/es_json_decoder.h"
#include "decode/es_plain_decoder.h"
#include "decode/jvm_gc_decoder.h"
#include "decode/text_decoder.h"

namespace foreshock {
namespace {

struct FormatRow {
  FormatInfo info;
  std::function<std::unique_ptr<Decoder>()> make;
};

const std::vector<FormatRow>& FormatTable() {
  static const std::vector<FormatRow> table = {
      {{"ecs", "Elasticsearch 8 ECS JSON (@timestamp, log.level, elasticsearch.node.name)"},
       [] { return std::make_unique<EsJsonDecoder>(EsJsonDecoder::Dialect::kEcs); }},
      {{"es-json", "Elasticsearch 7 JSON (timestamp, level, component, node.name, stacktrace)"},
       [] { return std::make_unique<EsJsonDecoder>(EsJsonDecoder::Dialect::kEs7); }},
      {{"jvm-gc", "JVM GC log: JDK 9+ [time][pid][level][tags] msg, or Java 8 time: uptime: msg"},
       [] { return std::make_unique<JvmGcDecoder>(); }},
      {{"es-plain", "Elasticsearch/OpenSearch plain text: [time][LEVEL][logger] [node] msg"},
       [] { return std::make_unique<EsPlainDecoder>(); }},
      {{"text", "any other readable line (JVM errors, bare exception text); no time of its own"},
       [] { return std::make_unique<TextDecoder>(); }},
  };
  return table;
}

}  // namespace

const std::vector<FormatInfo>& KnownFormats() {
  static const std::vector<FormatInfo> formats = [] {
    std::vector<FormatInfo> out;
    for (const FormatRow& row : FormatTable()) out.push_back(row.info);
    return out;
  }();
  return formats;
}

Result<std::unique_ptr<DecoderSet>> DecoderSet::Create(std::string_view format) {
  std::vector<std::unique_ptr<Decoder>> decoders;
  for (const FormatRow& row : FormatTable()) {
    // Text stays the last resort of a forced format too: nothing readable is lost.
    if (format == "auto" || format == row.info.name || row.info.name == "text") {
      decoders.push_back(row.make());
    }
  }
  if (format != "auto" && decoders.size() == 1 && format != "text") {
    std::string known = "auto";
    for (const FormatInfo& info : KnownFormats()) known += ", " + std::string(info.name);
    return Status::InvalidArgument("unknown format '" + std::string(format) + "' (known: " +
                                   known + ")");
  }
  return std::unique_ptr<DecoderSet>(new DecoderSet(std::move(decoders)));
}

DecoderSet::DecoderSet(std::vector<std::unique_ptr<Decoder>> decoders) : decoders_(std::move(decoders)) {
  for (const auto& decoder : decoders_) names_.push_back(decoder->name());
}

Decoder::Outcome DecoderSet::Decode(std::string_view text, const DecodeOptions& options,
                                    LogRecord* record, std::string* why,
                                    std::string_view* format) {
  Decoder::Outcome result = Decoder::Outcome::kNotMine;
  why->clear();
  *format = {};
  for (size_t attempt = 0; attempt < decoders_.size(); ++attempt) {
    // The last format that worked goes first; the others follow in table order.
    const size_t index = attempt == 0 ? last_used_ : attempt - (attempt <= last_used_ ? 1 : 0);
    record->Clear();
    std::string reason;
    const Decoder::Outcome outcome = decoders_[index]->Decode(text, options, record, &reason);
    if (outcome == Decoder::Outcome::kDecoded) {
      // A record that broke one format's rules but reads as text is kept as text: searched,
      // and still reported as malformed through *why.
      const bool fallback = result == Decoder::Outcome::kMalformed;
      // Never lock onto text: the next record gets every real format first.
      if (!fallback && index + 1 < decoders_.size()) last_used_ = index;
      *format = decoders_[index]->name();
      return fallback ? Decoder::Outcome::kMalformed : outcome;
    }
    if (outcome == Decoder::Outcome::kMalformed && !record->text.empty()) {
      *why = std::string(decoders_[index]->name()) + ": " + reason;
      *format = decoders_[index]->name();
      return outcome;  // the decoder salvaged the record
    }
    if (outcome == Decoder::Outcome::kMalformed && result == Decoder::Outcome::kNotMine) {
      result = outcome;
      *why = std::string(decoders_[index]->name()) + ": " + reason;
    }
  }
  return result;
}

}  // namespace foreshock
