#pragma once

// PrefetchingReader runs a RecordReader on a thread of its own: decompression, framing and
// decoding of one input proceed in parallel with the other inputs and with the pipeline,
// which merges the streams by event time and so keeps the output in order. Records pass in
// batches through a bounded queue, so memory stays flat whatever the input's size; consumed
// batches go back to the reading thread with their buffers, so records cost no allocation. A
// `keep` predicate (replay's --from/--to/--node) drops records on the reading thread.
// After kEnd, reader() gives the finished reader's counters.

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "app/record_reader.h"

namespace foreshock {

class PrefetchingReader final : public RecordStream {
 public:
  PrefetchingReader(std::unique_ptr<RecordReader> reader, std::function<bool(const LogRecord&)> keep);
  ~PrefetchingReader() override;

  Result<Next> Read(LogRecord* record, Duration wait) override;
  const std::string& name() const override { return reader_->name(); }
  bool live() const override { return false; }
  bool cut_short() const override { return reader_->cut_short(); }  // asked after kEnd

  // The underlying reader; its counters are final once Read() returned kEnd.
  const RecordReader& reader() const { return *reader_; }

 private:
  static constexpr size_t kBatch = 512;
  static constexpr size_t kMaxBatches = 8;

  void Produce();

  std::unique_ptr<RecordReader> reader_;
  std::function<bool(const LogRecord&)> keep_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<LogRecord>> batches_;
  std::vector<std::vector<LogRecord>> spare_;  // consumed batches, back for reuse
  bool done_ = false;
  bool stopping_ = false;
  Status error_;
  std::vector<LogRecord> current_;  // the consumer's batch
  size_t next_ = 0;
  std::thread thread_;
};

}  // namespace foreshock
