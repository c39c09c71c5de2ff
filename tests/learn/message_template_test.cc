#include "learn/message_template.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "decode/decoder_registry.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

TEST(MessageTemplateTest, LinesThatDifferOnlyInValuesShareATemplate) {
  const std::vector<std::pair<std::string, std::string>> same = {
      {"loaded module [aggs-matrix-stats]", "loaded module [analysis-common]"},
      {"adding template [.monitoring-kibana] for index patterns [.monitoring-kibana-7-*]",
       "adding template [.monitoring-alerts-7] for index patterns [.monitoring-alerts-7]"},
      {"[gc][young][31426][418] duration [10.7s], collections [1]/[11.5s], total [10.7s]/[1.2h]",
       "[gc][old][2][9] duration [850ms], collections [2]/[1s], total [850ms]/[3s]"},
      {"publish_address {127.0.0.1:9300}, bound_addresses {[::1]:9300}, {127.0.0.1:9300}",
       "publish_address {10.20.1.12:9200}, bound_addresses {[fe80::1]:9200}, {10.20.1.12:9200}"},
      {"new_master {vWNJsZ3}{vWNJsZ3nTIKh5a1ai-ftYQ}{WWQIkoohTtWqa2gfWhFq-w}{127.0.0.1}{127.0.0.1:9300}, reason: "
       "apply cluster state",
       "new_master {es-master-2}{aB3dE5fG7hI9jK1lM3nO5p}{Qr7St9Uv1Wx3Yz5Ab7Cd9e}{10.0.0.2}{10.0.0.2:9300}{dimr}, "
       "reason: apply cluster state"},
      {"path: /order_events/_search, params: {scroll=10m, size=5000, index=order_events}, status: 429",
       "path: /products/_search, params: {scroll=1m, size=100, index=products}, status: 503"},
      {"failed to retrieve stats for node [dHVlc2RheS1ub2RlLTI]", "failed to retrieve stats for node [aXl2b3Jk]"},
      {"timer thread slept for [6.1s/6178ms] on absolute clock which is above the warn threshold of [5000ms]",
       "timer thread slept for [12.4s/12413ms] on absolute clock which is above the warn threshold of [5000ms]"},
      {"node ID vWNJsZ3nTIKh5a1ai-ftYQ joined", "node ID aB3dE5fG7hI9jK1lM3nO5p joined"},
      {"failed to list shard for shard_store on node [Zx1] at /var/lib/elasticsearch/nodes/0",
       "failed to list shard for shard_store on node [Yq2] at /data/es/nodes/1"},
  };
  for (const auto& [a, b] : same) EXPECT_EQ(TemplateOf(a), TemplateOf(b)) << a << "\n" << b;
  EXPECT_EQ(TemplateOf("loaded module [aggs-matrix-stats]"), "loaded module [<*>]");
}

TEST(MessageTemplateTest, DifferentMessagesKeepDifferentTemplates) {
  const std::vector<std::string> messages = {
      "loaded module [x]",
      "loaded plugin [x]",
      "no plugins loaded",
      "updating [search.max_open_scroll_context] from [500] to [1000]",
      "updating [cluster.routing.allocation.enable] from [all] to [primaries]",
      "failed to retrieve stats for node [x]",
      "failed to execute search request",
      "high disk watermark [90%] exceeded on [x][y][/data] free: [1gb]",
      "low disk watermark [85%] exceeded on [x][y][/data] free: [1gb]",
  };
  std::set<std::string> templates;
  for (const std::string& message : messages) templates.insert(TemplateOf(message));
  EXPECT_EQ(templates.size(), messages.size());
  // A setting's name is what the message is about, not a value.
  EXPECT_EQ(TemplateOf("updating [search.max_open_scroll_context] from [500] to [1000]"),
            "updating [search.max_open_scroll_context] from [<*>] to [<*>]");
}

TEST(MessageTemplateTest, TheWritingNodeAndClusterAreMaskedAndLongMessagesCut) {
  EXPECT_EQ(TemplateOf("master alpha left, cluster search-prod degraded", "alpha", "search-prod"),
            "master <*> left, cluster <*> degraded");
  const std::string query(5000, 'q');
  EXPECT_LE(TemplateOf("slow query " + query).size(), kMaxTemplateBytes);
  EXPECT_EQ(TemplateOf("first line\n\tat org.x.Y.z(Y.java:1)"), "first line");
}

