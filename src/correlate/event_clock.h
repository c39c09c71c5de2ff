#pragma once

// EventClock decides the time at which each record is correlated, so that no single line can
// drag event time. It keeps one clock per input and node (the node that logged the record):
// the newest stamp it accepted from that node there, carried forward by the input's progress
// since (in a merged stream, a node that went quiet moves on with the others, and a node whose
// clock is steadily minutes off keeps its own time). Inputs are not compared with each other:
// files read in bursts arrive minutes apart without any clock being wrong. A stamp within
// max_jump of its node's clock is accepted as it is: the common case, decided without a copy.
// A stamp farther away, ahead or behind (a clock jump, a stray line of another program, a
// line stamped years off), is held with the records after it until `confirmations` more
// records of the node agree with it (then the node's clock moves there and they are
// correlated at their own stamps; agreeing means going on from it, however far: a sparse log's
// next line may come an hour later), or a record of the node agrees with the old clock (then
// the held stamp was an anomaly: correlated at the node's current time, its own stamp kept
// for the evidence, counted and reported). At end of input a stamp still held, which no record
// contradicted, stands when it is within a day of its node's clock (a file's last lines after
// a gap), and is an anomaly otherwise (a stray stamped years off). Live inputs accept a stamp within max_jump of
// the wall clock at once (a node quiet for an hour is not a jump), and decide a held stamp
// after a second of wall-clock time. Records with no time at all are correlated at their
// node's current time (held until some clock exists). Not thread-safe.

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/string_map.h"
#include "base/time.h"
#include "correlate/reorder_buffer.h"
#include "decode/log_record.h"

namespace foreshock {

struct EventClockOptions {
  Duration max_jump = std::chrono::minutes(5);
  int confirmations = 2;  // records after a jump that must agree with it
  size_t max_held = 1024;  // records held at once, all nodes together
};

// A record the clock has let go, at the time it is to be correlated (record.time; its own
// stamp in record.stamp when that differs: a clock anomaly).
struct TimedRecord {
  HeldRecord held;
  bool anomaly = false;
};

class EventClock {
 public:
  using WallClock = std::function<TimePoint()>;
  explicit EventClock(const EventClockOptions& options, WallClock wall_clock = nullptr);

  // The common case, no copy: true when `record` (live or not) may be correlated at its own
  // stamp now; its node's clock and the stream's move accordingly.
  bool Accept(const LogRecord& record, bool has_hits, bool live);
  // For a record Accept() refused: holds a copy with its hits, and appends to *ready (in
  // order) whatever may now be correlated.
  void Hold(const LogRecord& record, const std::vector<PatternHit>& hits, bool live,
            std::vector<TimedRecord>* ready);
  // Lets go of what waits: everything at end of input (`end`), else (live inputs gone quiet)
  // what was held a second or more before `inputs_read_at`, a time after which every input
  // was read to its end (the wall clock, where inputs are not read in rounds): a record
  // that would confirm or refute the held stamp cannot be waiting unread.
  void Flush(bool end, std::chrono::steady_clock::time_point inputs_read_at, std::vector<TimedRecord>* ready);

  // Notes records of `input` passed over without being handed out (quiet runs): its newest time.
  void NoteStream(std::string_view input, TimePoint newest);
  // How far `node`'s stamps have lately been behind its input's newest: the least over its
  // last 8 records with hits (zero before 2 of them; the least over its inputs), so that a
  // node whose clock is steadily minutes slow against the others in a merged stream shows it
  // and one late line does not. Only records with hits count: those are handed out alike
  // whether quiet runs are passed over or not.
  Duration LagOf(std::string_view node) const;
  // True while some record is held: every record must then come through Accept().
  bool holding() const { return held_count_ > 0; }
  // The oldest stamp of the records held (a jump waiting for its node's next records, the
  // stream's first stamps), TimePoint::max() when none: Flush() may yet let them go at it.
  TimePoint OldestHeldStamp() const;
  uint64_t anomalies() const { return anomalies_; }
  uint64_t jumps() const { return jumps_; }

