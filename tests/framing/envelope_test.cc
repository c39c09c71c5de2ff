#include "framing/envelope.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace foreshock {
namespace {

struct Unwrapped {
  std::string inner;
  std::string envelope;
  std::string time;  // "" when the envelope had none
  Level level;
  std::string host;
  std::string file;
  bool parsed = false;
};

std::vector<Unwrapped> UnwrapAll(const std::vector<std::string>& lines, std::string forced = "auto",
                                 size_t max_line_bytes = 1 << 20) {
  EnvelopeUnwrapper unwrapper(std::move(forced), max_line_bytes, &TimeZone::Utc());
  std::vector<Unwrapped> out;
  for (const std::string& line : lines) {
    unwrapper.Add(line, [&](std::string_view inner, const EnvelopeHints& hints, std::string_view envelope) {
      out.push_back({std::string(inner), std::string(envelope),
                     hints.time ? FormatTimestamp(*hints.time) : "", hints.level, hints.host, hints.file,
                     hints.parsed});
    });
  }
  return out;
}

TEST(EnvelopeTest, JournaldJsonCarriesTimeHostAndPriority) {
  auto out = UnwrapAll({
      R"({"__REALTIME_TIMESTAMP":"1795920851482000","_HOSTNAME":"ES-Data-2.prod.example.com",)"
      R"("PRIORITY":"4","SYSLOG_IDENTIFIER":"elasticsearch","MESSAGE":"[2026-11-29T02:54:11,482][WARN ][r.suppressed] [es-data-2] failed\n"})",
      // A non-UTF-8 message is stored by journald as a byte array.
      R"({"__REALTIME_TIMESTAMP":"1795920851483000","_HOSTNAME":"es-data-2","PRIORITY":"3","MESSAGE":[9,97,116,32,120]})",
      // MESSAGE null: an entry with no text.
      R"({"__REALTIME_TIMESTAMP":"1795920851484000","MESSAGE":null})",
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].inner, "[2026-11-29T02:54:11,482][WARN ][r.suppressed] [es-data-2] failed");
  EXPECT_EQ(out[0].envelope, "journald-json");
  EXPECT_EQ(out[0].time, "2026-11-29T02:54:11.482Z");
  EXPECT_EQ(out[0].level, Level::kWarn);
  EXPECT_EQ(out[0].host, "es-data-2") << "one spelling per node: no domain, lower case";
  EXPECT_EQ(out[1].inner, "\tat x");
  EXPECT_EQ(out[1].level, Level::kError);
}

TEST(EnvelopeTest, JournaldTextFormats) {
  auto out = UnwrapAll({
      "-- Logs begin at Sun 2026-11-29 00:00:01 UTC, end at Sun 2026-11-29 03:00:00 UTC. --",
      "2026-11-29T02:54:11+0000 es-data-2 elasticsearch[812]: [2026-11-29T02:54:11,482][WARN ][r.suppressed] [es-data-2] x",
      "2026-11-29T02:54:11.483211+00:00 es-data-2 elasticsearch[812]: \tat org.Foo.bar(Foo.java:1)",
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].envelope, "journald-text");
  EXPECT_EQ(out[0].inner, "[2026-11-29T02:54:11,482][WARN ][r.suppressed] [es-data-2] x");
  EXPECT_EQ(out[0].time, "2026-11-29T02:54:11.000Z");
  EXPECT_EQ(out[1].inner, "\tat org.Foo.bar(Foo.java:1)");
  EXPECT_EQ(out[1].time, "2026-11-29T02:54:11.483Z");
}

TEST(EnvelopeTest, JournaldShortFormatTakesTheCurrentYear) {
  auto out = UnwrapAll({"Jan  5 02:54:11.482000 es-data-2 elasticsearch[812]: java.lang.OutOfMemoryError: Java heap space"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].inner, "java.lang.OutOfMemoryError: Java heap space");
  EXPECT_EQ(out[0].time.substr(4), "-01-05T02:54:11.482Z");
}

TEST(EnvelopeTest, FilebeatRawAndModuleParsedEvents) {
  EnvelopeUnwrapper unwrapper("auto", 1 << 20, &TimeZone::Utc());
  std::vector<std::pair<std::string, EnvelopeHints>> out;
  auto collect = [&](std::string_view inner, const EnvelopeHints& hints, std::string_view) {
    out.emplace_back(std::string(inner), hints);
  };
  unwrapper.Add(R"({"@timestamp":"2026-11-29T02:54:12.001Z","@metadata":{"beat":"filebeat"},)"
                R"("message":"[2026-11-29T02:54:11,482][WARN ][r.suppressed] [es-data-2] x\nCaused by: y",)"
                R"("log":{"offset":12,"file":{"path":"/var/log/elasticsearch/prod.log"}},)"
                R"("host":{"name":"es-data-2.example.com"},"agent":{"type":"filebeat"}})",
                collect);
  unwrapper.Add(R"({"@timestamp":"2018-05-17T08:19:36.089Z","elasticsearch.component":"o.e.e.NodeEnvironment",)"
                R"("elasticsearch.node.name":"vWNJsZ3","event.dataset":"elasticsearch.server","event.module":"elasticsearch",)"
                R"("fileset.name":"server","input.type":"log","log.level":"INFO","message":"heap size [990.7mb]"})",
                collect);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].first, "[2026-11-29T02:54:11,482][WARN ][r.suppressed] [es-data-2] x\nCaused by: y");
  EXPECT_EQ(out[0].second.file, "/var/log/elasticsearch/prod.log");
  EXPECT_EQ(out[0].second.host, "es-data-2");
  EXPECT_FALSE(out[0].second.parsed);
  EXPECT_EQ(out[1].first, "heap size [990.7mb]");
  EXPECT_TRUE(out[1].second.parsed);
  EXPECT_EQ(out[1].second.node, "vWNJsZ3");
  EXPECT_EQ(out[1].second.logger, "o.e.e.NodeEnvironment");
  EXPECT_EQ(out[1].second.level, Level::kInfo);
  EXPECT_EQ(FormatTimestamp(*out[1].second.time), "2018-05-17T08:19:36.089Z");
}

