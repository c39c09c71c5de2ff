// samples/formats/: one log per format foreshock reads, each the same short story on node
// es-data-1. Each is detected as its format and fires the same two alerts.

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;
using testing::ProcessResult;
using testing::RunForeshock;
using testing::TempDir;

std::string FormatSample(const std::string& name) {
  return std::string(testing::kSamplesDir) + "/formats/" + name;
}

struct SampleCase {
  const char* file;
  const char* detected;  // as --explain-format prints it
};

constexpr SampleCase kSamples[] = {
    {"es-plain.log", "format es-plain  no envelope"},
    {"es-plain-2x.log", "format es-plain  no envelope"},
    {"opensearch-plain.log", "format es-plain  no envelope"},
    {"ecs.json", "format ecs       no envelope"},
    {"es-json.json", "format es-json   no envelope"},
    {"journald.json", "format es-plain  envelope journald-json"},
    {"journald-short-iso.log", "format es-plain  envelope journald-text"},
    {"filebeat.ndjson", "format es-plain  envelope filebeat"},
    {"cri.log", "format ecs       envelope cri"},
    {"docker-json.log", "format ecs       envelope docker-json"},
    {"kubectl-timestamps.log", "format ecs       envelope kubectl"},
    {"kubectl-prefix.log", "format es-plain  envelope kubectl"},
    {"compose.log", "format ecs       envelope compose"},
    {"logstash.ndjson", "format ecs       envelope shipper-json"},
    {"vector.ndjson", "format ecs       envelope shipper-json"},
    {"fluent-bit.ndjson", "format es-plain  envelope shipper-json"},
    {"fluent-bit-cri.ndjson", "format ecs       envelope docker-json"},
};

TEST(FormatSamplesTest, EachSampleIsDetectedAndFiresTheSameAlerts) {
  for (const SampleCase& sample : kSamples) {
    const ProcessResult explain = RunForeshock({"scan", "--explain-format", FormatSample(sample.file)});
    EXPECT_EQ(explain.exit_code, 0) << sample.file;
    EXPECT_NE(explain.out.find("6 records"), std::string::npos) << explain.out;
    EXPECT_NE(explain.out.find(std::string("     6  ") + sample.detected), std::string::npos)
        << sample.file << ":\n" << explain.out;
    // And why: what marks the envelope (if any) and the format on a line.
    const std::string label = "\n         why:   ";
    const size_t why = explain.out.find(label);
    ASSERT_NE(why, std::string::npos) << explain.out;
    const size_t begin = why + label.size();
    const std::string reason = explain.out.substr(begin, explain.out.find('\n', begin) - begin);
    const std::string detected = sample.detected;
    const char* format_shape = detected.starts_with("format ecs ")       ? "Elasticsearch 8 ECS JSON"
                               : detected.starts_with("format es-json ") ? "Elasticsearch 7 JSON"
                                                                         : "plain text: [time][LEVEL][logger]";
    EXPECT_NE(reason.find(format_shape), std::string::npos) << sample.file << ": " << reason;
    EXPECT_EQ(reason.find(", holding ") != std::string::npos, detected.find("no envelope") == std::string::npos)
        << sample.file << ": " << reason;

    const ProcessResult scan = RunForeshock({"scan", FormatSample(sample.file)});
    ASSERT_EQ(scan.exit_code, 0) << scan.err;
    std::istringstream lines(scan.out);
    std::vector<nlohmann::json> alerts;
    for (std::string line; std::getline(lines, line);) alerts.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(alerts.size(), 2u) << sample.file;
    EXPECT_EQ(alerts[0]["@timestamp"], "2026-11-29T02:10:05.250Z") << sample.file;
    EXPECT_EQ(alerts[0]["event"]["action"], "firing") << sample.file;
    EXPECT_EQ(alerts[0]["elasticsearch"]["node"]["name"], "es-data-1") << sample.file;
    EXPECT_EQ(alerts[1]["@timestamp"], "2026-11-29T02:21:40.125Z") << sample.file;
    EXPECT_EQ(alerts[1]["foreshock"]["stage"], 3) << sample.file;
    EXPECT_EQ(alerts[1]["foreshock"]["lead_time_s"], 694.875) << sample.file;
    EXPECT_EQ(alerts[1]["foreshock"]["fields"]["breaker_limit"], 8160437862) << sample.file;
  }
}