TEST(ExceptionClassesTest, ReadsWrappersCausesNestedAndRestTypesButNotFrames) {
  const std::string text =
      "path: /order_events/_search, params: {scroll=10m}, status: 429\n"
      "org.elasticsearch.action.search.SearchPhaseExecutionException\n"
      "all shards failed\n"
      "Failed to execute phase [query], all shards failed; shardFailures {[dHVl][order_events][2]: "
      "RemoteTransportException[[order-events-node-2][10.20.1.12:9300][indices:data/read/search[phase/query]]]; "
      "nested: TooManyScrollContextsException[Trying to create too many scroll contexts.]; }\n"
      "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.onPhaseFailure(AbstractSearchAsyncAction.java:712)\n"
      "\tat org.elasticsearch.common.util.concurrent.EsRejectedExecutionHandler.newRejectedException(X.java:1)\n"
      "Caused by: org.elasticsearch.search.TooManyScrollContextsException: Trying to create too many scroll contexts.\n"
      "\t... 12 more";
  EXPECT_EQ(ExceptionClassesIn(text),
            (std::vector<std::string>{"SearchPhaseExecutionException", "RemoteTransportException",
                                      "TooManyScrollContextsException"}));
  EXPECT_EQ(ExceptionClassesIn("{\"error\":{\"type\":\"circuit_breaking_exception\",\"reason\":\"[parent] Data too large\"}}"),
            std::vector<std::string>{"CircuitBreakingException"});
  EXPECT_EQ(ExceptionClassesIn("java.lang.OutOfMemoryError: Java heap space"), std::vector<std::string>{"OutOfMemoryError"});
  // A bare word is no class; a package makes it one.
  EXPECT_TRUE(ExceptionClassesIn("Error while closing the connection, Exception ignored").empty());
  EXPECT_EQ(ExceptionClassesIn("java.lang.Exception: boom"), std::vector<std::string>{"Exception"});
}

// Real logs written by others: the records of one logger whose messages differ only in what
// ES filled in share a template, and every record's exception classes are read.
TEST(MessageTemplateTest, OnTheCorpusValuesMaskAndMessagesStayApart) {
  const fs::path corpus = testing::kCorpusDir;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no shared corpus at " << corpus;
  auto decoders = DecoderSet::Create("auto");
  ASSERT_TRUE(decoders.ok());
  auto read = [&](const std::string& name) {
    std::vector<LogRecord> records;
    std::ifstream in(corpus / name);
    std::string line;
    while (std::getline(in, line)) {
      LogRecord record;
      std::string why;
      std::string_view format;
      if ((*decoders)->Decode(line, DecodeOptions{}, &record, &why, &format) == Decoder::Outcome::kDecoded) {
        records.push_back(record);
      }
    }
    return records;
  };
  // es6: "loaded module [...]" x15 from PluginsService is one template; the Node logger's
  // start-up lines are several.
  std::map<std::string, std::set<std::string>> by_logger;
  for (const LogRecord& record : read("es6-plain-beats-server-6.2.4.log")) {
    by_logger[record.logger].insert(TemplateOf(record.message(), record.node, record.cluster));
  }
  ASSERT_TRUE(by_logger.contains("o.e.p.PluginsService"));
  EXPECT_EQ(by_logger["o.e.p.PluginsService"], (std::set<std::string>{"loaded module [<*>]", "no plugins loaded"}));
  EXPECT_GE(by_logger["o.e.n.Node"].size(), 5u);
  // es8: the "adding template" lines of MetadataIndexTemplateService are one template.
  std::set<std::string> adding;
  for (const LogRecord& record : read("es8-ecs-beats-server.json")) {
    if (record.message().starts_with("adding template")) adding.insert(TemplateOf(record.message()));
  }
  EXPECT_EQ(adding.size(), 1u) << *adding.begin();
  // The stack-trace file names its exception, from error.type and the trace.
  const std::vector<LogRecord> traced = read("es8-ecs-beats-stacktrace.json");
  ASSERT_FALSE(traced.empty());
  const std::vector<std::string> classes = ExceptionClassesIn(traced[0].text);
  EXPECT_NE(std::find(classes.begin(), classes.end(), "Exception"), classes.end());
}


}  // namespace
}  // namespace foreshock
