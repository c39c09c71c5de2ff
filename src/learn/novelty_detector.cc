#include "learn/novelty_detector.h"

#include <re2/re2.h>

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "base/fnv1a.h"
#include "base/same_bytes.h"
#include "learn/message_template.h"

namespace foreshock {
namespace {

// How long after "initializing ...", "starting ...", "stopping ..." or "closing ..." a node's
// lines belong to its start or stop.
constexpr Duration kLifecycle = std::chrono::minutes(5);

bool IsNodeLogger(std::string_view logger) {
  return logger == "o.e.n.Node" || logger == "org.elasticsearch.node.Node" || logger == "o.o.n.Node" ||
         logger == "org.opensearch.node.Node";
}

Capture Text(const char* name, std::string text) { return Capture{name, std::move(text), std::nullopt}; }
Capture Number(const char* name, double value, const char* format = "%.0f") {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return Capture{name, text, value};
}

std::string TemplateId(const std::string& key) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, Fnv1a(key));
  return text;
}

// The same record read twice hashes the same: by its shape when the reader gave one (a
// record settled by its shape is never decoded), else by its text. A window holds one node's
// sightings: the node need not be hashed.
uint64_t ShapedRecordHash(const RecordShape& shape) {
  const uint64_t hash = (shape.id ^ shape.values) * 0x9E3779B97F4A7C15ULL;
  return hash ^ (hash >> 29);
}
// `decoded`: the record's shape as decoded (ShapeOf(const LogRecord&)), when it was worked out.
uint64_t RecordHashOnItsNode(const LogRecord& record, const RecordShape& decoded) {
  if (record.shape != 0) return ShapedRecordHash({record.shape, record.shape_values});
  if (decoded.id != 0) return ShapedRecordHash(decoded);
  return WordHash(record.text, Fnv1a(record.node));
}

std::string PerDay(uint64_t count, Duration covered) {
  const double days = std::chrono::duration<double>(covered).count() / 86400;
  if (days <= 0) return std::to_string(count) + " times";
  char text[64];
  std::snprintf(text, sizeof text, "%.1f per day", static_cast<double>(count) / days);
  return text;
}

}  // namespace

bool BenignCovers(const BenignEntry& entry, const LogRecord& record, std::string_view exception_class) {
  if (!entry.exception.empty() && entry.exception != exception_class) return false;
  if (entry.compiled_logger != nullptr && !RE2::PartialMatch(record.logger, *entry.compiled_logger)) return false;
  if (!entry.datasets.empty() &&
      std::find(entry.datasets.begin(), entry.datasets.end(), record.dataset) == entry.datasets.end()) {
    return false;
  }
  return entry.compiled_message == nullptr || RE2::PartialMatch(record.message(), *entry.compiled_message);
}

double PoissonTail(int k, double mean) {
  if (k <= 0) return 1;
  if (mean <= 0) return 0;
  if (k <= mean) {
    // 1 - P(X <= k - 1), summed from k - 1 down (the terms fall away from the mean); a tail
    // that underflows is 0, so the answer is 1, never a spurious 0.
    double term = std::exp(-mean + (k - 1) * std::log(mean) - std::lgamma(k));
    double sum = 0;
    for (int i = k - 1; i >= 0 && term > 0; --i) {
      sum += term;
      term *= i / mean;
      if (term < sum * 1e-17) break;
    }
    return std::clamp(1 - sum, 0.0, 1.0);
  }
  // Summed from k up, in log space for the first term; past the mean the terms fall.
  double term = std::exp(-mean + k * std::log(mean) - std::lgamma(k + 1.0));
  double sum = 0;
  for (int i = k; i < k + 100000 && term > 0; ++i) {
    sum += term;
    term *= mean / (i + 1);
    if (term < sum * 1e-17) break;
  }
  return std::min(sum, 1.0);
}

