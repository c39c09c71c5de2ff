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

// A record as it arrives: which file it is written to, and its bytes.
struct Arrival {
  size_t file = 0;
  std::string text;
  std::chrono::system_clock::time_point time;  // when it is written
};

// The records of all files in the order they are written, as a node writes its files and a
// shipper delivers them: by time (a record stands where the middle stamp of itself and its
// two neighbours in its file puts it, so a stray stamp stays where it was written; a file's
// own order is kept for equal times). With `skewed_node`, that node's records are stamped
// `skew` off where they arrive.
std::vector<Arrival> ArrivalOrder(const std::vector<LogFile>& files, const std::string& skewed_node = "",
                                  std::chrono::seconds skew = std::chrono::seconds(0));
// ArrivalOrder() as one stream.
std::string MergedByTime(const std::vector<LogFile>& files);

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
  // For a skewed node: how its lines arrive among the others', when they were written but
  // stamped off (ArrivalOrder() of the clean files with these), where apply() alone would
  // move them.
  std::chrono::seconds skew{0};
};

// The perturbations the issue lists, and a few more ways real streams differ from clean files.
std::vector<Perturbation> Perturbations();

}  // namespace foreshock::testing