TEST(FormatSamplesTest, FilebeatEvidenceNamesTheFileTheShipperRead) {
  const ProcessResult scan = RunForeshock({"scan", FormatSample("filebeat.ndjson")});
  EXPECT_NE(scan.out.find(":3 (/var/log/elasticsearch/prod.log)"), std::string::npos) << scan.out;
  for (const char* shipper : {"logstash.ndjson", "vector.ndjson"}) {
    const ProcessResult shipped = RunForeshock({"scan", FormatSample(shipper)});
    EXPECT_NE(shipped.out.find(":3 (/var/log/elasticsearch/prod_server.json)"), std::string::npos) << shipped.out;
  }
}

// A .gz handed to scan by mistake is said plainly and passed over; the other inputs go on.
TEST(FormatSamplesTest, CompressedInputIsDecompressedByItsMagicBytes) {
  TempDir dir;
  const std::string plain = testing::ReadFile(FormatSample("es-plain.log"));
  const std::string path = dir.path() + "/es-plain.log.1";  // no .gz: the bytes tell
  gzFile out = gzopen(path.c_str(), "wb");
  gzwrite(out, plain.data(), static_cast<unsigned>(plain.size()));
  gzclose(out);
  const ProcessResult compressed = RunForeshock({"scan", path});
  const ProcessResult uncompressed = RunForeshock({"scan", FormatSample("es-plain.log")});
  EXPECT_EQ(compressed.exit_code, 0) << compressed.err;
  ASSERT_FALSE(uncompressed.out.empty());
  EXPECT_EQ(std::count(compressed.out.begin(), compressed.out.end(), '\n'),
            std::count(uncompressed.out.begin(), uncompressed.out.end(), '\n'));
  EXPECT_NE(compressed.out.find("es-plain.log.1:"), std::string::npos) << "evidence names the archive";
}

// A damaged archive (cut short) is read up to the damage and said, with its name and the
// compressed offset, as replay says it: scan exits 3, and the alerts of what was read stand.
TEST(FormatSamplesTest, ADamagedArchiveIsSaidAndScanExitsThree) {
  TempDir dir;
  const std::string path = dir.path() + "/order-events-node-2.json.1.gz";
  const std::string seed = testing::ReadFile(std::string(testing::kSamplesDir) + "/seed-incident/order-events-node-2.json");
  gzFile out = gzopen(path.c_str(), "wb");
  gzwrite(out, seed.data(), static_cast<unsigned>(seed.size()));
  gzclose(out);
  const std::string whole = testing::ReadFile(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() / 2);
  const ProcessResult result = RunForeshock({"scan", path});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find(path + ": gzip archive truncated at compressed byte offset"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("1 input of 1 could not be read in full"), std::string::npos) << result.err;
  EXPECT_NE(result.out.find("\"es.chain.scroll_leak\""), std::string::npos) << "02:54 is before the damage";
}

// A flood of garbage must not flood stderr: a few reports, then only counts.
TEST(FormatSamplesTest, BadRecordsAreReportedAtABoundedRate) {
  TempDir dir;
  std::string garbage;
  for (int i = 0; i < 2000; ++i) garbage += std::string("\x01\x02 binary \xff\xfe line ") + std::to_string(i) + "\n";
  const ProcessResult result = RunForeshock({"scan", dir.Write("garbage.bin", garbage)});
  EXPECT_EQ(result.exit_code, 0);
  size_t warnings = 0;
  for (size_t at = result.err.find("passed over"); at != std::string::npos; at = result.err.find("passed over", at + 1)) {
    ++warnings;
  }
  EXPECT_LE(warnings, 7u) << result.err;  // five reports, one summary line (and its "passed over")
  EXPECT_NE(result.err.find("2000 unreadable"), std::string::npos) << result.err;
}

