#include "app/pipeline.h"

namespace foreshock {
namespace {

constexpr Duration kIdleWait = std::chrono::milliseconds(200);

}  // namespace

Pipeline::Pipeline(const Catalog& catalog, const Matcher& matcher,
                   const CorrelatorOptions& options, std::vector<std::unique_ptr<Sink>> sinks)
    : matcher_(matcher), correlator_(catalog, options), sinks_(std::move(sinks)) {}

Status Pipeline::Run(const std::vector<std::unique_ptr<RecordReader>>& readers) {
  struct Head {
    LogRecord record;
    bool full = false;
    bool done = false;
  };
  std::vector<Head> heads(readers.size());
  while (true) {
    // Every live input must offer its next record before the earliest one can go: an
    // input that is merely slow (a pipe) may still produce an earlier record.
    bool any_live = false;
    for (size_t i = 0; i < readers.size(); ++i) {
      Head& head = heads[i];
      while (!head.full && !head.done) {
        auto next = readers[i]->Read(&head.record, kIdleWait);
        if (!next.ok()) return next.status();
        if (*next == RecordReader::Next::kRecord) head.full = true;
        if (*next == RecordReader::Next::kEnd) head.done = true;
      }
      any_live = any_live || head.full;
    }
    if (!any_live) return Status();
    size_t earliest = readers.size();
    for (size_t i = 0; i < heads.size(); ++i) {
      if (heads[i].full && (earliest == readers.size() ||
                            heads[i].record.time < heads[earliest].record.time)) {
        earliest = i;
      }
    }
    Status status = Process(heads[earliest].record);
    heads[earliest].full = false;
    if (!status.ok()) return status;
    if (summary_.output_closed) return Status();
  }
}

Status Pipeline::Process(const LogRecord& record) {
  ++summary_.records;
  alerts_.clear();
  if (record.time > watermark_) {
    watermark_ = record.time;
    correlator_.AdvanceTo(watermark_, &alerts_);
  }
  hits_.clear();
  matcher_.Match(record, &hits_);
  summary_.hits += hits_.size();
  if (!hits_.empty()) correlator_.Observe(record, hits_, &alerts_);
  return Emit(&alerts_);
}

Status Pipeline::Emit(std::vector<Alert>* alerts) {
  for (const Alert& alert : *alerts) {
    ++summary_.alerts;
    if (alert.action != Alert::Action::kResolved) {
      summary_.any_alert = true;
      summary_.highest = std::max(summary_.highest, alert.severity);
    }
    for (auto& sink : sinks_) {
      Status status = sink->Emit(alert);
      if (status.code() == Status::Code::kClosed) {
        summary_.output_closed = true;
        return Status();
      }
      if (!status.ok()) return status;
    }
  }
  return Status();
}

}  // namespace foreshock
