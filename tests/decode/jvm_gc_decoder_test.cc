// JvmGcDecoder: the JVM's unified GC log, as Elasticsearch writes it to logs/gc.log.

#include "decode/jvm_gc_decoder.h"

#include <gtest/gtest.h>

#include "decode/es_plain_decoder.h"

namespace foreshock {
namespace {

Decoder::Outcome Decode(const Decoder& decoder, std::string_view text, LogRecord* record) {
  std::string why;
  record->Clear();
  return decoder.Decode(text, DecodeOptions{}, record, &why);
}

TEST(JvmGcDecoderTest, ReadsTheDecorationsElasticsearchConfigures) {
  const JvmGcDecoder decoder;
  LogRecord record;
  // ES's jvm.options: -Xlog:gc*,gc+age=trace,safepoint:file=logs/gc.log:utctime,level,pid,tags
  ASSERT_EQ(Decode(decoder,
                   "[2026-11-29T02:54:11.482+0000][12345][info][gc          ] GC(812) Pause Young (Normal) "
                   "(G1 Evacuation Pause) 15871M->15702M(16384M) 412.388ms",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(FormatTimestamp(record.time), "2026-11-29T02:54:11.482Z");
  EXPECT_EQ(record.level, Level::kInfo);
  EXPECT_EQ(record.logger, "gc");
  EXPECT_EQ(record.dataset, "jvm.gc");
  EXPECT_EQ(record.message(), "GC(812) Pause Young (Normal) (G1 Evacuation Pause) 15871M->15702M(16384M) 412.388ms");
  EXPECT_EQ(record.node, "") << "the line names no node: the file's does";

  ASSERT_EQ(Decode(decoder, "[2026-11-29T02:54:12.001+0000][12345][safepoint   ] Safepoint \"G1CollectForAllocation\"",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.logger, "safepoint");
  EXPECT_EQ(record.level, Level::kInfo) << "no level decoration: info";
  ASSERT_EQ(Decode(decoder, "[2026-11-29T02:54:12.001+0000][warning][gc,alloc] GC(813) To-space exhausted", &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.level, Level::kWarn);
  EXPECT_EQ(record.logger, "gc,alloc");
  ASSERT_EQ(Decode(decoder, "[12.345s][info][gc,start] GC(0) Pause Young (Normal) (G1 Evacuation Pause)", &record),
            Decoder::Outcome::kDecoded);
  EXPECT_FALSE(record.has_time) << "an uptime is no time of day: the reader takes the previous record's";
}

// Java 8's GC log (ES 6 and older): -XX:+PrintGCDateStamps -XX:+PrintGCTimeStamps.
TEST(JvmGcDecoderTest, ReadsJava8GcLogLines) {
  const JvmGcDecoder decoder;
  LogRecord record;
  ASSERT_EQ(Decode(decoder,
                   "2018-03-03T19:37:06.157+0500: 14597.826: [GC (CMS Initial Mark) [1 CMS-initial-mark: "
                   "131804K(174784K)] 142444K(253440K), 0.0021716 secs] [Times: user=0.01 sys=0.00, real=0.00 secs]",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(FormatTimestamp(record.time), "2018-03-03T14:37:06.157Z");
  EXPECT_EQ(record.level, Level::kInfo);
  EXPECT_EQ(record.logger, "gc");
  EXPECT_EQ(record.dataset, "jvm.gc");
  EXPECT_EQ(record.message().substr(0, 27), "[GC (CMS Initial Mark) [1 C");
  ASSERT_EQ(Decode(decoder,
                   "2018-06-11T01:53:11.382+0000: 1396138.752: Total time for which application threads were "
                   "stopped: 0.0083760 seconds, Stopping threads took: 0.0000702 seconds",
                   &record),
            Decoder::Outcome::kDecoded);
  EXPECT_EQ(record.message().substr(0, 21), "Total time for which ");
  for (const char* line : {
           "2026-11-29T02:00:01.500391027Z {\"log\":\"kubectl --timestamps\"}",
           "2026-11-29T02:00:01+0000 es-host elasticsearch[812]: journald short-iso",
           "2018-06-11T01:53:11.382+0000: no uptime: here",
       }) {
    EXPECT_EQ(Decode(decoder, line, &record), Decoder::Outcome::kNotMine) << line;
  }
}

TEST(JvmGcDecoderTest, ElasticsearchPlainLinesAndOtherBracketsAreNotGcLog) {
  const JvmGcDecoder decoder;
  LogRecord record;
  for (const char* line : {
           "[2026-11-29T02:54:11,482][WARN ][o.e.m.j.JvmGcMonitorService] [es-1] [gc][120431] overhead",
           "[2016-09-15 08:52:04,867][WARN ][env                      ] [my-node] max file descriptors",
           "[2026-11-29T02:54:11.482+0000][12345][info] no tags",
           "[gc][young][72843][191] duration [1.4s]",
           "[12345][info][gc] no time first",
           "[2026-11-29T02:54:11.482+0000][gc]x no space after the tags",
       }) {
    EXPECT_EQ(Decode(decoder, line, &record), Decoder::Outcome::kNotMine) << line;
  }
  const EsPlainDecoder plain;
  EXPECT_EQ(Decode(plain, "[2016-09-15 08:52:04,867][WARN ][env                      ] [my-node] max file descriptors",
                   &record),
            Decoder::Outcome::kDecoded);
}

}  // namespace
}  // namespace foreshock
