#pragma once

// What the novelty detector knows a record by without decoding it, from its header (read
// with DecodeOptions::header_level): its shape. A shape's text is its level, logger and
// dataset as they stand, then its text's parts with each value taken out: a piece (see
// shape_piece.h) that holds a digit becomes a mark, unless it may name a class
// ("Http2Exception"). ShapeMemo tells the shape of a record like the one before it by reading
// the two side by side, without writing or hashing the record's shape text.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "decode/decoder.h"

namespace foreshock {

// `id` hashes a shape's text. Two records of one id, of the same node and cluster, with
// messages under kMaxShapedMessageBytes and no control-character escape, have the same
// template, exception classes, logger, level and dataset: TemplateOf() masks every token
// holding a digit, whatever it holds besides, and ExceptionClassesIn() reads digits only in
// names ending "Exception" or "Error". `values` hashes the parts as they stand: within one
// id only the values taken out differ, so with the id, node and time it tells one record from
// another.
struct RecordShape {
  uint64_t id = 0;
  uint64_t values = 0;
  bool operator==(const RecordShape&) const = default;
};
RecordShape ShapeOf(Level level, std::string_view logger, std::string_view dataset,
                    std::span<const std::string_view> parts);
inline RecordShape ShapeOf(const RecordHeader& header) {
  return ShapeOf(header.level, header.logger, header.dataset, header.searchable());
}
// A record's RecordShape::values, from its parts (a header's searchable ones).
uint64_t ShapeValues(std::span<const std::string_view> parts);
// The same of a record decoded in full, from its fields and its text (escapes undone): for
// records the reader did not shape. Its ids are of another kind than a header's (a JSON
// header's logger has its quotes): keep them apart.
RecordShape ShapeOf(const LogRecord& record);
inline constexpr size_t kMaxShapedMessageBytes = 1000;

// ShapeOf(header), always the same, for one reader's records. It remembers the last two
// records shaped in full per slot (chosen by level, logger and dataset sizes), and where the
// values they took out were, and reads a record against them: where the two differ only
// inside values that hold a digit in both, the shape is the one remembered. Most often they
// differ only in digits, which is told thirty-two bytes a step. Otherwise the record is
// shaped in full and remembered in place of the other. A slot whose records keep changing
// shape (one logger writing many messages in turn) is left to ShapeOf() but now and then.
class ShapeMemo {
 public:
  // ShapeOf(header).id; its values are ShapeValues(header.searchable()), worked out where
  // they are needed.
  uint64_t IdOf(const RecordHeader& header);
  RecordShape ShapeOf(const RecordHeader& header) { return {IdOf(header), ShapeValues(header.searchable())}; }

  // A value taken out of a part: bytes [begin, end) of part `part`.
  struct ValueSpan {
    size_t part = 0;
    size_t begin = 0;
    size_t end = 0;
  };

 private:
  struct Remembered {
    Level level = Level::kUnknown;
    std::string logger;
    std::string dataset;
    std::array<std::string, RecordHeader::kMaxParts> parts;
    size_t part_count = 0;
    std::vector<ValueSpan> values;  // in the order the shape takes them out
    bool kept_digits = false;       // a piece holding a digit was kept, naming a class
    uint64_t id = 0;
    bool used = false;
  };
  // Records of one level, logger and dataset size share a slot. It remembers the last two
  // shapes read in full (a logger writes a few messages in turn), the one last of the shape
  // first. A slot whose records keep changing shape (one logger writing many messages in
  // turn) is read against only now and then: after kMissesBeforeRest records in a row of
  // neither shape, one in kRest.
  struct Slot {
    std::array<Remembered, 2> shapes;
    size_t last = 0;  // the index in `shapes` of the one last of the shape
    uint32_t misses = 0;
    uint32_t since_tried = 0;
  };
  static constexpr uint32_t kMissesBeforeRest = 4;
  static constexpr uint32_t kRest = 32;
  // Records longer than this (a long stack trace) are shaped in full, never remembered: a
  // reader's memo stays small, whatever it reads.
  static constexpr size_t kMaxRememberedBytes = 4096;
  static constexpr size_t kSlots = 16;
  // Whether the record's shape is `remembered`'s; false when it may not be.
  static bool ShapedAs(const Remembered& remembered, const RecordHeader& header);

  std::array<Slot, kSlots> slots_;
};

}  // namespace foreshock
