#include "learn/baseline.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/timestamp_parser.h"
#include "base/time_zone.h"
#include "base/write_all.h"

namespace foreshock {
namespace {

constexpr size_t kMaxExampleBytes = 300;
constexpr Duration kJoinGap = std::chrono::hours(1);

std::string Cut(std::string_view text) {
  text = text.substr(0, text.find('\n'));
  if (text.size() <= kMaxExampleBytes) return std::string(text);
  // Not inside a UTF-8 sequence.
  size_t end = kMaxExampleBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

// Adds `count` sightings from `from` to `to` to a tally first seen at *first, last at *last.
void Join(TimePoint from, TimePoint to, uint64_t count, TimePoint* first, TimePoint* last, uint64_t* total) {
  if (*total == 0 || from < *first) *first = from;
  if (*total == 0 || to > *last) *last = to;
  *total += count;
}

// A field of a baseline file, read with a clear error: "FILE: clusters[0].templates[3]: count
// is "x", not a whole number".
class FieldReader {
 public:
  explicit FieldReader(std::string what) : what_(std::move(what)) {}
  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }

  void Fail(const std::string& where, const std::string& why) {
    if (error_.empty()) error_ = what_ + ": " + where + ": " + why;
  }
  std::string String(const nlohmann::json& object, const char* key, const std::string& where, bool required = true) {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (required) Fail(where, std::string("'") + key + "' is missing");
      return {};
    }
    if (!it->is_string()) {
      Fail(where, std::string("'") + key + "' is " + it->dump() + ", not a string");
      return {};
    }
    return it->get<std::string>();
  }
  uint64_t Count(const nlohmann::json& value, const std::string& where) {
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<int64_t>() >= 0)) {
      Fail(where, value.dump() + " is not a whole number");
      return 0;
    }
    return value.get<uint64_t>();
  }
  TimePoint Time(const nlohmann::json& value, const std::string& where) {
    if (value.is_string()) {
      if (auto parsed = ParseTimestamp(value.get<std::string>(), TimeZone::Utc())) return parsed->time;
    }
    Fail(where, value.dump() + " is not a time such as 2026-11-29T02:54:11.482Z");
    return {};
  }
  const nlohmann::json& List(const nlohmann::json& object, const char* key, const std::string& where) {
    static const nlohmann::json kEmpty = nlohmann::json::array();
    const auto it = object.find(key);
    if (it == object.end()) return kEmpty;
    if (!it->is_array()) {
      Fail(where, std::string("'") + key + "' is not a list");
      return kEmpty;
    }
    return *it;
  }

 private:
  std::string what_;
  std::string error_;
};

}  // namespace

std::string TemplateKey(std::string_view logger, std::string_view text) {
  std::string key(logger);
  key.push_back('\x1f');
  key.append(text);
  return key;
}

Baseline::Baseline(size_t max_templates, size_t max_saved_templates)
    : max_templates_(std::max<size_t>(max_templates, 1)), max_saved_templates_(max_saved_templates) {}

void Baseline::Learn(const LearnedRecord& record) {
  auto it = clusters_.find(record.cluster);
  if (it == clusters_.end()) it = clusters_.emplace(std::string(record.cluster), ClusterBaseline{}).first;
  ClusterBaseline& cluster = it->second;
  if (!record.node.empty() && !cluster.nodes.contains(record.node)) cluster.nodes.emplace(record.node);
  if (record.template_text != nullptr) {
    TemplateStats& stats = record.template_key != nullptr ? cluster.templates[*record.template_key]
                                                          : cluster.templates[TemplateKey(record.logger, *record.template_text)];
    if (stats.count == 0) {
      stats.logger.assign(record.logger);
      stats.text = *record.template_text;
      stats.example = Cut(record.message);
    }
    Join(record.time, record.time, 1, &stats.first, &stats.last, &stats.count);
    stats.level = std::max(stats.level, record.level);
    if (!record.node.empty()) {
      if (auto node = stats.nodes.find(record.node); node != stats.nodes.end()) {
        ++node->second;
      } else if (stats.nodes.size() < TemplateStats::kMaxNodes) {
        stats.nodes.emplace(record.node, 1);
      }
    }
    if (cluster.templates.size() > max_templates_) Evict(&cluster);
  }
  if (record.classes != nullptr) {
    for (const std::string& name : *record.classes) {
      ClassStats& stats = cluster.exceptions[name];
      if (stats.count == 0) stats.example = Cut(record.message);
      Join(record.time, record.time, 1, &stats.first, &stats.last, &stats.count);
    }
  }
}

