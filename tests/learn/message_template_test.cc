#include "learn/message_template.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "decode/decoder_registry.h"
#include "learn/baseline.h"
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


// What the novelty detector would know a line by (ShapeOf() of its header), and what it
// would read from it decoded in full. Not shaped: a line the reader would not hand out by
// its shape.
struct Judged {
  bool shaped = false;
  RecordShape shape;
  std::string node;
  std::string cluster;
  std::tuple<std::string, std::vector<std::string>, Level, std::string> read;  // key, classes, level, dataset
};

Judged Judge(DecoderSet* decoders, const std::string& line) {
  Judged judged;
  LogRecord record;
  std::string why;
  std::string_view format;
  if (decoders->Decode(line, DecodeOptions{}, &record, &why, &format) != Decoder::Outcome::kDecoded) return judged;
  DecodeOptions options;
  options.header_level = true;
  options.one_line = true;
  RecordHeader header;
  if (!decoders->DecodeHeader(line, options, &header, &format) || !header.notable() ||
      header.parts[0].size() >= kMaxShapedMessageBytes || (header.escapes & kEscapedControl) != 0) {
    return judged;
  }
  judged.shaped = true;
  judged.shape = ShapeOf(header);
  judged.node = record.node;
  judged.cluster = record.cluster;
  judged.read = {TemplateKey(record.logger, TemplateOf(record.message(), record.node, record.cluster)),
                 ExceptionClassesIn(record.text), record.level, record.dataset};
  return judged;
}

// ES 8 ECS as ES writes it.
std::string EcsLine(const std::string& level, const std::string& message, const std::string& logger,
                    const std::string& error_type = "", const std::string& thread = "T#3",
                    const std::string& dataset = "elasticsearch.server") {
  std::string line = "{\"@timestamp\":\"2026-11-29T02:54:11.482Z\", \"log.level\": \"" + level + "\", \"message\":\"" +
                     message + "\", \"ecs.version\": \"1.2.0\",\"service.name\":\"ES_ECS\",\"event.dataset\":\"" + dataset +
                     "\",\"process.thread.name\":\"elasticsearch[es-data-1][generic][" + thread + "]\",\"log.logger\":\"" +
                     logger + "\",\"elasticsearch.node.name\":\"es-data-1\",\"elasticsearch.cluster.name\":\"prod\"";
  if (!error_type.empty()) {
    line += ",\"error.type\":\"" + error_type + "\",\"error.message\":\"boom\",\"error.stack_trace\":\"" + error_type +
            ": boom\\n\\tat org.elasticsearch.x.Y.z(Y.java:12)\"";
  }
  return line + "}";
}

TEST(ShapeTest, ValuesDoNotChangeALinesShapeAndWhatTheDetectorReadsDoes) {
  auto decoders = DecoderSet::Create("auto");
  ASSERT_TRUE(decoders.ok());
  const auto shape = [&](const std::string& line) {
    const Judged judged = Judge(decoders->get(), line);
    EXPECT_TRUE(judged.shaped) << line;
    return judged.shape;
  };
  const std::string logger = "org.elasticsearch.http.AbstractHttpServerTransport";
  const std::string netty = "caught exception while handling client http traffic, closing connection "
                            "Netty4HttpChannel{localAddress=/10.0.1.7:9200, remoteAddress=/10.2.3.1:53577}";
  const std::string netty_other = "caught exception while handling client http traffic, closing connection "
                                  "Netty4HttpChannel{localAddress=/10.0.1.17:9200, remoteAddress=/10.2.113.9:5357}";
  const std::string conflict = "[3fa9c0b1]: version conflict, required seqNo [8812], primary term [1]";
  const std::string conflict_other = "[c0ffee42]: version conflict, required seqNo [9], primary term [1]";
  // Addresses, ports, hex ids, the thread: the same shape, told apart by their values.
  EXPECT_EQ(shape(EcsLine("WARN", netty, logger)).id, shape(EcsLine("WARN", netty_other, logger, "", "T#12")).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).values, shape(EcsLine("WARN", netty_other, logger)).values);
  EXPECT_EQ(shape(EcsLine("WARN", conflict, logger)).id, shape(EcsLine("WARN", conflict_other, logger)).id);
  // A class's digits, the level, the logger, the dataset, a word becoming a value: apart.
  EXPECT_NE(shape(EcsLine("WARN", netty, logger, "org.x.Http2Exception")).id,
            shape(EcsLine("WARN", netty, logger, "org.x.Http1Exception")).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).id, shape(EcsLine("ERROR", netty, logger)).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).id, shape(EcsLine("WARN", netty, logger + "2")).id);
  EXPECT_NE(shape(EcsLine("WARN", netty, logger)).id,
            shape(EcsLine("WARN", netty, logger, "", "T#3", "elasticsearch.slowlog")).id);
  EXPECT_NE(shape(EcsLine("WARN", "disk [abc] is slow", logger)).id, shape(EcsLine("WARN", "disk [ab1] is slow", logger)).id);
  // Plain text may hold any byte: the mark a value leaves is never text's own.
  const std::string plain = "[2026-11-29T02:54:11,482][WARN ][o.e.x.Disk               ] [es-data-1] disk ";
  EXPECT_NE(shape(plain + "\x01\x03 is slow").id, shape(plain + "7 is slow").id);
  EXPECT_EQ(shape(plain + "7 is slow").id, shape(plain + "12 is slow").id);
}

