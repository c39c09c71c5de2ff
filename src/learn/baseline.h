#pragma once

// Baseline is what a cluster normally says: per cluster, the templates of its WARN-and-above
// records (logger plus masked message, see message_template.h) with how often each node
// wrote them, and every exception class its records named, each with when it was first and
// last seen; plus the stretches of event time it learned from (covered time), so a count
// reads as a rate. It is learned record by record (`foreshock baseline build`, and `watch`
// as it runs), saved as versioned JSON (docs/novelty.md), and merged across nodes and days:
// counts add up, first and last widen, covered stretches are united. It is bounded: at most
// max_templates templates a cluster are kept (the rarest are dropped, and counted), a file
// keeps the most frequent max_saved_templates of them and every exception class.
// Not thread-safe.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "decode/log_record.h"

namespace foreshock {

struct TemplateStats {
  std::string logger;
  std::string text;  // the masked message
  Level level = Level::kUnknown;  // the highest it was written at
  uint64_t count = 0;
  TimePoint first{};
  TimePoint last{};
  std::map<std::string, uint64_t, std::less<>> nodes;  // how often each node wrote it (at most kMaxNodes)
  std::string example;  // one message it came from, cut
  static constexpr size_t kMaxNodes = 64;
};

struct ClassStats {
  uint64_t count = 0;
  TimePoint first{};
  TimePoint last{};
  std::string example;  // one message of a record that named it, cut
};

struct ClusterBaseline {
  std::unordered_map<std::string, TemplateStats> templates;  // by TemplateKey()
  std::unordered_map<std::string, ClassStats> exceptions;    // by simple class name
  std::set<std::string, std::less<>> nodes;
  uint64_t evicted = 0;  // templates dropped to stay within the bound
};

// One record to learn: what Baseline needs of it.
struct LearnedRecord {
  std::string_view cluster;
  std::string_view node;
  TimePoint time{};
  Level level = Level::kUnknown;
  std::string_view logger;
  std::string_view message;
  const std::string* template_text = nullptr;  // null: not a WARN+ record (no template)
  const std::vector<std::string>* classes = nullptr;
  const std::string* template_key = nullptr;   // TemplateKey(logger, *template_text), when known
};

// Where Learn() counts a record, found once (Baseline::PlaceOf()) for records of one kind
// learned again and again (Baseline::LearnAt()): the novelty detector's known shapes. Valid
// until a template is evicted (Baseline::evictions() changes) or the baseline is replaced.
struct LearnedPlace {
  TemplateStats* stats = nullptr;   // null: not a WARN+ record
  uint64_t* node_count = nullptr;   // the node's count of the template; null: not counted
  std::vector<ClassStats*> classes;
};

// "logger\x1ftemplate": how templates are keyed.
std::string TemplateKey(std::string_view logger, std::string_view text);

class Baseline {
 public:
  static constexpr int kVersion = 1;
  explicit Baseline(size_t max_templates = 5000, size_t max_saved_templates = 2000);

  void Learn(const LearnedRecord& record);
  // Where a record Learn() has learned is counted; LearnAt() then learns a record that would
  // be counted there, at `time` and `level`, as Learn() would.
  LearnedPlace PlaceOf(const LearnedRecord& record);
  static void LearnAt(const LearnedPlace& place, TimePoint time, Level level);
  // Event time the inputs ran through, whether or not a record was learned then: what
  // turns counts into rates. Stretches less than an hour apart are one.
  void Cover(TimePoint time);
  void Merge(const Baseline& other);

  // The cluster's baseline: its own, else the only one there is (logs that name no
  // cluster learned against logs that do); null when none applies.
  const ClusterBaseline* For(std::string_view cluster) const;
  const std::map<std::string, ClusterBaseline, std::less<>>& clusters() const { return clusters_; }
  Duration covered() const;
  const std::vector<std::pair<TimePoint, TimePoint>>& stretches() const { return covered_; }
  bool empty() const { return clusters_.empty() && covered_.empty(); }
  // Templates dropped to stay within the bound, over all clusters, ever.
  uint64_t evictions() const { return evictions_; }

  nlohmann::json ToJson() const;
  // Reads ToJson()'s output; the error names what is wrong (`what` names the file).
  static Result<Baseline> FromJson(const nlohmann::json& json, const std::string& what);
  std::string Text() const;                     // the file's bytes: ToJson(), indented
  Status Save(const std::string& path) const;  // Text(), written whole, then renamed into place
  static Result<Baseline> Load(const std::string& path);

 private:
  void Evict(ClusterBaseline* cluster);
  void AddStretch(TimePoint from, TimePoint to);

  size_t max_templates_;
  size_t max_saved_templates_;
  std::map<std::string, ClusterBaseline, std::less<>> clusters_;
  std::vector<std::pair<TimePoint, TimePoint>> covered_;  // sorted, disjoint
  uint64_t evictions_ = 0;
  static constexpr size_t kMaxStretches = 512;
};

}  // namespace foreshock