LearnedPlace Baseline::PlaceOf(const LearnedRecord& record) {
  LearnedPlace place;
  const auto cluster = clusters_.find(record.cluster);
  if (cluster == clusters_.end()) return place;
  ClusterBaseline& learned = cluster->second;
  if (record.template_text != nullptr) {
    const auto stats = record.template_key != nullptr
                           ? learned.templates.find(*record.template_key)
                           : learned.templates.find(TemplateKey(record.logger, *record.template_text));
    if (stats != learned.templates.end()) {
      place.stats = &stats->second;
      if (const auto node = stats->second.nodes.find(record.node); !record.node.empty() && node != stats->second.nodes.end()) {
        place.node_count = &node->second;
      }
    }
  }
  if (record.classes != nullptr) {
    for (const std::string& name : *record.classes) {
      if (const auto stats = learned.exceptions.find(name); stats != learned.exceptions.end()) {
        place.classes.push_back(&stats->second);
      }
    }
  }
  return place;
}

void Baseline::LearnAt(const LearnedPlace& place, TimePoint time, Level level) {
  if (place.stats != nullptr) {
    Join(time, time, 1, &place.stats->first, &place.stats->last, &place.stats->count);
    place.stats->level = std::max(place.stats->level, level);
    if (place.node_count != nullptr) ++*place.node_count;
  }
  for (ClassStats* stats : place.classes) Join(time, time, 1, &stats->first, &stats->last, &stats->count);
}

void Baseline::Evict(ClusterBaseline* cluster) {
  // The rarest tenth goes at once (least count, then longest unseen), so eviction is not
  // paid again on the next new template.
  std::vector<std::pair<std::pair<uint64_t, TimePoint>, const std::string*>> order;
  order.reserve(cluster->templates.size());
  for (const auto& [key, stats] : cluster->templates) order.push_back({{stats.count, stats.last}, &key});
  const size_t drop = std::max<size_t>(cluster->templates.size() - max_templates_ + max_templates_ / 10, 1);
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(drop - 1), order.end());
  std::vector<std::string> keys;
  for (size_t i = 0; i < drop; ++i) keys.push_back(*order[i].second);
  for (const std::string& key : keys) cluster->templates.erase(key);
  cluster->evicted += drop;
  evictions_ += drop;
}

void Baseline::Cover(TimePoint time) {
  if (!covered_.empty()) {
    auto& last = covered_.back();
    if (time >= last.first && time <= last.second) return;  // most records
    if (time > last.second && time - last.second <= kJoinGap) {
      last.second = time;
      return;
    }
  }
  AddStretch(time, time);
}

void Baseline::AddStretch(TimePoint from, TimePoint to) {
  covered_.emplace_back(from, to);
  std::sort(covered_.begin(), covered_.end());
  std::vector<std::pair<TimePoint, TimePoint>> joined;
  for (const auto& stretch : covered_) {
    if (!joined.empty() && stretch.first <= joined.back().second + kJoinGap) {
      joined.back().second = std::max(joined.back().second, stretch.second);
    } else {
      joined.push_back(stretch);
    }
  }
  // Bounded: the two stretches closest together are joined until it fits.
  while (joined.size() > kMaxStretches) {
    size_t closest = 0;
    for (size_t i = 1; i + 1 < joined.size(); ++i) {
      if (joined[i + 1].first - joined[i].second < joined[closest + 1].first - joined[closest].second) closest = i;
    }
    joined[closest].second = joined[closest + 1].second;
    joined.erase(joined.begin() + static_cast<std::ptrdiff_t>(closest) + 1);
  }
  covered_ = std::move(joined);
}

Duration Baseline::covered() const {
  Duration total{0};
  for (const auto& [from, to] : covered_) total += to - from;
  return total;
}

