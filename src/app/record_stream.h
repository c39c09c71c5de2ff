#pragma once

// A RecordStream hands out one input's decoded records in the order they were written:
// a RecordReader on the pipeline's thread, or a PrefetchingReader that decodes on a thread
// of its own. The Pipeline merges several streams by event time.

#include <string>

#include "base/result.h"
#include "base/time.h"
#include "decode/log_record.h"

namespace foreshock {

class RecordStream {
 public:
  enum class Next { kRecord, kIdle, kEnd };

  virtual ~RecordStream() = default;
  RecordStream(const RecordStream&) = delete;
  RecordStream& operator=(const RecordStream&) = delete;

  // Fills *record with the next record. kIdle: nothing arrived within `wait` (live pipes
  // only); kEnd: the input is exhausted. An error Status means the input failed.
  virtual Result<Next> Read(LogRecord* record, Duration wait) = 0;
  // Passes over the next records, counting them as read, when the stream can tell without
  // handing them out that each is one line the prefilter rules out (a quiet-lane record),
  // and while their event times stay before `before`. Returns how many, with the newest of
  // their times in *newest; Read() then hands out the first record not passed over. The
  // caller knows such records would change nothing but counts and watermarks. A stream
  // that cannot tell passes over none.
  virtual uint64_t SkipQuietRun(TimePoint /*before*/, TimePoint* /*newest*/) { return 0; }
  // False when SkipQuietRun() never passes over anything: callers need not ask it.
  virtual bool skips_quiet_runs() const { return false; }
  virtual const std::string& name() const = 0;
  virtual bool live() const = 0;
  // After kEnd: the input ended early, damaged (Source::cut_short()).
  virtual bool cut_short() const { return false; }

 protected:
  RecordStream() = default;
};

}  // namespace foreshock