// Logstash, Vector and Fluent Bit carry ES's line as it was in "message" or "log": each
// is unwrapped with its shipper's time, host and file, stack frames (a line an event) too.
TEST(EnvelopeTest, OtherShippersLinesAreUnwrapped) {
  auto out = UnwrapAll({
      // Logstash 8, ECS compatibility: the line twice, the host and file nested.
      R"({"@timestamp":"2026-11-29T02:54:11.594Z","message":"{\"@timestamp\":\"2026-11-29T02:54:11.482Z\", )"
      R"(\"log.level\": \"WARN\"}","event":{"original":"x"},"@version":"1","host":{"name":"es-data-2.example"},)"
      R"("log":{"file":{"path":"/var/log/elasticsearch/prod_server.json"}}})",
      // Logstash without ECS: "host" and "path" are strings.
      R"({"path":"/var/log/elasticsearch/prod.log","@version":"1","host":"es-data-3",)"
      R"("message":"[2026-11-29T02:54:11,482][WARN ][o.e.x] [es-data-3] boom","@timestamp":"2026-11-29T02:54:12.000Z"})",
      // Vector's file source, keys in order.
      R"({"file":"/var/log/elasticsearch/prod.log","host":"es-data-4","message":"java.lang.Error: x",)"
      R"("source_type":"file","timestamp":"2026-11-29T02:54:13.123456789Z"})",
      // Fluent Bit's tail input: seconds since the epoch, slashes escaped, a stack frame alone.
      R"({"date":1795920851.482391,"log":"\tat org.elasticsearch.Foo.bar(Foo.java:12)\/x"})",
  });
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].inner, R"({"@timestamp":"2026-11-29T02:54:11.482Z", "log.level": "WARN"})");
  EXPECT_EQ(out[0].host, "es-data-2");
  EXPECT_EQ(out[0].file, "/var/log/elasticsearch/prod_server.json");
  EXPECT_EQ(out[0].time, "2026-11-29T02:54:11.594Z");
  EXPECT_FALSE(out[0].parsed);
  EXPECT_EQ(out[0].envelope, "shipper-json");
  EXPECT_EQ(out[1].inner, "[2026-11-29T02:54:11,482][WARN ][o.e.x] [es-data-3] boom");
  EXPECT_EQ(out[1].host, "es-data-3");
  EXPECT_EQ(out[1].file, "/var/log/elasticsearch/prod.log");
  EXPECT_EQ(out[2].inner, "java.lang.Error: x");
  EXPECT_EQ(out[2].host, "es-data-4");
  EXPECT_EQ(out[2].time, "2026-11-29T02:54:13.123Z");
  EXPECT_EQ(out[3].inner, "\tat org.elasticsearch.Foo.bar(Foo.java:12)/x");
  EXPECT_EQ(out[3].time, "2026-11-29T02:54:11.482Z");
  EXPECT_EQ(out[3].envelope, "shipper-json");
}