namespace {

// Sightings of `window` within [time - span, time] (the window is sorted by time).
int CountWithin(const std::deque<NoveltyDetector::Sighting>& window, TimePoint time, Duration span) {
  const auto by_time = [](const NoveltyDetector::Sighting& s, TimePoint t) { return s.time < t; };
  const auto from = std::lower_bound(window.begin(), window.end(), time - span, by_time);
  const auto to = std::upper_bound(window.begin(), window.end(), time,
                                   [](TimePoint t, const NoveltyDetector::Sighting& s) { return t < s.time; });
  return to > from ? static_cast<int>(to - from) : 0;
}

}  // namespace

NoveltyDetector::NoveltyDetector(const Catalog& catalog, std::optional<Baseline> reference, NoveltyOptions options)
    : reference_(std::move(reference)), options_(options) {
  SetCatalog(catalog);
}

void NoveltyDetector::SetCatalog(const Catalog& catalog) {
  catalog_ = &catalog;
  ForgetShapes();
  shapes_usable_ = std::all_of(catalog.benign().begin(), catalog.benign().end(), [](const BenignEntry& entry) {
    return entry.message_regex.empty() && entry.exception.empty();
  });
  exception_seen_ = catalog.FindPattern("foreshock.novel.exception_seen");
  exception_repeated_ = catalog.FindPattern("foreshock.novel.exception_repeated");
  template_seen_ = catalog.FindPattern("foreshock.novel.template_seen");
  surge_seen_ = catalog.FindPattern("foreshock.novel.surge_seen");
}

bool NoveltyDetector::Mature() const { return reference_.has_value() || learned_.covered() >= options_.maturity; }

template <typename Stats>
NoveltyDetector::Known NoveltyDetector::Lookup(std::unordered_map<std::string, Stats> ClusterBaseline::*items,
                                               std::string_view cluster, const std::string& key, TimePoint now) const {
  if (reference_) {
    if (const ClusterBaseline* given = reference_->For(cluster)) {
      if (auto it = (given->*items).find(key); it != (given->*items).end()) {
        return {true, it->second.count, reference_->covered()};
      }
    }
  }
  if (const ClusterBaseline* learned = learned_.For(cluster)) {
    const auto it = (learned->*items).find(key);
    if (it != (learned->*items).end() && it->second.first <= now - options_.novel_for) {
      return {true, it->second.count, learned_.covered()};
    }
  }
  return {};
}

std::string NoveltyDetector::SeenText(const Known& known) {
  return known.known ? PerDay(known.count, known.covered) : "never";
}

bool NoveltyDetector::Benign(const LogRecord& record, std::string_view exception_class) const {
  return std::any_of(catalog_->benign().begin(), catalog_->benign().end(), [&](const BenignEntry& entry) {
    return (exception_class.empty() ? entry.exception.empty() : true) && BenignCovers(entry, record, exception_class);
  });
}

void NoveltyDetector::NoteLifecycle(const LogRecord& record) {
  if (IsNodeLogger(record.logger)) {
    const std::string_view message = record.message();
    for (std::string_view phase : {"initializing ...", "starting ...", "stopping ...", "closing ..."}) {
      if (message.starts_with(phase)) lifecycle_until_[record.node] = record.time + kLifecycle;
    }
  }
}

bool NoveltyDetector::InLifecycle(std::string_view node, TimePoint time) const {
  if (lifecycle_until_.empty()) return false;
  const auto it = lifecycle_until_.find(node);
  return it != lifecycle_until_.end() && time <= it->second;
}

uint64_t NoveltyDetector::RateKey(std::string_view node, std::string_view key) {
  return WordHash(key, Fnv1a("\x1f", Fnv1a(node)));
}

template <typename Windows>
bool NoveltyDetector::Bound(Windows* windows, TimePoint now) {
  if (windows->size() <= options_.max_tracked) return false;
  const Duration keep = std::max(options_.repeat_window, options_.surge_window);
  std::erase_if(*windows, [&](const auto& entry) { return entry.second.empty() || entry.second.back().time < now - keep; });
  // Still too many at once: drop some (a bounded memory is the promise).
  while (windows->size() > options_.max_tracked) windows->erase(windows->begin());
  return true;
}

void NoveltyDetector::DropBefore(Window* window, TimePoint from) {
  while (!window->empty() && window->front().time < from) window->pop_front();
}

