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
  size_t filled = 0;
  Status error;
  while (true) {
    // Batches come back from the consumer with their records' buffers: refilled in place,
    // they cost no allocation, and no buffer is freed on another thread than its own.
    if (batch.empty()) {
      std::lock_guard lock(mutex_);
      if (!spare_.empty()) {
        batch = std::move(spare_.back());
        spare_.pop_back();
      }
      batch.resize(kBatch);
      filled = 0;
    }
    LogRecord& slot = batch[filled];
    auto next = reader_->Read(&slot, std::chrono::seconds(1));
    if (!next.ok()) error = next.status();
    const bool end = !next.ok() || *next == Next::kEnd;
    if (!end && *next == Next::kRecord && (!keep_ || keep_(slot))) ++filled;
    if (filled < kBatch && !end) continue;
    batch.resize(filled);
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopping_ || batches_.size() < kMaxBatches; });
    if (stopping_) return;
    if (!batch.empty()) batches_.push_back(std::move(batch));
    batch = {};
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
    if (!current_.empty() && spare_.size() < kMaxBatches) spare_.push_back(std::move(current_));
    current_.clear();
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
  // Swapped, not moved: the caller's previous buffers go back with the batch.
  std::swap(*record, current_[next_++]);
  return Next::kRecord;
}

}  // namespace foreshock