 private:
  static constexpr size_t kLagSamples = 8;
  // One input's newest accepted stamp: its lines arrive in the order they were written, so
  // it is the time of the input, which its nodes' clocks move on with.
  struct InputClock {
    bool known = false;
    TimePoint newest{};
  };
  struct NodeClock {
    InputClock* input = nullptr;
    bool known = false;
    TimePoint clock{};       // the newest stamp accepted
    TimePoint stream_at{};   // its input's time when it was accepted
    // How far its last few records with hits were behind the stream, newest at lag_next - 1.
    std::array<Duration, kLagSamples> lags{};
    size_t lag_count = 0;
    // A stamp not yet confirmed, with the records held since (the first is the stamp's).
    std::vector<HeldRecord> pending;
    TimePoint pending_at{};
    std::chrono::steady_clock::time_point pending_since{};
  };

  NodeClock& ClockOf(const LogRecord& record);
  // Whether `record` may be correlated at its own stamp, given its node's clock.
  bool Acceptable(const NodeClock& clock, const LogRecord& record, bool live) const;
  // The node's time now, or nullopt when neither it nor the stream has any.
  std::optional<TimePoint> NowOf(const NodeClock& clock) const;
  // Whether `stamp` of the node confirms its held stamp.
  bool Agrees(const NodeClock& clock, TimePoint stamp) const;
  bool Near(TimePoint a, TimePoint b) const { return Distance(a, b) <= options_.max_jump; }
  void Take(NodeClock* clock, TimePoint stamp, bool has_hits);
  // The held records of `clock` go: at their own stamps (`confirmed`), else as anomalies at
  // the node's current time.
  void Settle(NodeClock* clock, bool confirmed, std::vector<TimedRecord>* ready);
  // Lets go of the records held for want of any clock, at their nodes' time.
  void ReleaseTimeless(std::vector<TimedRecord>* ready);
  // A record with no stamp of its own: at its node's time, or held until there is one.
  void HoldTimeless(HeldRecord held, std::vector<TimedRecord>* ready);
  // The stream's first stamps, before any clock exists (see Open's comment).
  void Open(const LogRecord& record, const std::vector<PatternHit>& hits, std::vector<TimedRecord>* ready);
  // Whether `stamp` goes on from `from`: not far behind it, not a day past it.
  bool GoesOnFrom(TimePoint from, TimePoint stamp) const;
  // How many held first stamps after opening_[candidate] go on from it.
  size_t FollowersOf(size_t candidate) const;
  size_t BestOpening() const;
  // Lets the first stamps go, the stream's time set by opening_[epoch]: those that do not fit
  // it are anomalies.
  void ReleaseOpening(size_t epoch, std::vector<TimedRecord>* ready);
  // Counts an anomaly and moves `record` to `now`, keeping its stamp.
  void MarkAnomaly(LogRecord* record, TimePoint now);
  TimePoint WallNow() const;

  EventClockOptions options_;
  WallClock wall_clock_;
  std::unordered_map<std::string, NodeClock> clocks_;  // by input, then node
  StringMap<InputClock> inputs_;
  StringMap<std::vector<const NodeClock*>> by_node_;
  std::string last_key_;
  size_t last_source_size_ = 0;
  NodeClock* last_ = nullptr;
  // The last input NoteStream() found, and the last node LagOf() found (the correlator's
  // sweep asks of each group in turn, most of them of one node): asked first. Entries of
  // inputs_ and by_node_ are never erased, so the pointers stay good.
  std::string last_input_;
  InputClock* last_input_clock_ = nullptr;
  mutable std::string lag_node_;
  mutable const std::vector<const NodeClock*>* lag_clocks_ = nullptr;
  std::deque<HeldRecord> timeless_;  // no time and no clock yet to give them one
  std::vector<HeldRecord> opening_;  // the stream's first stamps, until confirmed
  std::chrono::steady_clock::time_point opening_since_{};
  TimePoint stream_{};
  bool stream_known_ = false;
  size_t held_count_ = 0;
  uint64_t anomalies_ = 0;
  uint64_t jumps_ = 0;
};

}  // namespace foreshock
