// The shipped catalog against the real logs in the shared corpus: every precursor line that
// SOURCES.md tags is matched by the intended pattern, and no pattern at warning or above hits
// anything else. Skips cleanly when the corpus is absent.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "app/record_reader.h"
#include "catalog/catalog_loader.h"
#include "input/fd_source.h"
#include "match/matcher.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

// Corpus file -> the patterns its SOURCES.md tags call for.
const std::map<std::string, std::set<std::string>>& Intended() {
  static const std::map<std::string, std::set<std::string>> intended = {
      {"es5-6-plain-beats-server-multiline.log",
       {"es.cluster.master_left_zen1", "es.cluster.no_master_block", "es.disk.low_watermark",
        "es.indexing.replica_write_failed", "es.jvm.gc_overhead", "es.jvm.gc_young_slow"}},
      {"es6-plain-beats-deprecation.log", {}},
      {"es6-plain-beats-server-6.2.4.log", {"es.disk.low_watermark", "es.cluster.health_recovered"}},
      {"es6-plain-beats-slowlog.log", {"es.search.slow_query"}},
      {"jdk8-gc-beats.log", {"jvm.gc_log.stop_the_world"}},
      {"es7-json-beats-search-slowlog.json", {"es.search.slow_query"}},
      {"es7-json-beats-server.json", {}},
      {"es8-ecs-beats-deprecation.json", {}},
      {"es8-ecs-beats-indexing-slowlog.json", {"es.search.slow_query"}},
      {"es8-ecs-beats-search-slowlog.json", {"es.search.slow_query"}},
      {"es8-ecs-beats-server-mixed-with-deprecation.json", {}},
      {"es8-ecs-beats-server.json", {}},
      {"es8-ecs-beats-stacktrace.json", {}},
      {"es1-plain-rejected-execution-search-elasticsearch-9390.log", {"es.threadpool.rejected"}},
      {"es2-plain-cluster-event-timeout-elasticsearch-17744.log", {"es.cluster.event_timeout"}},
      {"es2-plain-docker-high-watermark-elasticsearch-15919.log",
       {"es.disk.high_watermark", "es.disk.high_watermark_reroute"}},
      {"es2-plain-max-file-descriptors-elasticsearch-20508.log", {"es.node.max_file_descriptors"}},
      {"es2-plain-rejected-execution-search-elasticsearch-19613.log", {"es.threadpool.rejected"}},
      {"es5-plain-gc-old-elasticsearch-28062.log", {"es.jvm.gc_old_slow"}},
      {"es5-plain-gc-overhead-before-oom-elasticsearch-23928-part1.log", {"es.jvm.gc_overhead"}},
      {"es5-plain-gc-overhead-before-oom-elasticsearch-23928-part2.log", {"es.jvm.gc_overhead"}},
      {"es5-plain-gc-overhead-info-elasticsearch-22482.log", {"es.jvm.gc_overhead_moderate"}},
      {"es5-plain-parent-breaker-http-elasticsearch-75893.log", {"es.breaker.parent"}},
      {"es5-plain-put-mapping-cluster-event-timeout-elasticsearch-27303.log", {"es.cluster.event_timeout"}},
      {"es5-plain-too-many-open-files-node-mongodb-es-connector-19.log",
       {"es.node.too_many_open_files", "es.shard.failed"}},
      {"es6-plain-docker-high-watermark-articulate-536.log",
       {"es.disk.high_watermark", "es.disk.high_watermark_reroute"}},
      {"es6-plain-flood-stage-elasticsearch-26201.log", {"es.disk.flood_stage"}},
      {"es6-plain-gc-overhead-wazuh-dashboard-plugins-499.log", {"es.jvm.gc_overhead"}},
      {"es6-plain-gc-young-overhead-datashare-31.log", {"es.jvm.gc_young_slow", "es.jvm.gc_overhead"}},
      {"es6-plain-high-watermark-clear-ndr-iso-205.log",
       {"es.disk.high_watermark", "es.disk.high_watermark_reroute"}},
      {"es6-plain-oom-after-start-rancher-21004.log", {"es.jvm.out_of_memory"}},
      {"es6-plain-slow-cluster-applier-ci-elasticsearch-32358.log", {"es.cluster.slow_applier"}},
      {"es6-plain-total-fields-limit-fscrawler-702.log", {"es.mapping.total_fields_limit"}},
      {"es6-plain-total-fields-limit-invertus-elasticsearch-13.log", {"es.mapping.total_fields_limit"}},
      {"es7-json-discovery-timeout-helm-charts-179.log", {"es.cluster.discovery_timeout"}},
      {"es7-json-docker-gc-overhead-docker-elk-489.log", {"es.jvm.gc_overhead"}},
      {"es7-json-multiline-inflight-breaker-helm-charts-356.log", {"es.breaker.child"}},
      {"es7-plain-gc-old-slow-publication-elasticsearch-75665.log",
       {"es.jvm.gc_old_slow", "es.jvm.gc_overhead", "es.cluster.slow_publication"}},
      {"es7-plain-node-left-wrapped-elasticsearch-67873.log", {"es.cluster.node_left"}},
      {"es7-plain-oom-fatal-error-elasticsearch-49475.log", {"es.node.fatal_error", "es.jvm.out_of_memory"}},
      {"es7-plain-parent-breaker-wrapped-elasticsearch-47495.log", {"es.breaker.parent"}},
      {"es7-plain-scroll-context-limit-stack-elasticsearch-51865.log", {"es.search.scroll_context_limit"}},
      {"es7-plain-too-many-buckets-elasticsearch-49408.log", {"es.search.too_many_buckets"}},
      {"es8-ecs-docker-high-watermark-cleared-georchestra-docker-360.log", {"es.disk.high_watermark_cleared"}},
      {"es8-shipper-prefixed-transport-timeout-fshealth-elasticsearch-97876.log",
       {"es.transport.response_after_timeout", "es.transport.request_timeout", "es.node.fs_health_slow"}},
      {"opensearch1-plain-parent-breaker-opensearch-1661.log", {"es.breaker.parent"}},
      {"opensearch2-plain-cluster-manager-not-discovered-opensearch-6339.log",
       {"es.cluster.master_not_discovered", "es.cluster.discovery_timeout"}},
      {"opensearch2-plain-cluster-manager-not-discovered-opensearch-k8s-operator-554.log",
       {"es.cluster.master_not_discovered"}},
      {"opensearch2-plain-cluster-manager-not-discovered-canonical-opensearch-operator-320.log",
       {"es.cluster.master_not_discovered"}},
      {"opensearch-wazuh-indexer-plain-indexing-pressure-rejection-wazuh-indexer-1547.log",
       {"es.indexing.pressure_rejected"}},
  };
  return intended;
}