void Baseline::Merge(const Baseline& other) {
  for (const auto& [name, theirs] : other.clusters_) {
    ClusterBaseline& ours = clusters_[name];
    ours.nodes.insert(theirs.nodes.begin(), theirs.nodes.end());
    ours.evicted += theirs.evicted;
    for (const auto& [key, stats] : theirs.templates) {
      TemplateStats& mine = ours.templates[key];
      if (mine.count == 0) {
        mine.logger = stats.logger;
        mine.text = stats.text;
        mine.example = stats.example;
      }
      Join(stats.first, stats.last, stats.count, &mine.first, &mine.last, &mine.count);
      mine.level = std::max(mine.level, stats.level);
      for (const auto& [node, count] : stats.nodes) {
        if (mine.nodes.contains(node) || mine.nodes.size() < TemplateStats::kMaxNodes) mine.nodes[node] += count;
      }
    }
    for (const auto& [name_of_class, stats] : theirs.exceptions) {
      ClassStats& mine = ours.exceptions[name_of_class];
      if (mine.count == 0) mine.example = stats.example;
      Join(stats.first, stats.last, stats.count, &mine.first, &mine.last, &mine.count);
    }
    if (ours.templates.size() > max_templates_) Evict(&ours);
  }
  for (const auto& [from, to] : other.covered_) AddStretch(from, to);
}

const ClusterBaseline* Baseline::For(std::string_view cluster) const {
  if (auto it = clusters_.find(cluster); it != clusters_.end()) return &it->second;
  return clusters_.size() == 1 ? &clusters_.begin()->second : nullptr;
}

nlohmann::json Baseline::ToJson() const {
  nlohmann::json json;
  json["format"] = "foreshock-baseline";
  json["version"] = kVersion;
  nlohmann::json stretches = nlohmann::json::array();
  for (const auto& [from, to] : covered_) stretches.push_back({FormatTimestamp(from), FormatTimestamp(to)});
  json["covered"] = std::move(stretches);
  nlohmann::json clusters = nlohmann::json::array();
  for (const auto& [name, cluster] : clusters_) {
    nlohmann::json entry;
    entry["cluster"] = name;
    entry["nodes"] = cluster.nodes;
    // The most frequent templates are kept; the ones left out count as evicted.
    std::vector<const TemplateStats*> kept;
    for (const auto& [key, stats] : cluster.templates) kept.push_back(&stats);
    std::sort(kept.begin(), kept.end(), [](const TemplateStats* a, const TemplateStats* b) {
      return a->count != b->count ? a->count > b->count : TemplateKey(a->logger, a->text) < TemplateKey(b->logger, b->text);
    });
    const size_t left_out = kept.size() > max_saved_templates_ ? kept.size() - max_saved_templates_ : 0;
    kept.resize(kept.size() - left_out);
    entry["evicted_templates"] = cluster.evicted + left_out;
    nlohmann::json templates = nlohmann::json::array();
    for (const TemplateStats* stats : kept) {
      templates.push_back({{"logger", stats->logger},
                           {"template", stats->text},
                           {"level", LevelName(stats->level)},
                           {"count", stats->count},
                           {"first", FormatTimestamp(stats->first)},
                           {"last", FormatTimestamp(stats->last)},
                           {"nodes", stats->nodes},
                           {"example", stats->example}});
    }
    entry["templates"] = std::move(templates);
    std::vector<std::pair<std::string, const ClassStats*>> classes;
    for (const auto& [class_name, stats] : cluster.exceptions) classes.emplace_back(class_name, &stats);
    std::sort(classes.begin(), classes.end());
    nlohmann::json exceptions = nlohmann::json::array();
    for (const auto& [class_name, stats] : classes) {
      exceptions.push_back({{"class", class_name},
                            {"count", stats->count},
                            {"first", FormatTimestamp(stats->first)},
                            {"last", FormatTimestamp(stats->last)},
                            {"example", stats->example}});
    }
    entry["exceptions"] = std::move(exceptions);
    clusters.push_back(std::move(entry));
  }
  json["clusters"] = std::move(clusters);
  return json;
}