// Fluent Bit reading containerd's files keeps the CRI tag: "_p" (its multiline cri parser:
// the line in "log" without a newline, beside Docker's "stream", so read as docker-json) or
// "logtag" (its classic cri parser, the line in "message"). A P piece is part of a longer line.
TEST(EnvelopeTest, FluentBitOnContainerdJoinsPartialLines) {
  auto out = UnwrapAll({
      R"({"date":1795920851.49,"time":"2026-11-29T02:54:11.482951234Z","stream":"stdout","_p":"P","log":"{\"@timestamp\":"})",
      R"({"date":1795920851.49,"time":"2026-11-29T02:54:11.482951234Z","stream":"stdout","_p":"F","log":"\"x\"}"})",
      R"({"time":"2026-11-29T02:54:12.5Z","stream":"stderr","logtag":"F","message":"[2026-11-29T02:54:12,400][WARN ][o.e.x] [n] y"})",
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].envelope, "docker-json");
  EXPECT_EQ(out[0].inner, R"({"@timestamp":"x"})");
  EXPECT_EQ(out[0].time, "2026-11-29T02:54:11.482Z");
  EXPECT_EQ(out[1].envelope, "shipper-json");
  EXPECT_EQ(out[1].inner, "[2026-11-29T02:54:12,400][WARN ][o.e.x] [n] y");
  EXPECT_EQ(out[1].time, "2026-11-29T02:54:12.500Z");
}

TEST(EnvelopeTest, DockerJsonJoinsTheLinesDockerSplit) {
  auto out = UnwrapAll({
      R"({"log":"{\"@timestamp\":\"2026-11-29T02:54:11.482Z\", \"message\":\"par","stream":"stdout","time":"2026-11-29T02:54:11.482951Z"})",
      R"({"log":"t two\"}\n","stream":"stdout","time":"2026-11-29T02:54:11.482960Z"})",
      R"({"log":"next\n","stream":"stderr","time":"2026-11-29T02:54:12Z"})",
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].inner, R"({"@timestamp":"2026-11-29T02:54:11.482Z", "message":"part two"})");
  EXPECT_EQ(out[0].envelope, "docker-json");
  EXPECT_EQ(out[0].time, "2026-11-29T02:54:11.482Z");
  EXPECT_EQ(out[1].inner, "next");
}

TEST(EnvelopeTest, CriJoinsPartialLines) {
  auto out = UnwrapAll({
      "2026-11-29T02:54:11.482951234Z stdout P [2026-11-29T02:54:11,482][WARN ][r.suppressed] [n] first ",
      "2026-11-29T02:54:11.482951299Z stdout P half, ",
      "2026-11-29T02:54:11.482951300Z stdout F second half",
      "2026-11-29T02:54:12.000000000Z stderr F ",
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].inner, "[2026-11-29T02:54:11,482][WARN ][r.suppressed] [n] first half, second half");
  EXPECT_EQ(out[0].envelope, "cri");
  EXPECT_EQ(out[1].inner, "");
}

TEST(EnvelopeTest, LongPiecesAreCappedAtMaxLineBytes) {
  auto out = UnwrapAll({"2026-11-29T02:54:11.1Z stdout P " + std::string(100, 'a'),
                        "2026-11-29T02:54:11.2Z stdout F " + std::string(100, 'b')},
                       "auto", 150);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].inner, std::string(100, 'a') + std::string(50, 'b'));
}

