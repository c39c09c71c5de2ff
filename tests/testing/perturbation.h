#pragma once

// Perturbations of log streams as the world delivers them, for metamorphic tests: the same
// logs with a JVM warning or junk before the first line, a stray line stamped years off, a
// node whose clock is minutes off, repeats, neighbours swapped, CRLF line ends, files split
// by rotation. Each works on the files' bytes, records kept byte for byte as written (a
// record is a line with a timestamp near its start and the lines after it without one: stack
// traces). Timestamps are shifted in place, in every ISO form and journald's microseconds.

#include <chrono>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace foreshock::testing {

struct LogFile {
  std::string name;  // file name, e.g. "es-data-3.log"
  std::string bytes;
};

// One record as written: its lines with their line ends, and the time of its first stamp.
struct RawRecord {
  std::string text;
  std::optional<std::chrono::system_clock::time_point> stamp;
};

std::vector<RawRecord> SplitRecords(const std::string& bytes);
std::string JoinRecords(const std::vector<RawRecord>& records);

// Every timestamp of `text` moved by `by`.
std::string ShiftStamps(const std::string& text, std::chrono::seconds by);

// The node a file belongs to: its name up to the first '.' or '_' ("es-data-2_index_search_slowlog.json"
// belongs to "es-data-2").
std::string NodeOfFile(const std::string& name);

// All records of all files as one stream, in time order (a file's own order kept for equal
// stamps, records without a stamp staying behind the one before): what a shipper delivers.
// With `skewed_node`, that node's records are then stamped `skew` off, where they arrived.
std::string MergedByTime(const std::vector<LogFile>& files, const std::string& skewed_node = "",
                         std::chrono::seconds skew = std::chrono::seconds(0));

enum class Expectation {
  kSameAlerts,      // exactly the clean stream's alerts, times to the millisecond
  kNoWarningLost,   // every firing and escalation of the clean stream still comes (skew)
  // Every alert of the clean stream still fires and reaches its highest stage (others may
  // come too: a line another node logs may now come before the chain it belongs to). For a skewed
  // node in separate files: nothing there tells the skew (each file is in order, the merge
  // trusts the stamps), so a chain whose steps two nodes log may see them out of order and
  // escalate past a step.
  kSameAlertsAndStages,
};

struct Perturbation {
  std::string name;
  Expectation expect = Expectation::kSameAlerts;        // for a merged stream
  Expectation expect_files = Expectation::kSameAlerts;  // for separate files
  // Only where it changes what is read: the cut stream is the same files for scan and replay.
  bool for_streams_only = false;
  std::function<std::vector<LogFile>(const std::vector<LogFile>&, std::mt19937*)> apply;
  // The merged stream a shipper delivers, when not MergedByTime(apply(...)): a skewed node's
  // lines arrive when they were written, stamped off.
  std::function<std::string(const std::vector<LogFile>&)> stream;
};

// The perturbations the issue lists, and a few more ways real streams differ from clean files.
std::vector<Perturbation> Perturbations();

}  // namespace foreshock::testing