// The JVM's own gc.log (JDK 17 unified logging, the decorations Elasticsearch configures) is
// read as jvm-gc, never as ES plain text, takes its node from its folder, and tells the heap
// leak's story before the full GC: old generation above 85 % after three collections running,
// then G1 out of room and a long pause.
TEST(FormatSamplesTest, AGcLogIsReadAsJvmGcUnderItsFoldersNodeAndWarnsOfAHeapThatStaysFull) {
  const std::string gc_log = std::string(testing::kSamplesDir) + "/gc-log/es-data-1/gc.log";
  const ProcessResult explain = RunForeshock({"scan", "--explain-format", gc_log});
  EXPECT_NE(explain.out.find("    70  format jvm-gc    no envelope"), std::string::npos) << explain.out;

  const ProcessResult shown = RunForeshock({"match", "--show", "--json", gc_log});
  std::istringstream records(shown.out);
  std::string line;
  for (int i = 0; i < 12; ++i) std::getline(records, line);  // the first collection's summary line
  const nlohmann::json record = nlohmann::json::parse(line);
  EXPECT_EQ(record["format"], "jvm-gc");
  EXPECT_EQ(record["@timestamp"], "2026-11-29T02:40:01.187Z");
  EXPECT_EQ(record["level"], "info");
  EXPECT_EQ(record["logger"], "gc");
  EXPECT_EQ(record["node"], "es-data-1");
  EXPECT_EQ(record["message"], "GC(800) Pause Young (Normal) (G1 Evacuation Pause) 12810M->11204M(16384M) 85.123ms");
  ASSERT_EQ(record["hits"].size(), 1u) << record.dump();
  EXPECT_EQ(record["hits"][0]["captures"]["heap_after"], "11204M");

  const ProcessResult scan = RunForeshock({"scan", gc_log});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  std::vector<std::string> alerts;
  std::istringstream lines(scan.out);
  for (std::string text; std::getline(lines, text);) {
    const nlohmann::json alert = nlohmann::json::parse(text);
    alerts.push_back(alert["@timestamp"].get<std::string>() + " " + alert["rule"]["id"].get<std::string>() + " " +
                     alert["foreshock"]["group"]["node"].get<std::string>());
  }
  EXPECT_EQ(alerts, (std::vector<std::string>{
                        "2026-11-29T03:02:44.560Z jvm.gc.heap_stays_full es-data-1",
                        "2026-11-29T03:08:41.220Z jvm.gc.evacuation_failure es-data-1",
                        "2026-11-29T03:08:41.220Z jvm.gc.long_pause es-data-1",
                        "2026-11-29T03:10:00.123Z es.chain.gc_storm es-data-1",
                    }));
}

// A run of collections that leaves the heap full is a leak; one collection that brings it
// down breaks the run.
TEST(FormatSamplesTest, ACollectionThatBringsTheHeapDownStartsTheCountAgain) {
  TempDir dir;
  std::string log;
  int gc = 0;
  auto collect = [&](const char* time, int after) {
    log += std::string("[2026-11-29T") + time + "+0000][41822][gc          ] GC(" + std::to_string(gc++) +
           ") Pause Young (Normal) (G1 Evacuation Pause) 16000M->" + std::to_string(after) + "M(16384M) 85.000ms\n";
  };
  collect("02:40:00.000", 15000);  // 92 %
  collect("02:41:00.000", 15000);
  collect("02:42:00.000", 9000);   // brought down: the count starts again
  collect("02:43:00.000", 15000);
  collect("02:44:00.000", 15000);
  fs::create_directories(dir.path() + "/es-data-4");
  const std::string path = dir.Write("es-data-4/gc.log", log);
  ProcessResult scan = RunForeshock({"scan", path});
  EXPECT_EQ(scan.out, "") << "never three in a row";
  collect("02:45:00.000", 15000);
  std::ofstream(path) << log;
  scan = RunForeshock({"scan", path});
  EXPECT_NE(scan.out.find("\"jvm.gc.heap_stays_full\""), std::string::npos) << scan.out;
  EXPECT_NE(scan.out.find("\"@timestamp\":\"2026-11-29T02:45:00.000Z\""), std::string::npos) << scan.out;
}

}  // namespace
}  // namespace foreshock
