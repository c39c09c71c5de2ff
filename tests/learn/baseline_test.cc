#include "learn/baseline.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/timestamp_parser.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

TimePoint At(const char* stamp) { return ParseTimestamp(stamp, TimeZone::Utc())->time; }

void LearnWarn(Baseline* baseline, const char* cluster, const char* node, const char* stamp, const std::string& text,
               std::vector<std::string> classes = {}) {
  baseline->Learn({cluster, node, At(stamp), Level::kWarn, "o.e.x.Logger", "a message", &text, &classes});
}

TEST(BaselineTest, CountsTemplatesAndClassesPerClusterWithFirstLastAndNodes) {
  Baseline baseline;
  LearnWarn(&baseline, "prod", "n1", "2026-11-29T01:00:00Z", "disk [<*>] slow", {"IOException"});
  LearnWarn(&baseline, "prod", "n2", "2026-11-29T03:00:00Z", "disk [<*>] slow");
  LearnWarn(&baseline, "prod", "n1", "2026-11-29T02:00:00Z", "disk [<*>] slow", {"IOException"});
  LearnWarn(&baseline, "test", "t1", "2026-11-29T02:00:00Z", "other");
  const ClusterBaseline* prod = baseline.For("prod");
  ASSERT_NE(prod, nullptr);
  const TemplateStats& stats = prod->templates.at(TemplateKey("o.e.x.Logger", "disk [<*>] slow"));
  EXPECT_EQ(stats.count, 3u);
  EXPECT_EQ(stats.first, At("2026-11-29T01:00:00Z"));
  EXPECT_EQ(stats.last, At("2026-11-29T03:00:00Z"));
  EXPECT_EQ(stats.nodes.at("n1"), 2u);
  EXPECT_EQ(stats.nodes.at("n2"), 1u);
  EXPECT_EQ(prod->exceptions.at("IOException").count, 2u);
  EXPECT_EQ(baseline.For("test")->templates.size(), 1u);
  // A cluster the baseline does not know: none applies, as two are known.
  EXPECT_EQ(baseline.For("staging"), nullptr);
}

// The novelty detector's known shapes learn by the place a record is counted at: the same
// counts, first and last seen, levels and classes as learning each record.
TEST(BaselineTest, LearningAtARecordsPlaceIsLearningTheRecord) {
  Baseline whole;
  Baseline placed;
  const std::string text = "disk [<*>] slow";
  const std::vector<std::string> classes = {"IOException", "FileSystemException"};
  const char* stamps[] = {"2026-11-29T02:00:00Z", "2026-11-29T01:00:00Z", "2026-11-29T04:00:00Z", "2026-11-29T03:00:00Z"};
  const Level levels[] = {Level::kWarn, Level::kWarn, Level::kError, Level::kWarn};
  LearnedPlace place;
  for (size_t i = 0; i < std::size(stamps); ++i) {
    const LearnedRecord record{"prod", "n1", At(stamps[i]), levels[i], "o.e.x.Logger", "a message", &text, &classes};
    whole.Learn(record);
    if (i == 0) {
      placed.Learn(record);
      place = placed.PlaceOf(record);
    } else {
      Baseline::LearnAt(place, record.time, record.level);
    }
  }
  ASSERT_NE(place.stats, nullptr);
  ASSERT_NE(place.node_count, nullptr);
  EXPECT_EQ(place.classes.size(), 2u);
  EXPECT_EQ(placed.ToJson(), whole.ToJson());
  EXPECT_EQ(placed.For("prod")->templates.begin()->second.level, Level::kError);
}

TEST(BaselineTest, CoveredTimeJoinsStretchesLessThanAnHourApart) {
  Baseline baseline;
  for (const char* stamp : {"2026-11-29T00:00:00Z", "2026-11-29T00:40:00Z", "2026-11-29T01:30:00Z",
                            "2026-11-29T05:00:00Z", "2026-11-29T06:00:00Z"}) {
    baseline.Cover(At(stamp));
  }
  // 00:00-01:30 and 05:00-06:00.
  EXPECT_EQ(baseline.stretches().size(), 2u);
  EXPECT_EQ(baseline.covered(), std::chrono::minutes(150));
}

