#include "app/prefetching_reader.h"

namespace foreshock {

PrefetchingReader::PrefetchingReader(std::unique_ptr<RecordReader> reader, std::function<bool(const LogRecord&)> keep)
    : reader_(std::move(reader)), keep_(std::move(keep)), thread_([this] { Produce(); }) {}

PrefetchingReader::~PrefetchingReader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PrefetchingReader::Produce() {
  std::vector<LogRecord> batch;
  batch.reserve(kBatch);
  Status error;
  while (true) {
    LogRecord record;
    auto next = reader_->Read(&record, std::chrono::seconds(1));
    if (!next.ok()) error = next.status();
    const bool end = !next.ok() || *next == Next::kEnd;
    if (!end && *next == Next::kRecord && (!keep_ || keep_(record))) batch.push_back(std::move(record));
    if (batch.size() < kBatch && !end) continue;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopping_ || batches_.size() < kMaxBatches; });
    if (stopping_) return;
    if (!batch.empty()) batches_.push_back(std::move(batch));
    batch = {};
    batch.reserve(kBatch);
    if (end) {
      done_ = true;
      error_ = error;
    }
    changed_.notify_all();
    if (end) return;
  }
}

Result<RecordStream::Next> PrefetchingReader::Read(LogRecord* record, Duration /*wait*/) {
  if (next_ >= current_.size()) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !batches_.empty() || done_; });
    if (batches_.empty()) {
      if (!error_.ok()) return error_;
      return Next::kEnd;
    }
    current_ = std::move(batches_.front());
    batches_.pop_front();
    next_ = 0;
    changed_.notify_all();
  }
  *record = std::move(current_[next_++]);
  return Next::kRecord;
}

}  // namespace foreshock
