#pragma once

// NoveltyDetector finds what no catalog pattern knows: records that say something their
// cluster's baseline never said. It looks only at records the catalog left alone (a line a
// curated pattern matched keeps its curated story) that matter: WARN and above, or carrying
// an exception at any level (rest.suppressed logs failures at DEBUG). From each it reads the
// exception classes and, for WARN+, the template (message_template.h), and makes hits on the
// catalog's learned patterns, which its rules (patterns/foreshock/novelty.yaml) turn into
// alerts like any other:
// - foreshock.novel.exception_seen: a class the baseline never saw (the innermost new one
//   of the record); exception_repeated when it came at ERROR, or repeat_count times within
//   repeat_window in the cluster, or on repeat_nodes nodes;
// - foreshock.novel.template_seen: a WARN+ template the baseline never saw;
// - foreshock.novel.surge_seen: a known WARN+ template a node writes far more often than its
//   baseline rate says: the count within surge_window has a Poisson tail probability under
//   surge_p given that rate (plus one, so a rare template is not a certainty), and is at
//   least surge_min.
// "Never saw" means: not in the baseline given, and not first seen in this run more than
// novel_for ago (what this run learned becomes normal after that). Records the catalog's
// benign list covers, and a node's records while it starts or stops (five minutes from ES's
// Node logger saying "initializing ...", "starting ...", "stopping ..." or "closing ..."),
// are never novel. Everything it
// looks at is learned (learned()), with the event time the run covered. Not thread-safe.

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/string_map.h"
#include "base/time.h"
#include "catalog/catalog.h"
#include "decode/log_record.h"
#include "learn/baseline.h"
#include "learn/message_template.h"
#include "learn/record_shape.h"
#include "match/pattern_hit.h"

namespace foreshock {

struct NoveltyOptions {
  bool detect = true;  // false: learn only (foreshock baseline build)
  Duration novel_for = std::chrono::hours(24);
  // Learned history needed before warnings, when no baseline was given: before it, alerts
  // of learned rules are info (see Mature()).
  Duration maturity = std::chrono::hours(24);
  Duration repeat_window = std::chrono::minutes(10);
  int repeat_count = 3;
  int repeat_nodes = 2;
  Duration surge_window = std::chrono::minutes(10);
  double surge_p = 1e-6;
  int surge_min = 10;
  // A surge needs a baseline rate: one learned over at least this much event time.
  Duration surge_needs = std::chrono::hours(1);
  size_t max_tracked = 10000;  // windows kept for repeats and surges (the stalest go first)
};

struct NoveltyStats {
  uint64_t examined = 0;   // records looked at: WARN+ or with an exception, no catalog hit
  uint64_t benign = 0;     // of those, covered by the benign list
  uint64_t lifecycle = 0;  // of those, written while their node started or stopped
  uint64_t novel_exceptions = 0;
  uint64_t novel_templates = 0;
  uint64_t surges = 0;
  uint64_t by_shape = 0;      // records settled by their shape (a header's, or a decoded text's), not judged in full
  uint64_t shape_misses = 0;  // records handed out by their shape that had to be decoded
};

// Whether `entry` covers `record`; with `exception_class`, whether it makes that class no
// news in `record` (an entry without `exception` covers every class of the records it covers).
bool BenignCovers(const BenignEntry& entry, const LogRecord& record, std::string_view exception_class = {});

// P(X >= k) for X Poisson with mean `mean`.
double PoissonTail(int k, double mean);

class NoveltyDetector {
 public:
  // One record's place in a window: the same record read twice (a shipper's retry) counts once.
  // A window holds one node's sightings, on its clock.
  struct Sighting {
    TimePoint time;
    uint64_t record = 0;  // hash of the record
  };

  // `catalog` must outlive *this. `reference`: the baseline given (--baseline), if any.
  NoveltyDetector(const Catalog& catalog, std::optional<Baseline> reference, NoveltyOptions options = {});