TEST(EnvelopeTest, KubectlTimestampsComposePrefixesAndPastedIndentation) {
  auto out = UnwrapAll({
      "2026-11-29T02:54:11.482951234Z [2026-11-29T02:54:11,482][WARN ][r.suppressed] [n] x",
      "elasticsearch_1  | [2016-01-06 09:17:51,316][WARN ][cluster.routing.allocation.decider] [Arc] high disk watermark",
      "\t\t{\"type\": \"server\", \"timestamp\": \"2019-06-18T16:57:41,459+0000\", \"message\": \"m\"}",
  });
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].envelope, "kubectl");
  EXPECT_EQ(out[0].inner, "[2026-11-29T02:54:11,482][WARN ][r.suppressed] [n] x");
  EXPECT_EQ(out[1].envelope, "compose");
  EXPECT_EQ(out[1].host, "elasticsearch_1");
  EXPECT_EQ(out[1].inner.substr(0, 25), "[2016-01-06 09:17:51,316]");
  EXPECT_EQ(out[2].envelope, "indented");
  EXPECT_EQ(out[2].inner.substr(0, 9), "{\"type\": ");
}

// `kubectl logs -l app=elasticsearch --prefix` (and --timestamps): the pod names the host,
// and a stack frame keeps its tab for the assembler; a plain record's own "[" passes by.
TEST(EnvelopeTest, KubectlPrefixesNameThePod) {
  auto out = UnwrapAll({
      "[pod/es-data-2-0/elasticsearch] {\"@timestamp\":\"2026-11-29T02:54:11.482Z\", \"log.level\": \"WARN\"}",
      "[pod/es-data-2-0/elasticsearch] \tat org.elasticsearch.Foo.bar(Foo.java:12)",
      "[pod/es-master-0/elasticsearch] 2026-11-29T02:54:12.000123456Z [2026-11-29T02:54:11,999][INFO ][o.e.x] [m] y",
      "[2026-11-29T02:54:13,000][INFO ][o.e.x] [pod/x/y] z",
      "[pod/broken [2026-11-29T02:54:13,000][INFO ][o.e.x] [n] z",
  });
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].envelope, "kubectl");
  EXPECT_EQ(out[0].host, "es-data-2-0");
  EXPECT_EQ(out[0].inner, "{\"@timestamp\":\"2026-11-29T02:54:11.482Z\", \"log.level\": \"WARN\"}");
  EXPECT_EQ(out[0].time, "");
  EXPECT_EQ(out[1].inner, "\tat org.elasticsearch.Foo.bar(Foo.java:12)");
  EXPECT_EQ(out[1].host, "es-data-2-0");
  EXPECT_EQ(out[2].host, "es-master-0");
  EXPECT_EQ(out[2].time, "2026-11-29T02:54:12.000Z");
  EXPECT_EQ(out[2].inner, "[2026-11-29T02:54:11,999][INFO ][o.e.x] [m] y");
  EXPECT_EQ(out[3].envelope, "");
  EXPECT_EQ(out[3].inner, "[2026-11-29T02:54:13,000][INFO ][o.e.x] [pod/x/y] z");
  EXPECT_EQ(out[4].envelope, "");
}

TEST(EnvelopeTest, EsOwnLinesAndStackFramesPassThroughUntouched) {
  const std::vector<std::string> lines = {
      "[2026-11-29T02:54:11,482][WARN ][r.suppressed] [n] x",
      "\tat org.elasticsearch.Foo.bar(Foo.java:1)",
      R"({"@timestamp":"2026-11-29T02:54:11.482Z", "log.level": "WARN", "message":"m", "ecs.version": "1.2.0"})",
      "Caused by: java.lang.OutOfMemoryError: Java heap space",
  };
  auto out = UnwrapAll(lines);
  ASSERT_EQ(out.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(out[i].inner, lines[i]);
    EXPECT_EQ(out[i].envelope, "");
  }
}

TEST(EnvelopeTest, AForcedEnvelopeLeavesOtherLinesAsTheyAre) {
  auto out = UnwrapAll({"es01  | hello", "2026-11-29T02:54:11.5Z stdout F inner"}, "cri");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].inner, "es01  | hello");
  EXPECT_EQ(out[0].envelope, "");
  EXPECT_EQ(out[1].inner, "inner");
}

}  // namespace
}  // namespace foreshock