bool NoveltyDetector::AddSighting(Window* window, Sighting sighting, Duration span) {
  const TimePoint time = sighting.time;
  // A repeat has its time: found by halving (a record a little late in a flood has thousands
  // after it).
  if (!window->empty() && window->back().time >= time) {
    const auto by_time = [](const Sighting& held, TimePoint t) { return held.time < t; };
    for (auto it = std::lower_bound(window->begin(), window->end(), time, by_time);
         it != window->end() && it->time == time; ++it) {
      if (it->record == sighting.record) return false;
    }
  }
  DropBefore(window, time - span);
  while (!window->empty() && window->back().time - time > span) window->pop_back();
  if (window->empty() || window->back().time <= time) {
    window->push_back(std::move(sighting));
  } else {
    window->insert(std::upper_bound(window->begin(), window->end(), time,
                                    [](TimePoint t, const Sighting& s) { return t < s.time; }),
                   std::move(sighting));
  }
  return true;
}

void NoveltyDetector::Observe(const LogRecord& record, bool catalog_hit, std::vector<PatternHit>* hits) {
  NoteLifecycle(record);
  if (!Notable(record)) return;
  // A curated pattern's record is only learned: by the place its kind was learned at, when
  // one of its kind was.
  uint64_t hit_key = 0;
  if (catalog_hit && record.message_length < kMaxShapedMessageBytes) {
    ForgetStalePlaces();
    hit_key = ShapeKey(ShapeOf(record).id, record.node, record.cluster);
    if (const auto it = hit_places_.find(hit_key); it != hit_places_.end()) {
      if (options_.detect && InLifecycle(record.node, record.time)) ++stats_.lifecycle;
      Baseline::LearnAt(it->second, record.time, record.level);
      return;
    }
  }
  // A record decoded in full (the reader had no shape for it: it held a catalog literal, or
  // came in an envelope) is known by its decoded shape as a header-only one is by its own:
  // one like it seen before settles it without its classes and template worked out again.
  RecordShape decoded;
  if (!catalog_hit && record.shape == 0 && options_.detect && shapes_usable_ &&
      record.message_length < kMaxShapedMessageBytes && !IsNodeLogger(record.logger)) {
    decoded = ShapeOf(record);
    if (SettleShaped({record.time, record.node, record.cluster, decoded})) return;
  }
  const uint64_t record_hash = RecordHashOnItsNode(record, decoded);
  const bool warn = record.level >= Level::kWarn;
  const std::vector<std::string> classes = ExceptionClassesIn(record.text);
  const std::string text = warn ? TemplateOf(record.message(), record.node, record.cluster) : std::string();
  const std::string key = warn ? TemplateKey(record.logger, text) : std::string();
  // Judged against what was known before this record, then learned.
  const bool lifecycle = InLifecycle(record.node, record.time);
  if (!options_.detect) {
    // Learning only.
  } else if (!catalog_hit && !lifecycle) {
    ++stats_.examined;
    if (Benign(record, {})) {
      ++stats_.benign;
    } else {
      // The innermost class nobody saw: a trace names the wrapper first, the cause later.
      const std::string* novel = nullptr;
      for (auto it = classes.rbegin(); it != classes.rend() && novel == nullptr; ++it) {
        if (!Lookup(&ClusterBaseline::exceptions, record.cluster, *it, record.time).known && !Benign(record, *it)) novel = &*it;
      }
      if (novel != nullptr) {
        ObserveException(record, record_hash, *novel, text, "never", hits);
      } else if (warn) {
        const Known known = Lookup(&ClusterBaseline::templates, record.cluster, key, record.time);
        if (!known.known && template_seen_ >= 0) {
          ++stats_.novel_templates;
          PatternHit hit;
          hit.pattern = template_seen_;
          hit.match_begin = 0;
          hit.match_end = record.message_length;
          hit.captures = {Text("template_id", TemplateId(key)), Text("template", text),
                          Text("logger", record.logger), Text("baseline_seen", SeenText(known))};
          hits->push_back(std::move(hit));
        } else if (known.known) {
          ObserveSurge(record, record_hash, key, text, hits);
        }
      }
    }
  } else if (lifecycle) {
    ++stats_.lifecycle;
  }
  const LearnedRecord learned{record.cluster, record.node,  record.time,       record.level,
                              record.logger,  record.message(), warn ? &text : nullptr, &classes,
                              warn ? &key : nullptr};
  learned_.Learn(learned);
  if (hit_key != 0) {
    if (hit_places_.size() >= kMaxShapes) hit_places_.clear();
    hit_places_[hit_key] = learned_.PlaceOf(learned);
  }
  const uint64_t shape_id = record.shape != 0 ? record.shape : decoded.id;
  if (shape_id != 0 && !catalog_hit && options_.detect && !IsNodeLogger(record.logger)) {
    // Settled by its shape next time if nothing in it is news now.
    const bool benign = Benign(record, {});
    bool known = benign;
    if (!known) {
      known = std::all_of(classes.begin(), classes.end(), [&](const std::string& name) {
        return Lookup(&ClusterBaseline::exceptions, record.cluster, name, record.time).known || Benign(record, name);
      });
      known = known && (!warn || Lookup(&ClusterBaseline::templates, record.cluster, key, record.time).known);
    }
    if (known) {
      KnownShape shape;
      shape.benign = benign;
      shape.warn = warn;
      shape.level = record.level;
      shape.template_text = text;
      shape.since = record.time;
      Memoize(record, shape_id, key, classes, std::move(shape));
    }
  }
}

