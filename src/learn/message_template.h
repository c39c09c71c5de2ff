#pragma once

// What a log message says with the values taken out: its template, and the exception classes
// a record names. Two lines that differ only in values (a node, a size, a duration, an index,
// a shard, an id, an address, a path) give the same template; different messages give
// different ones. Made for what ES writes into its messages, as Drain's masking is made for
// logs in general: what ES brackets (`[orders-2026.11][3]`, `[16.2gb]`, `[es-data-2]`; a
// setting's name stays), node descriptors (`{es-data-2}{aB3..}{10.0.0.3}{10.0.0.3:9300}{dimr}`),
// tokens holding a digit (sizes, durations, addresses, UUIDs), a `key=value`'s value, paths,
// long ids, and the writing node's and cluster's names become `<*>`; a long message is cut. Exception classes are read from the whole text (message and exception text): Java
// class names (`org.elasticsearch.search.TooManyScrollContextsException`, `Caused by:`
// lines, `nested: XException[`, the classes inside a stack trace's message lines; frames are
// passed over) and ES's REST error types (`circuit_breaking_exception`), each by its simple
// CamelCase name, so both spellings of one class are one. Pure functions, thread-safe.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "decode/decoder.h"

namespace foreshock {

inline constexpr size_t kMaxTemplateBytes = 240;

// The template of `message` (its first line only), given the node and cluster that wrote it.
std::string TemplateOf(std::string_view message, std::string_view node = {}, std::string_view cluster = {});

// What the novelty detector knows a record by without decoding it, from its header
// (read with DecodeOptions::header_level). `id` hashes its level, logger and dataset as
// they stand, and its text's parts with each value taken out: a piece of text between
// separators (those TemplateOf() splits tokens at, backslashes and line breaks) that holds a digit,
// unless it may name a class ("Http2Exception"). Two records of one id, of the same node and
// cluster, with messages under kMaxShapedMessageBytes and no control-character escape, have
// the same template, exception classes, logger, level and dataset: TemplateOf() masks every
// token holding a digit, whatever it holds besides, and ExceptionClassesIn() reads digits only
// in names ending "Exception" or "Error". `values` hashes the pieces taken out: with the id,
// node and time it tells one record from another.
struct RecordShape {
  uint64_t id = 0;
  uint64_t values = 0;
};
RecordShape ShapeOf(Level level, std::string_view logger, std::string_view dataset,
                    std::span<const std::string_view> parts);
inline RecordShape ShapeOf(const RecordHeader& header) {
  return ShapeOf(header.level, header.logger, header.dataset, header.searchable());
}
// The same of a record decoded in full, from its fields and its text (escapes undone): for
// records the reader did not shape. Its ids are of another kind than a header's (a JSON
// header's logger has its quotes): keep them apart.
RecordShape ShapeOf(const LogRecord& record);
inline constexpr size_t kMaxShapedMessageBytes = 1000;

// The exception classes `text` names, by simple name, in the order they first appear (a
// wrapper before what it wraps: "Caused by:" comes later in a trace).
std::vector<std::string> ExceptionClassesIn(std::string_view text);

}  // namespace foreshock