  // Whether a record is one the detector looks at, catalog hits aside.
  static bool Notable(const LogRecord& record) {
    return record.level >= Level::kWarn || record.text.size() > record.message_length;
  }
  // `catalog_hit`: a curated pattern matched the record. Appends hits on learned patterns.
  void Observe(const LogRecord& record, bool catalog_hit, std::vector<PatternHit>* hits);
  // A WARN+ or exception line known by its shape and header, not decoded: one the reader
  // handed out header-only (LogRecord::shape), or one a quiet run would pass over but for
  // the detector (RecordReaderOptions::settle_shapes).
  struct ShapedLine {
    TimePoint time{};
    std::string_view node;
    std::string_view cluster;
    RecordShape shape;
    // Where given, the line's parts, and shape.values is ShapeValues() of them, worked out
    // only if a surge window takes the line.
    std::span<const std::string_view> parts = {};
    uint64_t values() const { return parts.empty() ? shape.values : ShapeValues(parts); }
  };
  // True when what the detector knows of the line's shape settles it (a benign or known
  // record, no surge to raise): it is counted and learned exactly as Observe() of the record
  // decoded in full would have; false when the caller must decode it and call Observe().
  bool SettleShaped(const ShapedLine& line);
  // SettleShaped() of a record the reader handed out by its shape.
  bool ObserveShape(const LogRecord& record) {
    if (SettleShaped({record.time, record.node, record.cluster, {record.shape, record.shape_values}})) return true;
    ++stats_.shape_misses;
    return false;
  }
  // Event time the inputs ran through (every record, quiet ones too): the newest so far.
  void Cover(TimePoint time) {
    if (time <= covered_to_) return;
    covered_to_ = time;
    learned_.Cover(time);
  }

  // Whether alerts of learned rules may be more than info: a baseline was given, or the run
  // has learned at least `maturity` of history.
  bool Mature() const;
  const Baseline& learned() const { return learned_; }
  // Switches to a reloaded catalog (its learned patterns and benign list); `catalog` must
  // outlive *this. What was learned stays.
  void SetCatalog(const Catalog& catalog);
  // What an earlier run learned (watch's state): it goes on from there.
  void RestoreLearned(Baseline learned) {
    learned_ = std::move(learned);
    covered_to_ = TimePoint::min();
    ForgetShapes();  // they point into what was learned
    hit_places_.clear();
  }
  const NoveltyStats& stats() const { return stats_; }

 private:
  // Asked of every record looked at: the text for alerts (SeenText()) is made only for hits.
  struct Known {
    bool known = false;
    uint64_t count = 0;
    Duration covered{0};  // of the baseline that knew it
  };
  static std::string SeenText(const Known& known);  // "never" or "3.2 per day"
  // Whether `key` is among a cluster's `items` (templates or exception classes) in the
  // baseline given, or in what this run learned more than novel_for ago.
  template <typename Stats>
  Known Lookup(std::unordered_map<std::string, Stats> ClusterBaseline::*items, std::string_view cluster,
               const std::string& key, TimePoint now) const;
  bool Benign(const LogRecord& record, std::string_view exception_class) const;
  // ES's Node logger says when a node starts and stops (the catalog's es.node.lifecycle
  // makes those lines reach the detector past the quiet lane).
  void NoteLifecycle(const LogRecord& record);
  bool InLifecycle(std::string_view node, TimePoint time) const;
  // `record_hash` tells the record from others of its node at its time (a repeat counts once).
  void ObserveException(const LogRecord& record, uint64_t record_hash, const std::string& name, const std::string& text,
                        const std::string& seen, std::vector<PatternHit>* hits);
  void ObserveSurge(const LogRecord& record, uint64_t record_hash, const std::string& key, const std::string& text,
                    std::vector<PatternHit>* hits);

  // A template's baseline rate on a record's node: the count expected in surge_window, and
  // the baseline's count over its covered time (text made only for a hit); none without a
  // baseline rate.
  struct SurgeRate {
    double expected = 0;
    uint64_t count = 0;
    Duration covered{0};
  };
  // From the node's count of the template in a baseline, the template's count there, and
  // the baseline's covered time.
  std::optional<SurgeRate> RateFrom(uint64_t written, uint64_t count, Duration covered) const;
  std::optional<SurgeRate> RateOf(const LogRecord& record, const std::string& key) const;
  // The least count within surge_window that is a surge when `expected` were expected: at
  // least surge_min, with a Poisson tail under surge_p (the tail falls as the count grows).
  int SurgeThreshold(double expected) const;
  int WorkOutSurgeThreshold(double expected) const;
  // SurgeThreshold()'s answers, by the expected count asked (-1: none yet).
  mutable std::array<std::pair<double, int>, 64> thresholds_ = [] {
    std::array<std::pair<double, int>, 64> empty;
    empty.fill({-1.0, 0});
    return empty;
  }();