TEST(CorpusPrecursorsTest, EveryTaggedPrecursorIsMatchedAndNothingElseWarns) {
  const fs::path corpus(testing::kCorpusDir);
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no shared corpus at " << corpus;
  LoadReport report;
  auto catalog = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
  ASSERT_NE(catalog, nullptr);
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());

  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name == "SOURCES.md" || name.ends_with("-expected.json")) continue;
    ++files;
    auto intended = Intended().find(name);
    ASSERT_NE(intended, Intended().end()) << name << " is new in the corpus: say what it should match";
    auto reader = RecordReader::Create(std::move(FdSource::Open(entry.path().string())).value(), {});
    ASSERT_TRUE(reader.ok());
    std::set<std::string> hit;
    LogRecord record;
    std::vector<PatternHit> hits;
    while (true) {
      auto next = (*reader)->Read(&record, std::chrono::milliseconds(100));
      ASSERT_TRUE(next.ok());
      if (*next != RecordReader::Next::kRecord) break;
      hits.clear();
      (*matcher)->Match(record, &hits);
      for (const PatternHit& one : hits) {
        const Pattern& pattern = catalog->patterns()[static_cast<size_t>(one.pattern)];
        hit.insert(pattern.id);
        if (pattern.severity >= Severity::kWarning) {
          EXPECT_TRUE(intended->second.contains(pattern.id))
              << name << ":" << record.line_number << " is not a " << pattern.id << " line:\n" << record.text;
        }
      }
    }
    for (const std::string& id : intended->second) {
      EXPECT_TRUE(hit.contains(id)) << name << ": no line matched " << id;
    }
  }
  EXPECT_EQ(files, Intended().size()) << "a corpus file listed here is missing";
}

}  // namespace
}  // namespace foreshock