uint64_t NoveltyDetector::ShapeKey(uint64_t shape, std::string_view node, std::string_view cluster) {
  // Lines come in runs of one node and cluster: their hash is worked out once a run.
  if (!place_known_ || node.size() != place_node_.size() || cluster.size() != place_cluster_.size() ||
      !SameBytes(node.data(), place_node_.data(), node.size()) ||
      !SameBytes(cluster.data(), place_cluster_.data(), cluster.size())) {
    place_node_.assign(node);
    place_cluster_.assign(cluster);
    place_hash_ = WordHash(cluster, WordHash(node) ^ 0x1f);
    place_known_ = true;
  }
  return shape ^ place_hash_;
}

void NoveltyDetector::Memoize(const LogRecord& record, uint64_t shape_id, const std::string& key,
                              const std::vector<std::string>& classes,
                              KnownShape known) {
  if (!shapes_usable_) return;
  if (shapes_.size() >= kMaxShapes) ForgetShapes();
  // Learn() has just counted the record: its place is there.
  known.place = learned_.PlaceOf({record.cluster, record.node, record.time, record.level, record.logger, {},
                                  known.warn ? &known.template_text : nullptr, &classes, known.warn ? &key : nullptr});
  if (known.warn) {
    known.rate_key = RateKey(record.node, key);
    if (reference_) known.reference_rate = RateOf(record, key);
  }
  shapes_[ShapeKey(shape_id, record.node, record.cluster)] = std::move(known);
}

std::optional<NoveltyDetector::SurgeRate> NoveltyDetector::RateFrom(uint64_t written, uint64_t count,
                                                                    Duration covered) const {
  // One added to the node's count, so a template seen once is not a certainty.
  if (covered < options_.surge_needs || surge_seen_ < 0) return std::nullopt;
  const double expected = static_cast<double>(written + 1) * std::chrono::duration<double>(options_.surge_window).count() /
                          std::chrono::duration<double>(covered).count();
  return SurgeRate{expected, count, covered};
}

std::optional<NoveltyDetector::SurgeRate> NoveltyDetector::RateOf(const LogRecord& record, const std::string& key) const {
  // The given baseline's, else what this run learned before (a rate needs surge_needs of
  // history).
  const Baseline* source = reference_ ? &*reference_ : &learned_;
  const ClusterBaseline* cluster = source->For(record.cluster);
  if (cluster == nullptr) return std::nullopt;
  const auto stats = cluster->templates.find(key);
  if (stats == cluster->templates.end()) return std::nullopt;
  const auto node = stats->second.nodes.find(record.node);
  const uint64_t written = node == stats->second.nodes.end() ? 0 : node->second;
  return RateFrom(written, stats->second.count, source->covered());
}