  // What a shape of a node and cluster settles: a record known in full (its classes, and its
  // template when WARN+), or benign. Kept only while that holds: knowledge grows, and the
  // memo is emptied when learning drops a template. What its lines are counted by is found
  // once, when it is kept.
  struct KnownShape {
    bool benign = false;
    bool warn = false;
    Level level = Level::kUnknown;
    std::string template_text;
    TimePoint since{};    // known from then on (an earlier record is judged in full)
    uint64_t rate_key = 0;  // RateKey(): its surge window
    // That window, once found, while rates_ has dropped none since (rates_generation_).
    std::deque<Sighting>* rate_window = nullptr;
    uint64_t rate_window_generation = 0;
    LearnedPlace place;     // where learned_ counts it
    // The given baseline's rate of its template on its node (fixed); without a baseline
    // given, the rate is worked out from `place` at each line.
    std::optional<SurgeRate> reference_rate;
  };
  // A shape's key on its node and cluster (the last node's and cluster's hash is kept).
  uint64_t ShapeKey(uint64_t shape, std::string_view node, std::string_view cluster);
  std::string place_node_;
  std::string place_cluster_;
  uint64_t place_hash_ = 0;
  bool place_known_ = false;
  std::optional<SurgeRate> RateOf(const KnownShape& shape) const;
  // `shape_id`: the record's shape, as the reader gave it or as decoded.
  void Memoize(const LogRecord& record, uint64_t shape_id, const std::string& key, const std::vector<std::string>& classes,
               KnownShape known);
  std::unordered_map<uint64_t, KnownShape> shapes_;
  // The shape of a key, through a direct-mapped cache of those last found in shapes_: most
  // notable lines are of a few shapes, and a hash table's lookup costs a division and a
  // cache miss or two. Null when unknown.
  KnownShape* FindShape(uint64_t key);
  void ForgetShapes();  // empties shapes_, and the cache
  struct CachedShape {
    uint64_t key = 0;
    KnownShape* shape = nullptr;  // in shapes_ (an unordered_map's values stay where they are)
  };
  std::array<CachedShape, 64> shape_cache_{};
  // Where records a curated pattern matched are learned, by ShapeKey() of the decoded
  // record's shape (ShapeOf(const LogRecord&)): kept, bounded and emptied as shapes_ are.
  std::unordered_map<uint64_t, LearnedPlace> hit_places_;
  bool shapes_usable_ = true;  // no benign entry depends on the message (or a class)
  uint64_t evicted_seen_ = 0;
  // Empties shapes_ and hit_places_ when learning dropped a template since last asked; true then.
  bool ForgetStalePlaces();
  static constexpr size_t kMaxShapes = 4096;

  const Catalog* catalog_;
  std::optional<Baseline> reference_;
  Baseline learned_;
  TimePoint covered_to_ = TimePoint::min();  // the newest time Cover() was given
  NoveltyOptions options_;
  int exception_seen_ = -1;  // pattern indexes; -1 when the catalog lacks the pattern
  int exception_repeated_ = -1;
  int template_seen_ = -1;
  int surge_seen_ = -1;
  using Window = std::deque<Sighting>;
  // Adds a sighting unless the window has it, drops those more than `span` before it or after
  // it; false when it was there. Those after it: the node's clock went back (its files
  // replayed newest first, a clock stepped back), and they would count again only were it to
  // come forward to them again. Kept, every sighting after would be put in before them.
  static bool AddSighting(Window* window, Sighting sighting, Duration span);
  // Drops the window's sightings before `from` (it is sorted by time).
  static void DropBefore(Window* window, TimePoint from);
  // A surge window's sightings before it are dropped when its count may reach the
  // threshold, or when it holds this many.
  static constexpr size_t kMaxUntrimmed = 65536;
  // Drops the stalest windows when more than max_tracked are kept; true when it dropped any.
  template <typename Windows>
  bool Bound(Windows* windows, TimePoint now);
  // (cluster, class, node) -> recent sightings: a cluster's are those of its nodes, next to
  // each other in the map.
  std::map<std::tuple<std::string, std::string, std::string>, Window> sightings_;
  // Hash of (node, template key) -> recent sightings, for surges. In time order but for a
  // clock going back; those before surge_window may stay a while (see kMaxUntrimmed).
  std::unordered_map<uint64_t, Window> rates_;
  uint64_t rates_generation_ = 1;  // counts the times Bound() dropped windows of rates_
  static uint64_t RateKey(std::string_view node, std::string_view key);
  StringMap<TimePoint> lifecycle_until_;  // node -> end of its start or stop
  NoveltyStats stats_;
};

}  // namespace foreshock