Result<Baseline> Baseline::FromJson(const nlohmann::json& json, const std::string& what) {
  FieldReader read(what);
  if (!json.is_object() || json.value("format", "") != "foreshock-baseline") {
    return Status::ParseError(what + ": not a foreshock baseline (no \"format\": \"foreshock-baseline\")");
  }
  if (!json.contains("version") || !json["version"].is_number_integer() || json["version"].get<int>() != kVersion) {
    return Status::ParseError(what + ": baseline version " + (json.contains("version") ? json["version"].dump() : "missing") +
                              "; this foreshock reads version " + std::to_string(kVersion));
  }
  Baseline baseline;
  const nlohmann::json& stretches = read.List(json, "covered", "covered");
  for (size_t i = 0; i < stretches.size() && !read.failed(); ++i) {
    const std::string where = "covered[" + std::to_string(i) + "]";
    if (!stretches[i].is_array() || stretches[i].size() != 2) {
      read.Fail(where, "is not a [from, to] pair");
      break;
    }
    const TimePoint from = read.Time(stretches[i][0], where);
    const TimePoint to = read.Time(stretches[i][1], where);
    if (!read.failed() && to < from) read.Fail(where, "ends before it starts");
    if (!read.failed()) baseline.AddStretch(from, to);
  }
  const nlohmann::json& clusters = read.List(json, "clusters", "clusters");
  for (size_t c = 0; c < clusters.size() && !read.failed(); ++c) {
    const std::string at = "clusters[" + std::to_string(c) + "]";
    if (!clusters[c].is_object()) {
      read.Fail(at, "is not an object");
      break;
    }
    const nlohmann::json& entry = clusters[c];
    ClusterBaseline& cluster = baseline.clusters_[read.String(entry, "cluster", at)];
    for (const nlohmann::json& node : read.List(entry, "nodes", at)) {
      if (node.is_string()) cluster.nodes.insert(node.get<std::string>());
    }
    if (entry.contains("evicted_templates")) cluster.evicted = read.Count(entry["evicted_templates"], at + ".evicted_templates");
    const nlohmann::json& templates = read.List(entry, "templates", at);
    for (size_t t = 0; t < templates.size() && !read.failed(); ++t) {
      const std::string where = at + ".templates[" + std::to_string(t) + "]";
      const nlohmann::json& item = templates[t];
      if (!item.is_object()) {
        read.Fail(where, "is not an object");
        break;
      }
      TemplateStats stats;
      stats.logger = read.String(item, "logger", where);
      stats.text = read.String(item, "template", where);
      stats.level = ParseLevel(read.String(item, "level", where, /*required=*/false));
      stats.count = read.Count(item.value("count", nlohmann::json()), where + ".count");
      stats.first = read.Time(item.value("first", nlohmann::json()), where + ".first");
      stats.last = read.Time(item.value("last", nlohmann::json()), where + ".last");
      stats.example = read.String(item, "example", where, /*required=*/false);
      if (item.contains("nodes") && item["nodes"].is_object()) {
        for (const auto& [node, count] : item["nodes"].items()) stats.nodes[node] = read.Count(count, where + ".nodes");
      }
      if (!read.failed()) cluster.templates[TemplateKey(stats.logger, stats.text)] = std::move(stats);
    }
    const nlohmann::json& exceptions = read.List(entry, "exceptions", at);
    for (size_t e = 0; e < exceptions.size() && !read.failed(); ++e) {
      const std::string where = at + ".exceptions[" + std::to_string(e) + "]";
      const nlohmann::json& item = exceptions[e];
      if (!item.is_object()) {
        read.Fail(where, "is not an object");
        break;
      }
      ClassStats stats;
      const std::string name = read.String(item, "class", where);
      stats.count = read.Count(item.value("count", nlohmann::json()), where + ".count");
      stats.first = read.Time(item.value("first", nlohmann::json()), where + ".first");
      stats.last = read.Time(item.value("last", nlohmann::json()), where + ".last");
      stats.example = read.String(item, "example", where, /*required=*/false);
      if (!read.failed()) cluster.exceptions[name] = std::move(stats);
    }
  }
  if (read.failed()) return Status::ParseError(read.error());
  return baseline;
}

std::string Baseline::Text() const { return ToJson().dump(1) + "\n"; }

Status Baseline::Save(const std::string& path) const { return WriteFileDurably(path, Text(), 0644); }

Result<Baseline> Baseline::Load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError("cannot read baseline " + path, errno);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return Status::ParseError(path + ": not valid JSON");
  return FromJson(json, path);
}

}  // namespace foreshock