// Soundness, on real logs and on them with their values changed: lines of one shape (and
// node and cluster) give the novelty detector the same template, exception classes, level
// and dataset, so settling a line by its shape is exact.
TEST(ShapeTest, LinesOfOneShapeReadTheSameOnTheCorpusWithValuesScrambled) {
  const fs::path corpus = testing::kCorpusDir;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no shared corpus at " << corpus;
  std::mt19937 random(7);
  // Past the line's stamp (its first 48 bytes), every digit run replaced by 1 to 6 random
  // digits, and a hex-looking letter after one, at times, by another.
  const auto scramble = [&](const std::string& line) {
    std::string out = line.substr(0, 48);
    for (size_t i = out.size(); i < line.size();) {
      if (line[i] >= '0' && line[i] <= '9') {
        while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
        const int length = 1 + static_cast<int>(random() % 6);
        for (int d = 0; d < length; ++d) out.push_back(static_cast<char>('0' + random() % 10));
        if (i < line.size() && line[i] >= 'a' && line[i] <= 'f' && random() % 2 == 0) {
          out.push_back(static_cast<char>('a' + random() % 6));
          ++i;
        }
        continue;
      }
      out.push_back(line[i++]);
    }
    return out;
  };
  auto decoders = DecoderSet::Create("auto");
  ASSERT_TRUE(decoders.ok());
  std::map<std::tuple<uint64_t, std::string, std::string>, Judged> by_shape;
  size_t shaped = 0;
  size_t variants = 0;  // scrambled lines whose line was shaped
  size_t kept = 0;      // of those, with their line's shape
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    if (!entry.is_regular_file() || entry.path().string().ends_with("expected.json")) continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      Judged original;
      for (int variant = 0; variant < 6; ++variant) {
        const std::string text = variant == 0 ? line : scramble(line);
        const Judged judged = Judge(decoders->get(), text);
        if (variant == 0) original = judged;
        if (!judged.shaped) continue;
        ++shaped;
        if (variant > 0 && original.shaped) {
          ++variants;
          kept += judged.shape.id == original.shape.id ? 1 : 0;
        }
        const auto [it, added] = by_shape.try_emplace({judged.shape.id, judged.node, judged.cluster}, judged);
        if (!added) {
          EXPECT_EQ(it->second.read, judged.read) << entry.path().filename() << ": " << text;
        }
      }
    }
  }
  EXPECT_GT(shaped, 200u);
  // Values are what a shape takes out: scrambled, a line mostly keeps its shape (a class's
  // digits do not).
  EXPECT_GT(variants, 200u);
  EXPECT_GT(kept, variants * 9 / 10);
}

}  // namespace
}  // namespace foreshock
