// samples/formats/: one log per format foreshock reads, each the same short story on node
// es-data-1. Each is detected as its format and fires the same two alerts.

#include <gtest/gtest.h>
#include <zlib.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

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
    {"compose.log", "format ecs       envelope compose"},
};

TEST(FormatSamplesTest, EachSampleIsDetectedAndFiresTheSameAlerts) {
  for (const SampleCase& sample : kSamples) {
    const ProcessResult explain = RunForeshock({"scan", "--explain-format", FormatSample(sample.file)});
    EXPECT_EQ(explain.exit_code, 0) << sample.file;
    EXPECT_NE(explain.out.find("6 records"), std::string::npos) << explain.out;
    EXPECT_NE(explain.out.find(std::string("     6  ") + sample.detected), std::string::npos)
        << sample.file << ":\n" << explain.out;

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

}  // namespace
}  // namespace foreshock
