#include "app/pipeline.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "base/time.h"
#include "decode/decoder_registry.h"

namespace foreshock {
namespace {

constexpr Duration kIdleWait = std::chrono::milliseconds(200);
// Several live inputs: the longest a hit waits in the reorder buffer for earlier lines of
// the others (one node's server and slow logs are written apart, and read apart: a loaded
// machine can put a tenth of a second between them). One live input waits for nothing.
constexpr auto kMaxHold = std::chrono::milliseconds(150);

// "5.0 days", "12 min": a duration to read, not to parse.
std::string About(Duration d) {
  const double seconds = std::chrono::duration<double>(d).count();
  char text[32];
  if (seconds >= 86400) {
    std::snprintf(text, sizeof text, "%.1f days", seconds / 86400);
  } else if (seconds >= 3600) {
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  } else if (seconds >= 60) {
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  } else {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  }
  return text;
}

}  // namespace

Result<RecordStream::Next> MergeHead::Fill(RecordStream* input, Duration wait, Duration max_jump) {
  using Next = RecordStream::Next;
  if (!ahead.empty()) {
    std::swap(record, ahead.front());
    ahead.pop_front();
  } else if (ahead_done) {
    done = true;
    if (!ahead_failure.ok()) return std::exchange(ahead_failure, Status());
    return Next::kEnd;
  } else {
    auto next = input->Read(&record, wait);
    if (!next.ok() || *next != Next::kRecord) {
      if (next.ok() && *next == Next::kEnd) done = true;
      return next;
    }
  }
  full = true;
  key = record.time;
  auto far = [&](TimePoint a, TimePoint b) { return Distance(a, b) > max_jump; };
  const bool stamped = record.has_time && !record.time_inherited;
  if (input->live() || !stamped || (has_last && !far(record.time, last))) return Next::kRecord;
  // A stamp far from the input's last one (or its first): a gap, or a stray line. The records
  // after it tell: when the next goes back near the last (for the input's first record: the
  // next two lie far behind it), it is a stray, and it goes where the next goes
  // instead of holding the whole input back (or letting it run ahead).
  while (ahead.size() < 2 && !ahead_done) {
    ahead.emplace_back();
    auto next = input->Read(&ahead.back(), wait);
    if (!next.ok()) {  // `record` still goes; the failure comes after `ahead`
      ahead.pop_back();
      ahead_failure = next.status();
      ahead_done = true;
      break;
    }
    if (*next != Next::kRecord) ahead.pop_back();
    if (*next == Next::kEnd) ahead_done = true;
    if (*next == Next::kIdle) break;
  }
  auto stamped_far = [&](const LogRecord& other) { return other.has_time && far(other.time, record.time); };
  // (A first record far behind the next two cannot be told from a sparse log's start.)
  const bool stray = has_last ? !ahead.empty() && stamped_far(ahead[0]) &&
                                    Distance(ahead[0].time, last) < Distance(ahead[0].time, record.time)
                              : ahead.size() == 2 && stamped_far(ahead[0]) && stamped_far(ahead[1]) &&
                                    ahead[0].time < record.time && ahead[1].time < record.time;
  if (stray) key = ahead[0].time;
  return Next::kRecord;
}

void MergeHead::Went() {
  full = false;
  if (!record.node.empty() && record.node != last_node) {  // a set lookup only when the node changes
    last_node = record.node;
    nodes.insert(record.node);
  }
  if (key == record.time && record.has_time && !record.time_inherited) {
    last = record.time;
    has_last = true;
  }
}

Pipeline::Pipeline(const Catalog& catalog, const Matcher& matcher,
                   const CorrelatorOptions& options, std::vector<std::unique_ptr<Sink>> sinks)
    : catalog_(&catalog),
      matcher_(&matcher),
      clock_(EventClockOptions{options.max_clock_jump}),
      correlator_(std::make_unique<Correlator>(catalog, options, &clock_)),
      sinks_(std::move(sinks)),
      reorder_(options.allowed_lateness, kMaxHold),
      options_(options),
      pattern_hits_(catalog.patterns().size(), 0) {}

Status Pipeline::Run(const std::vector<std::unique_ptr<RecordReader>>& readers) {
  std::vector<RecordStream*> streams;
  for (const auto& reader : readers) streams.push_back(reader.get());
  return Run(streams);
}

Status Pipeline::Run(const std::vector<RecordStream*>& readers) {
  std::vector<MergeHead> heads(readers.size());
  int live_inputs = 0;
  for (const auto& reader : readers) live_inputs += reader->live() ? 1 : 0;
  const bool live = live_inputs > 0;
  SetLiveInputs(live_inputs);
  while (true) {
    // Every live input must offer its next record before the earliest one can go: an
    // input that is merely slow (a pipe) may still produce an earlier record.
    bool any_live = false;
    for (size_t i = 0; i < readers.size(); ++i) {
      MergeHead& head = heads[i];
      while (!head.full && !head.done) {
        if (readers[i]->skips_quiet_runs() && head.ahead.empty()) {
          // Quiet runs only while every other input's next record is known.
          TimePoint others = TimePoint::max();
          for (size_t j = 0; j < heads.size(); ++j) {
            if (j == i || heads[j].done) continue;
            others = heads[j].full ? std::min(others, heads[j].key) : TimePoint::min();
          }
          FORESHOCK_RETURN_IF_ERROR(PassQuietRun(readers[i], others, live));
        }
        // While a hit waits in the reorder buffer, look up again as soon as it may go.
        const Duration wait = reorder_.empty() ? kIdleWait : std::chrono::duration_cast<Duration>(kMaxHold);
        auto next = head.Fill(readers[i], wait, options_.max_clock_jump);
        if (!next.ok()) {
          spdlog::error("{}: {}; the rest of it is passed over", readers[i]->name(), next.status().message());
          ++summary_.failed_inputs;
          head.done = true;
          NoteInputCut(*readers[i], head);
          break;
        }
        if (*next == RecordStream::Next::kEnd && readers[i]->cut_short()) NoteInputCut(*readers[i], head);
        if (*next == RecordStream::Next::kIdle) {
          FORESHOCK_RETURN_IF_ERROR(OnIdle());
          if (summary_.output_closed) return Status();
        }
      }
      any_live = any_live || head.full;
    }
    if (!any_live) return Finish();
    size_t earliest = readers.size();
    for (size_t i = 0; i < heads.size(); ++i) {
      if (heads[i].full && (earliest == readers.size() || heads[i].key < heads[earliest].key)) earliest = i;
    }
    Status status = Process(heads[earliest].record, live);
    heads[earliest].Went();
    if (!status.ok()) return status;
    if (summary_.output_closed) return Status();
  }
}

void Pipeline::NoteInputCut(const RecordStream& input, const MergeHead& head) {
  for (const std::string& node : head.nodes) {
    correlator_->NoteInputCut(node, head.last);
    spdlog::info("{}: cut by damage after {}; {}'s silence after it is unknown, not judged", input.name(),
                 FormatTimestamp(head.last), node);
  }
}

Status Pipeline::Process(const LogRecord& record, bool live) {
  ++summary_.records;
  hits_.clear();
  // Where only the correlator reads the hits, those it passes over need no captures.
  matcher_->Match(record, &hits_, hit_hook_ || exhaustive_ ? nullptr : &correlator_->uses());
  if (clock_.Accept(record, !hits_.empty(), live)) return Correlate(record, &hits_, live);
  timed_.clear();
  clock_.Hold(record, hits_, live, &timed_);
  return CorrelateTimed(live);
}

Status Pipeline::CorrelateTimed(bool live) {
  std::vector<TimedRecord> ready;
  ready.swap(timed_);
  for (TimedRecord& timed : ready) {
    if (timed.anomaly) ReportAnomaly(timed.held.record);
    FORESHOCK_RETURN_IF_ERROR(Correlate(timed.held.record, &timed.held.hits, live));
    if (summary_.output_closed) break;
  }
  return Status();
}

void Pipeline::ReportAnomaly(const LogRecord& record) {
  ++summary_.clock_anomalies;
  std::string more;
  if (!anomaly_reports_.Allow(&more)) return;
  spdlog::warn("{}:{}: clock anomaly: stamped {}, {} apart from {}'s clock and not confirmed by the "
               "records after it (--max-clock-jump {}); correlated at {}{}",
               record.source, record.line_number, FormatTimestamp(record.stamp),
               About(Distance(record.stamp, record.time)),
               record.node.empty() ? std::string(record.source) : record.node,
               FormatDuration(options_.max_clock_jump), FormatTimestamp(record.time), more);
}

void Pipeline::ReportLate(const LogRecord& record) {
  const bool first = summary_.late++ == 0;
  std::string more;
  if (!late_reports_.Allow(&more)) return;
  const Duration behind = reorder_.watermark() - record.time;
  if (behind <= options_.allowed_lateness) {
    // Not past the lateness: a live input's later hit already went (see SetLiveInputs()).
    spdlog::warn("{}:{}: a hit stamped {} comes {} after the input reached {}, behind a later hit already correlated "
                 "(a live input's hits are correlated as they arrive, each node on its own clock): it is applied out "
                 "of order, and alerts may differ from what the logs tell{}{}",
                 record.source, record.line_number, FormatTimestamp(record.time), About(behind),
                 FormatTimestamp(reorder_.watermark()), more,
                 first ? ". Saved logs? Name the files instead of piping them: scan and replay put them in order."
                       : "");
    return;
  }
  spdlog::warn("{}:{}: a hit stamped {} comes {} after the input reached {}, past --lateness ({}): it is applied "
               "out of order, and alerts may differ from what the logs tell{}{}",
               record.source, record.line_number, FormatTimestamp(record.time), About(behind),
               FormatTimestamp(reorder_.watermark()), FormatDuration(options_.allowed_lateness), more,
               first ? ". Several files one after another (cat)? Name them instead: scan and replay merge files "
                       "by event time. A stream out of order by more needs a larger --lateness."
                     : "");
}

void Pipeline::DecodeDeferred(const LogRecord& record) {
  auto& decoders = deferred_decoders_[record.format];
  if (decoders == nullptr) decoders = std::move(DecoderSet::Create(record.format)).value();
  std::string why;
  std::string_view format;
  DecodeOptions options;
  options.one_line = true;
  options.header_level = true;
  decoders->Decode(record.raw, options, &deferred_, &why, &format);
  // The header the reader read stands (time, node, cluster, place, clock); the full decode
  // adds what the detector reads.
  LogRecord decoded = std::move(deferred_);
  deferred_ = record;
  deferred_.level = decoded.level;
  deferred_.logger = std::move(decoded.logger);
  deferred_.dataset = std::move(decoded.dataset);
  deferred_.text = std::move(decoded.text);
  deferred_.message_length = decoded.message_length;
}

Status Pipeline::Correlate(const LogRecord& given, std::vector<PatternHit>* hits, bool live) {
  alerts_.clear();
  // At the time the clock gave the record: a stray stamp moves no novelty window. A record
  // handed out by its shape is decoded only when the detector cannot settle it so.
  const LogRecord* current = &given;
  if (novelty_ != nullptr) {
    if (given.shape == 0) {
      novelty_->Observe(given, !hits->empty(), hits);
    } else if (!novelty_->ObserveShape(given)) {
      DecodeDeferred(given);
      current = &deferred_;
      novelty_->Observe(deferred_, !hits->empty(), hits);
    }
  }
  const LogRecord& record = *current;
  if (hit_hook_ && !hits->empty()) hit_hook_(record, hits);
  summary_.hits += hits->size();
  for (const PatternHit& hit : *hits) ++pattern_hits_[static_cast<size_t>(hit.pattern)];
  NoteTime(record.time, live);
  if (correlator_->wants_activity()) correlator_->NoteActivity(record, &alerts_);
  reorder_.Observe(record.time);
  // Hits no rule uses are counted above and go no further: nothing holds or copies them.
  const bool late = !hits->empty() && reorder_.TooLate(record.time);
  if (!exhaustive_) std::erase_if(*hits, [this](const PatternHit& hit) { return !correlator_->Uses(hit.pattern); });
  if (late) ReportLate(record);  // too late to reorder: applied as it is
  if (!hits->empty() && !reorder_.Hold(record, hits)) correlator_->Observe(record, *hits, &alerts_);
  FORESHOCK_RETURN_IF_ERROR(Emit(&alerts_));
  if (tick_ && ++records_since_tick_check_ >= 1024) FORESHOCK_RETURN_IF_ERROR(MaybeTick());
  return Release(live, /*end=*/false);
}

std::map<std::string, uint64_t> Pipeline::pattern_hits() const {
  std::map<std::string, uint64_t> by_id = replaced_pattern_hits_;
  for (size_t pattern = 0; pattern < pattern_hits_.size(); ++pattern) {
    if (pattern_hits_[pattern] > 0) by_id[catalog_->patterns()[pattern].id] += pattern_hits_[pattern];
  }
  return by_id;
}

void Pipeline::NoteTime(TimePoint time, bool live) {
  if (time <= watermark_) return;
  watermark_ = time;
  if (novelty_ != nullptr) novelty_->Cover(time);
  // Only live inputs let event time follow the wall clock (OnIdle); files need no clock read.
  if (live) watermark_seen_at_ = std::chrono::steady_clock::now();
}

TimePoint Pipeline::QuietBefore(TimePoint others_earliest, bool live) const {
  // A record processed alone would move the watermarks, let go the held hits it puts
  // allowed_lateness behind (live inputs: also those held max_hold of wall-clock time), then
  // AdvanceTo() the settled time (see Release()), which sweeps from the correlator's next
  // sweep on. While a hit is held and nothing goes, the settled time stays at released().
  const TimePoint next_sweep = correlator_->next_sweep();
  // While the clock holds a record, every record must come through it (one may confirm or
  // refute the held stamp).
  if (clock_.holding() || correlator_->activity_armed() || (live && !reorder_.empty()) || correlator_->watermark() >= next_sweep) {
    return TimePoint::min();
  }
  TimePoint before = std::min(reorder_.next_release(), others_earliest);
  if (reorder_.empty() || reorder_.released() >= next_sweep) {
    if (reorder_.watermark() - options_.allowed_lateness >= next_sweep) return TimePoint::min();
    before = std::min(before, next_sweep + options_.allowed_lateness);
  }
  return before;
}

Status Pipeline::PassQuietRun(RecordStream* input, TimePoint others_earliest, bool live, uint64_t* passed) {
  if (passed != nullptr) *passed = 0;
  if (!input->skips_quiet_runs()) return Status();
  const TimePoint before = QuietBefore(others_earliest, live);
  if (before == TimePoint::min()) return Status();
  TimePoint newest;
  const uint64_t count = input->SkipQuietRun(before, &newest);
  if (passed != nullptr) *passed = count;
  return count > 0 ? PassQuiet(input->name(), count, newest, live) : Status();
}

Status Pipeline::PassQuiet(std::string_view input, uint64_t count, TimePoint newest, bool live) {
  summary_.records += count;
  clock_.NoteStream(input, newest);
  NoteTime(newest, live);
  reorder_.Observe(newest);
  records_since_tick_check_ += static_cast<uint32_t>(std::min<uint64_t>(count, 1024));
  if (tick_ && records_since_tick_check_ >= 1024) FORESHOCK_RETURN_IF_ERROR(MaybeTick());
  return Release(live, /*end=*/false);
}

void Pipeline::SetTick(std::chrono::steady_clock::duration period, std::function<Status()> tick) {
  tick_period_ = period;
  tick_ = std::move(tick);
  next_tick_ = std::chrono::steady_clock::now() + period;
}

Status Pipeline::MaybeTick() {
  records_since_tick_check_ = 0;
  const auto now = std::chrono::steady_clock::now();
  if (!tick_ || now < next_tick_) return Status();
  next_tick_ = now + tick_period_;
  return tick_();
}

void Pipeline::SetLiveInputs(int count) {
  // One live input arrives in its own order; several interleave and are briefly held.
  live_inputs_ = count;
  reorder_.set_max_hold(count > 1 ? kMaxHold : std::chrono::milliseconds(0));
}

Status Pipeline::ReplaceCatalog(const Catalog& catalog, const Matcher& matcher) {
  // Held hits refer to the old catalog's patterns: apply them first.
  FORESHOCK_RETURN_IF_ERROR(FlushClock(/*live=*/true, /*end=*/true));
  FORESHOCK_RETURN_IF_ERROR(Release(/*live=*/true, /*end=*/true));
  const nlohmann::json state = correlator_->SaveState();
  // Hits counted so far keep their patterns' ids; the new catalog numbers its own.
  for (const auto& [id, count] : pattern_hits()) replaced_pattern_hits_[id] = count;
  pattern_hits_.assign(catalog.patterns().size(), 0);
  correlator_ = std::make_unique<Correlator>(catalog, options_, &clock_);
  correlator_->RestoreState(state);
  catalog_ = &catalog;
  matcher_ = &matcher;
  return Status();
}

std::chrono::steady_clock::time_point Pipeline::InputsReadAt() const {
  if (!read_in_rounds_) return std::chrono::steady_clock::now();
  return record_being_written_ ? std::chrono::steady_clock::time_point::min() : round_began_;
}

void Pipeline::NoteReadRound(std::chrono::steady_clock::time_point began, bool record_being_written) {
  read_in_rounds_ = true;
  round_began_ = began;
  record_being_written_ = record_being_written;
}

Status Pipeline::Release(bool live, bool end) {
  alerts_.clear();
  released_.clear();
  // One live input waits for no other: its hits go at once (max_hold is zero).
  const std::chrono::steady_clock::time_point inputs_read_at =
      !live                ? std::chrono::steady_clock::time_point::min()
      : live_inputs_ <= 1 ? std::chrono::steady_clock::now()
                          : InputsReadAt();
  // Nor does wall time let a hit pass an older record the event clock holds (a quiet node's
  // line after a gap, waiting for the node's next ones): it would then come too late.
  const TimePoint held_by_clock = live && clock_.holding() ? clock_.OldestHeldStamp() : TimePoint::max();
  reorder_.Release(inputs_read_at, end, &released_, held_by_clock);
  for (const std::unique_ptr<HeldRecord>& held : released_) {
    correlator_->AdvanceTo(held->record.time, &alerts_);
    correlator_->Observe(held->record, held->hits, &alerts_);
  }
  reorder_.Recycle(&released_);
  // Time-driven decisions go as far as nothing earlier can still come: the reorder bound
  // (and the oldest record still held), or everything at the end of input.
  TimePoint settled = end ? reorder_.watermark() : reorder_.watermark() - options_.allowed_lateness;
  if (!reorder_.empty()) settled = std::min(settled, reorder_.released());
  if (settled > TimePoint{}) correlator_->AdvanceTo(settled, &alerts_, end);
  return Emit(&alerts_);
}

Status Pipeline::FlushClock(bool live, bool end) {
  if (!clock_.holding()) return Status();
  timed_.clear();
  clock_.Flush(end, InputsReadAt(), &timed_);
  return CorrelateTimed(live);
}

Status Pipeline::Finish() {
  FORESHOCK_RETURN_IF_ERROR(FlushClock(/*live=*/true, /*end=*/true));
  return Release(/*live=*/true, /*end=*/true);
}

Status Pipeline::OnIdle() {
  FORESHOCK_RETURN_IF_ERROR(MaybeTick());
  FORESHOCK_RETURN_IF_ERROR(FlushClock(/*live=*/true, /*end=*/false));
  if (watermark_ == TimePoint{}) return Status();
  FORESHOCK_RETURN_IF_ERROR(Release(/*live=*/true, /*end=*/false));
  if (!reorder_.empty()) return Status();
  alerts_.clear();
  const auto quiet = std::chrono::steady_clock::now() - watermark_seen_at_;
  correlator_->AdvanceTo(watermark_ + std::chrono::duration_cast<Duration>(quiet), &alerts_);
  return Emit(&alerts_);
}

Status Pipeline::Emit(std::vector<Alert>* alerts) {
  for (Alert& alert : *alerts) {
    if (alert.rule->learned && alert.severity > Severity::kInfo && novelty_ != nullptr && !novelty_->Mature()) {
      // Less than a day learned: what looks new may only be new to us.
      alert.severity = Severity::kInfo;
      alert.message += " (info while learning: less than a day of baseline)";
    }
    ++summary_.alerts;
    ++alert_counts_[{alert.rule->id, std::string(SeverityName(alert.severity)), std::string(ActionName(alert.action))}];
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