std::optional<NoveltyDetector::SurgeRate> NoveltyDetector::RateOf(const KnownShape& shape) const {
  if (reference_) return shape.reference_rate;
  // What this run learned: the shape's own cluster and template (learned_.For() finds a
  // cluster a record was learned in as itself).
  if (shape.place.stats == nullptr) return std::nullopt;
  const uint64_t written = shape.place.node_count == nullptr ? 0 : *shape.place.node_count;
  return RateFrom(written, shape.place.stats->count, learned_.covered());
}

int NoveltyDetector::SurgeThreshold(double expected) const {
  // Most asks are of a few rates (a given baseline's are fixed): kept in a small table.
  uint64_t bits;
  std::memcpy(&bits, &expected, sizeof bits);
  auto& [asked, answer] = thresholds_[(bits ^ (bits >> 29)) % thresholds_.size()];
  if (asked == expected) return answer;
  asked = expected;
  answer = WorkOutSurgeThreshold(expected);
  return answer;
}

int NoveltyDetector::WorkOutSurgeThreshold(double expected) const {
  const auto surges = [&](int observed) { return PoissonTail(observed, expected) < options_.surge_p; };
  int low = std::max(options_.surge_min, 1);
  if (surges(low)) return low;
  // The tail at `low` is not small enough: double past the mean until it is, then halve
  // the gap.
  int high = std::max(low + 1, static_cast<int>(std::min(expected, 1e9)) + 1);
  while (!surges(high)) {
    if (high >= (1 << 30)) return INT_MAX;  // never, in practice
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const int middle = low + (high - low) / 2;
    (surges(middle) ? high : low) = middle;
  }
  return high;
}

bool NoveltyDetector::ForgetStalePlaces() {
  if (learned_.evictions() == evicted_seen_) return false;
  // Learning dropped a template: what was known of shapes, and where, may be no more.
  evicted_seen_ = learned_.evictions();
  ForgetShapes();
  hit_places_.clear();
  return true;
}

NoveltyDetector::KnownShape* NoveltyDetector::FindShape(uint64_t key) {
  CachedShape& cached = shape_cache_[(key ^ (key >> 32)) % shape_cache_.size()];
  if (cached.shape != nullptr && cached.key == key) return cached.shape;
  const auto it = shapes_.find(key);
  if (it == shapes_.end()) return nullptr;
  cached = {key, &it->second};
  return cached.shape;
}

void NoveltyDetector::ForgetShapes() {
  shapes_.clear();
  shape_cache_.fill({});
}

bool NoveltyDetector::SettleShaped(const ShapedLine& line) {
  if (!options_.detect || ForgetStalePlaces()) return false;
  KnownShape* const found = FindShape(ShapeKey(line.shape.id, line.node, line.cluster));
  if (found == nullptr || line.time < found->since) return false;
  KnownShape& shape = *found;
  const bool lifecycle = InLifecycle(line.node, line.time);
  if (!lifecycle && !shape.benign && shape.warn) {
    // Counted towards its template's surge, unless the count would raise one: then the
    // record is decoded, for the alert to quote it.
    if (const std::optional<SurgeRate> rate = RateOf(shape)) {
      if (shape.rate_window == nullptr || shape.rate_window_generation != rates_generation_) {
        shape.rate_window = &rates_[shape.rate_key];  // an unordered_map's values stay where they are
        shape.rate_window_generation = rates_generation_;
      }
      Window& times = *shape.rate_window;
      const int threshold = SurgeThreshold(rate->expected);
      const bool in_order = times.empty() || times.back().time < line.time;
      // In time order, the window's size bounds its count: sightings before the window go
      // only when the count might reach the threshold, many at once (one at a time, each
      // line would wait on the memory of one written a window ago).
      if (!in_order || 1 + times.size() >= static_cast<size_t>(threshold) || times.size() >= kMaxUntrimmed) {
        DropBefore(&times, line.time - options_.surge_window);
        const int within = in_order || times.back().time == line.time
                               ? static_cast<int>(times.size())
                               : CountWithin(times, line.time, options_.surge_window);
        if (1 + within >= threshold) return false;
      }
      const Sighting sighting{line.time, ShapedRecordHash({line.shape.id, line.values()})};
      if (in_order) {  // no repeat of it can be in the window, nor anything later
        times.push_back(sighting);
      } else {
        AddSighting(&times, sighting, options_.surge_window);
      }
      if (Bound(&rates_, line.time)) ++rates_generation_;  // `times` may be gone now
    }
  }
  ++stats_.by_shape;
  if (lifecycle) {
    ++stats_.lifecycle;
  } else {
    ++stats_.examined;
    if (shape.benign) ++stats_.benign;
  }
  Baseline::LearnAt(shape.place, line.time, shape.level);
  return true;
}

