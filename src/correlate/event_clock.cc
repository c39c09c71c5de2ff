#include "correlate/event_clock.h"

#include <algorithm>

namespace foreshock {
namespace {

constexpr auto kLiveDecisionWait = std::chrono::seconds(1);
constexpr Duration kPlausibleGap = std::chrono::hours(24);
constexpr size_t kMaxOpening = 64;  // stream's first stamps held at most

HeldRecord Copy(const LogRecord& record, const std::vector<PatternHit>& hits) {
  return HeldRecord{record, hits, std::chrono::steady_clock::now()};
}

}  // namespace

EventClock::EventClock(const EventClockOptions& options, WallClock wall_clock)
    : options_(options), wall_clock_(std::move(wall_clock)) {}

TimePoint EventClock::WallNow() const {
  if (wall_clock_) return wall_clock_();
  return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
}

EventClock::NodeClock& EventClock::ClockOf(const LogRecord& record) {
  // Records of a node usually come in runs: the last clock is asked first. Its key is the
  // input, then the node.
  if (last_ != nullptr && record.source.size() == last_source_size_ &&
      std::string_view(last_key_).substr(0, last_source_size_) == record.source &&
      std::string_view(last_key_).substr(last_source_size_ + 1) == record.node) {
    return *last_;
  }
  last_key_.assign(record.source);
  last_key_ += '\x1f';
  last_key_ += record.node;
  last_source_size_ = record.source.size();
  auto [found, added] = clocks_.try_emplace(last_key_);
  last_ = &found->second;
  if (added) {
    last_->input = &inputs_[std::string(record.source)];
    if (!record.node.empty()) by_node_[record.node].push_back(last_);
  }
  return *last_;
}

Duration EventClock::LagOf(std::string_view node) const {
  if (node.empty()) return Duration(0);
  if (lag_clocks_ == nullptr || node != lag_node_) {
    const auto found = by_node_.find(node);
    if (found == by_node_.end()) return Duration(0);
    lag_node_.assign(node);
    lag_clocks_ = &found->second;
  }
  Duration least = Duration::max();
  for (const NodeClock* clock : *lag_clocks_) {
    if (clock->lag_count < 2) return Duration(0);
    const size_t samples = std::min(clock->lag_count, kLagSamples);
    least = std::min(least, *std::min_element(clock->lags.begin(), clock->lags.begin() + static_cast<std::ptrdiff_t>(samples)));
  }
  return least;
}

bool EventClock::Agrees(const NodeClock& clock, TimePoint stamp) const {
  // The records after a jump go on from it: not back behind it, and not back to the old clock
  // (a sparse log's next record may be an hour after the last).
  if (stamp < clock.pending_at - options_.max_jump) return false;
  if (stamp > clock.pending.back().record.time + kPlausibleGap) return false;  // a second leap
  const std::optional<TimePoint> now = NowOf(clock);
  if (!now) return true;
  if (Near(stamp, *now)) return false;
  return clock.pending_at > *now || stamp < *now;  // a step back stays behind the old clock
}

std::optional<TimePoint> EventClock::NowOf(const NodeClock& clock) const {
  if (clock.known) return clock.clock + (clock.input->newest - clock.stream_at);
  if (clock.input->known) return clock.input->newest;
  if (stream_known_) return stream_;
  return std::nullopt;
}

void EventClock::Take(NodeClock* clock, TimePoint stamp, bool has_hits) {
  if (!clock->known || stamp > clock->clock) clock->clock = stamp;
  clock->known = true;
  stream_ = stream_known_ ? std::max(stream_, stamp) : stamp;
  stream_known_ = true;
  InputClock& input = *clock->input;
  input.newest = input.known ? std::max(input.newest, stamp) : stamp;
  input.known = true;
  clock->stream_at = input.newest;
  if (has_hits) clock->lags[clock->lag_count++ % kLagSamples] = input.newest - stamp;
}

bool EventClock::Acceptable(const NodeClock& clock, const LogRecord& record, bool live) const {
  const std::optional<TimePoint> now = NowOf(clock);
  if (now && Near(record.time, *now)) return true;
  // Live: a stamp near the wall clock is the node's real time (it was quiet, or its clock was
  // set right), whatever it logged before.
  return live && Near(record.time, WallNow());
}

bool EventClock::Accept(const LogRecord& record, bool has_hits, bool live) {
  if (!record.has_time || held_count_ > 0) return false;
  NodeClock& clock = ClockOf(record);
  if (record.time_inherited) {
    // Not a stamp of its own: it moves no clock, and goes at its node's time if far from it.
    const std::optional<TimePoint> now = NowOf(clock);
    return !now || Near(record.time, *now);
  }
  if (!Acceptable(clock, record, live)) return false;
  Take(&clock, record.time, has_hits);
  return true;
}

void EventClock::Hold(const LogRecord& record, const std::vector<PatternHit>& hits, bool live,
                      std::vector<TimedRecord>* ready) {
  if (!record.has_time || record.time_inherited) {
    HoldTimeless(Copy(record, hits), ready);
    return;
  }
  if (!stream_known_) {
    if (live && Near(record.time, WallNow())) {
      // Live and on time: it sets the stream's clock at once; what the opening holds is
      // decided after a second of quiet.
      Take(&ClockOf(record), record.time, !hits.empty());
      ready->push_back({Copy(record, hits), false});
      return;
    }
    Open(record, hits, ready);
    return;
  }
  NodeClock& clock = ClockOf(record);
  if (clock.pending.empty()) {
    if (Acceptable(clock, record, live)) {
      Take(&clock, record.time, !hits.empty());
      ready->push_back({Copy(record, hits), false});
      ReleaseTimeless(ready);
      return;
    }
    // A stamp far from its node's time: wait for the records after it.
    clock.pending.push_back(Copy(record, hits));
    clock.pending_at = record.time;
    clock.pending_since = std::chrono::steady_clock::now();
    ++held_count_;
    return;
  }
  if (Agrees(clock, record.time)) {
    clock.pending.push_back(Copy(record, hits));
    ++held_count_;
    if (clock.pending.size() > static_cast<size_t>(options_.confirmations)) {
      if (clock.known) ++jumps_;
      Settle(&clock, /*confirmed=*/true, ready);
    }
    return;
  }
  const TimePoint now = *NowOf(clock);
  if (Near(record.time, now) || (live && Near(record.time, WallNow()))) {
    // The node's clock goes on as before: what was held was an anomaly.
    Settle(&clock, /*confirmed=*/false, ready);
    Take(&clock, record.time, !hits.empty());
    ready->push_back({Copy(record, hits), false});
    return;
  }
  // Far from both the node's clock and the held stamp: an anomaly of its own.
  TimedRecord timed{Copy(record, hits), true};
  MarkAnomaly(&timed.held.record, now);
  ready->push_back(std::move(timed));
}

void EventClock::HoldTimeless(HeldRecord held, std::vector<TimedRecord>* ready) {
  if (const std::optional<TimePoint> now = NowOf(ClockOf(held.record))) {
    held.record.time = *now;
    held.record.has_time = true;
    const bool anomaly = held.record.clock_anomaly;
    ready->push_back({std::move(held), anomaly});
    return;
  }
  timeless_.push_back(std::move(held));
  ++held_count_;
  if (timeless_.size() > options_.max_held) {
    // Nothing to time them by yet: the oldest goes as it is.
    ready->push_back({std::move(timeless_.front()), timeless_.front().record.clock_anomaly});
    timeless_.pop_front();
    --held_count_;
  }
}

void EventClock::NoteStream(std::string_view input, TimePoint newest) {
  stream_ = std::max(stream_, newest);
  if (last_input_clock_ == nullptr || input != last_input_) {
    auto found = inputs_.find(input);
    if (found == inputs_.end()) found = inputs_.try_emplace(std::string(input)).first;
    last_input_.assign(input);
    last_input_clock_ = &found->second;
  }
  InputClock& clock = *last_input_clock_;
  clock.newest = clock.known ? std::max(clock.newest, newest) : newest;
  clock.known = true;
}

bool EventClock::GoesOnFrom(TimePoint from, TimePoint stamp) const {
  return stamp >= from - options_.max_jump && stamp <= from + kPlausibleGap;
}

void EventClock::Open(const LogRecord& record, const std::vector<PatternHit>& hits,
                      std::vector<TimedRecord>* ready) {
  // The stream's first stamps, before any clock exists: held until one of them has
  // `confirmations` later stamps going on from it (whatever their nodes); that one sets the
  // stream's time. With one stray among the first lines, ahead or behind, the others win.
  if (opening_.empty()) opening_since_ = std::chrono::steady_clock::now();
  opening_.push_back(Copy(record, hits));
  ++held_count_;
  for (size_t i = 0; i < opening_.size(); ++i) {
    if (FollowersOf(i) >= static_cast<size_t>(options_.confirmations)) {
      ReleaseOpening(i, ready);
      return;
    }
  }
  if (opening_.size() >= kMaxOpening) ReleaseOpening(BestOpening(), ready);
}

size_t EventClock::FollowersOf(size_t candidate) const {
  size_t followers = 0;
  for (size_t j = candidate + 1; j < opening_.size(); ++j) {
    followers += GoesOnFrom(opening_[candidate].record.time, opening_[j].record.time) ? 1 : 0;
  }
  return followers;
}

size_t EventClock::BestOpening() const {
  size_t best = 0;
  for (size_t i = 1; i < opening_.size(); ++i) {
    if (FollowersOf(i) > FollowersOf(best)) best = i;
  }
  return best;
}

void EventClock::ReleaseOpening(size_t epoch, std::vector<TimedRecord>* ready) {
  std::vector<HeldRecord> opening = std::move(opening_);
  opening_.clear();
  held_count_ -= opening.size();
  const TimePoint from = opening[epoch].record.time;
  std::vector<HeldRecord> odd;
  for (size_t i = 0; i < opening.size(); ++i) {
    const TimePoint time = opening[i].record.time;
    const bool fits = i < epoch ? Near(time, from) : GoesOnFrom(from, time);
    if (!fits) {
      odd.push_back(std::move(opening[i]));
      continue;
    }
    Take(&ClockOf(opening[i].record), time, !opening[i].hits.empty());
    ready->push_back({std::move(opening[i]), false});
  }
  for (HeldRecord& held : odd) {
    MarkAnomaly(&held.record, *NowOf(ClockOf(held.record)));
    ready->push_back({std::move(held), true});
  }
  ReleaseTimeless(ready);
}

void EventClock::MarkAnomaly(LogRecord* record, TimePoint now) {
  ++anomalies_;
  record->stamp = record->time;
  record->clock_anomaly = true;
  record->time = now;
}

void EventClock::Settle(NodeClock* clock, bool confirmed, std::vector<TimedRecord>* ready) {
  std::vector<HeldRecord> pending = std::move(clock->pending);
  clock->pending.clear();
  held_count_ -= pending.size();
  if (confirmed) {
    // The node's clock moves to the held stamps, ahead or behind.
    clock->known = false;
    for (HeldRecord& held : pending) {
      Take(clock, held.record.time, !held.hits.empty());
      ready->push_back({std::move(held), false});
    }
  } else {
    for (HeldRecord& held : pending) {
      MarkAnomaly(&held.record, *NowOf(*clock));
      ready->push_back({std::move(held), true});
    }
  }
  ReleaseTimeless(ready);
}

void EventClock::ReleaseTimeless(std::vector<TimedRecord>* ready) {
  std::deque<HeldRecord> timeless = std::move(timeless_);
  timeless_.clear();
  held_count_ -= timeless.size();
  for (HeldRecord& held : timeless) {
    const std::optional<TimePoint> now = NowOf(ClockOf(held.record));
    if (now) {
      held.record.time = *now;
      held.record.has_time = true;
    }  // else (end of an input with no stamp at all) it goes without a time
    const bool anomaly = held.record.clock_anomaly;
    ready->push_back({std::move(held), anomaly});
  }
}

TimePoint EventClock::OldestHeldStamp() const {
  TimePoint oldest = TimePoint::max();
  if (held_count_ == 0) return oldest;
  for (const auto& [key, clock] : clocks_) {
    for (const HeldRecord& held : clock.pending) oldest = std::min(oldest, held.record.time);
  }
  for (const HeldRecord& held : opening_) oldest = std::min(oldest, held.record.time);
  return oldest;
}

void EventClock::Flush(bool end, std::chrono::steady_clock::time_point inputs_read_at,
                       std::vector<TimedRecord>* ready) {
  auto decided = [&](std::chrono::steady_clock::time_point since) {
    return end || since + kLiveDecisionWait <= inputs_read_at;
  };
  // Clocks with something held, oldest first, so records go out roughly as they came.
  std::vector<NodeClock*> waiting;
  for (auto& [key, clock] : clocks_) {
    if (!clock.pending.empty() && decided(clock.pending_since)) waiting.push_back(&clock);
  }
  std::sort(waiting.begin(), waiting.end(),
            [](const NodeClock* a, const NodeClock* b) { return a->pending_since < b->pending_since; });
  if (!opening_.empty() && decided(opening_since_)) ReleaseOpening(BestOpening(), ready);
  for (NodeClock* clock : waiting) {
    // Nothing contradicted the held stamp; only too few records came after it (a file's last
    // lines after a gap). It stands when within a day of the node's clock: a gap, not a stray.
    const std::optional<TimePoint> node_now = NowOf(*clock);
    const bool plausible = !node_now || Distance(clock->pending_at, *node_now) <= kPlausibleGap;
    Settle(clock, /*confirmed=*/plausible, ready);
  }
  if (end || stream_known_) ReleaseTimeless(ready);
}

}  // namespace foreshock