TEST(BaselineTest, MergingAddsCountsWidensTimesAndUnitesCoveredTime) {
  Baseline monday;
  LearnWarn(&monday, "prod", "n1", "2026-11-30T10:00:00Z", "t", {"AException"});
  monday.Cover(At("2026-11-30T00:00:00Z"));
  monday.Cover(At("2026-11-30T23:59:00Z"));  // a day apart: two stretches of no length
  for (int hour = 0; hour < 24; ++hour) {
    monday.Cover(At("2026-11-30T00:00:00Z") + std::chrono::hours(hour));
  }
  Baseline tuesday;
  LearnWarn(&tuesday, "prod", "n2", "2026-12-01T10:00:00Z", "t", {"BException"});
  for (int hour = 0; hour < 24; ++hour) tuesday.Cover(At("2026-12-01T00:00:00Z") + std::chrono::hours(hour));
  monday.Merge(tuesday);
  const TemplateStats& stats = monday.For("prod")->templates.at(TemplateKey("o.e.x.Logger", "t"));
  EXPECT_EQ(stats.count, 2u);
  EXPECT_EQ(stats.first, At("2026-11-30T10:00:00Z"));
  EXPECT_EQ(stats.last, At("2026-12-01T10:00:00Z"));
  EXPECT_EQ(stats.nodes.size(), 2u);
  EXPECT_EQ(monday.For("prod")->exceptions.size(), 2u);
  // 23:59 on Monday to 23:00 on Tuesday is one stretch (less than an hour between them).
  EXPECT_EQ(monday.stretches().size(), 1u);
  EXPECT_EQ(monday.covered(), At("2026-12-01T23:00:00Z") - At("2026-11-30T00:00:00Z"));
  // Merging is symmetric in what it counts.
  Baseline again = tuesday;
  Baseline monday_only;
  LearnWarn(&monday_only, "prod", "n1", "2026-11-30T10:00:00Z", "t", {"AException"});
  again.Merge(monday_only);
  EXPECT_EQ(again.For("prod")->templates.at(TemplateKey("o.e.x.Logger", "t")).count, 2u);
}

TEST(BaselineTest, StaysWithinItsBoundDroppingTheRarestAndSaysHowMany) {
  Baseline baseline(/*max_templates=*/100, /*max_saved_templates=*/50);
  const std::string common = "frequent";
  for (int i = 0; i < 50; ++i) LearnWarn(&baseline, "prod", "n1", "2026-11-29T01:00:00Z", common);
  for (int i = 0; i < 1000; ++i) {
    LearnWarn(&baseline, "prod", "n1", "2026-11-29T01:00:00Z", "rare " + std::to_string(i), {"E" + std::to_string(i) + "Exception"});
  }
  const ClusterBaseline* prod = baseline.For("prod");
  EXPECT_LE(prod->templates.size(), 100u);
  EXPECT_TRUE(prod->templates.contains(TemplateKey("o.e.x.Logger", common)));
  EXPECT_EQ(prod->evicted + prod->templates.size(), 1001u);
  EXPECT_EQ(prod->exceptions.size(), 1000u);  // every class is kept
  const nlohmann::json saved = baseline.ToJson();
  EXPECT_EQ(saved["clusters"][0]["templates"].size(), 50u);
  EXPECT_EQ(saved["clusters"][0]["templates"][0]["template"], common);
  EXPECT_EQ(saved["clusters"][0]["evicted_templates"].get<uint64_t>(), 1001u - 50u);
}

TEST(BaselineTest, SavesAndLoadsWhatItLearned) {
  testing::TempDir dir;
  Baseline baseline;
  LearnWarn(&baseline, "prod", "n1", "2026-11-29T01:00:00.250Z", "disk [<*>] slow", {"IOException"});
  baseline.Cover(At("2026-11-29T00:00:00Z"));
  baseline.Cover(At("2026-11-29T00:30:00Z"));
  const std::string path = dir.path() + "/baseline.json";
  ASSERT_TRUE(baseline.Save(path).ok());
  auto loaded = Baseline::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->ToJson(), baseline.ToJson());
  EXPECT_EQ(loaded->covered(), std::chrono::minutes(30));
  EXPECT_EQ(loaded->For("prod")->templates.begin()->second.level, Level::kWarn);
}

TEST(BaselineTest, ABadFileIsRefusedSayingWhereAndWhy) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/bad.json";
  auto write = [&](const std::string& text) {
    std::ofstream(path) << text;
    return Baseline::Load(path);
  };
  EXPECT_NE(write("{not json").status().message().find("not valid JSON"), std::string::npos);
  EXPECT_NE(write(R"({"format":"x"})").status().message().find("not a foreshock baseline"), std::string::npos);
  EXPECT_NE(write(R"({"format":"foreshock-baseline","version":7})").status().message().find("version 7"),
            std::string::npos);
  const auto bad_count = write(
      R"({"format":"foreshock-baseline","version":1,"clusters":[{"cluster":"p","templates":[{"logger":"l","template":"t","count":"x","first":"2026-11-29T01:00:00Z","last":"2026-11-29T01:00:00Z"}]}]})");
  ASSERT_FALSE(bad_count.ok());
  EXPECT_NE(bad_count.status().message().find("clusters[0].templates[0].count"), std::string::npos)
      << bad_count.status().message();
  EXPECT_NE(Baseline::Load(dir.path() + "/missing.json").status().message().find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace foreshock