void NoveltyDetector::ObserveException(const LogRecord& record, uint64_t record_hash, const std::string& name,
                                       const std::string& text,
                                       const std::string& seen, std::vector<PatternHit>* hits) {
  // The same record read twice is one sighting (and correlation drops the repeat).
  Window& times = sightings_[{record.cluster, name, record.node}];
  if (!AddSighting(&times, {record.time, record_hash}, options_.repeat_window)) {
    return;
  }
  ++stats_.novel_exceptions;
  // Counted node by node, each window by halving: a class flooding the log (hundreds a
  // second, the outage itself) costs no more a record than one seen twice.
  int count = 0;
  int node_count = 0;
  for (auto it = sightings_.lower_bound({record.cluster, name, std::string()});
       it != sightings_.end() && std::get<0>(it->first) == record.cluster && std::get<1>(it->first) == name; ++it) {
    const int on_node = CountWithin(it->second, record.time, options_.repeat_window);
    count += on_node;
    node_count += on_node > 0 ? 1 : 0;
  }
  const bool repeated =
      record.level >= Level::kError || count >= options_.repeat_count || node_count >= options_.repeat_nodes;
  Bound(&sightings_, record.time);  // `times` may be gone now
  const int pattern = repeated && exception_repeated_ >= 0 ? exception_repeated_ : exception_seen_;
  if (pattern < 0) return;
  PatternHit hit;
  hit.pattern = pattern;
  // Evidence quotes the line naming the class (the deepest: "Caused by: ...").
  const size_t at = record.text.rfind(name);
  const size_t line = at == std::string::npos ? 0 : record.text.rfind('\n', at);
  hit.match_begin = at == std::string::npos || line == std::string::npos ? 0 : line + 1;
  hit.match_end = at == std::string::npos ? record.message_length : at + name.size();
  hit.captures = {Text("exception_class", name),
                  Text("template", text.empty() ? TemplateOf(record.message(), record.node, record.cluster) : text),
                  Text("logger", record.logger),
                  Text("baseline_seen", seen),
                  Number("sightings", count),
                  Number("nodes_seen", node_count)};
  hits->push_back(std::move(hit));
}

void NoveltyDetector::ObserveSurge(const LogRecord& record, uint64_t record_hash, const std::string& key,
                                   const std::string& text,
                                   std::vector<PatternHit>* hits) {
  const std::optional<SurgeRate> rate = RateOf(record, key);
  if (!rate) return;
  Window& times = rates_[RateKey(record.node, key)];
  const Sighting sighting{record.time, record_hash};
  if (!AddSighting(&times, sighting, options_.surge_window)) return;  // a repeat
  const int observed = CountWithin(times, record.time, options_.surge_window);
  if (Bound(&rates_, record.time)) ++rates_generation_;  // `times` may be gone now
  if (observed < SurgeThreshold(rate->expected)) return;
  ++stats_.surges;
  PatternHit hit;
  hit.pattern = surge_seen_;
  hit.match_begin = 0;
  hit.match_end = record.message_length;
  hit.captures = {Text("template_id", TemplateId(key)), Text("template", text), Text("logger", record.logger),
                  Number("observed", observed), Number("expected", rate->expected, "%.2f"),
                  Text("baseline_seen", PerDay(rate->count, rate->covered))};
  hits->push_back(std::move(hit));
}

}  // namespace foreshock
