#include "learn/novelty_detector.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "base/timestamp_parser.h"
#include "catalog/catalog_loader.h"
#include "learn/message_template.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

TimePoint At(const char* stamp) { return ParseTimestamp(stamp, TimeZone::Utc())->time; }

std::unique_ptr<const Catalog> ShippedCatalog() {
  LoadReport report;
  auto catalog = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
  EXPECT_NE(catalog, nullptr);
  return catalog;
}

LogRecord Record(TimePoint time, Level level, const std::string& node, const std::string& message,
                 const std::string& exception = "", const std::string& logger = "o.e.a.s.TransportSearchAction") {
  LogRecord record;
  record.time = time;
  record.has_time = true;
  record.level = level;
  record.node = node;
  record.cluster = "prod";
  record.logger = logger;
  record.text = message;
  record.message_length = message.size();
  if (!exception.empty()) record.text += "\n" + exception;
  return record;
}

class NoveltyDetectorTest : public ::testing::Test {
 protected:
  NoveltyDetectorTest() : catalog_(ShippedCatalog()) {}

  // A baseline of a day that knows IndexNotFoundException and one warning template.
  static Baseline DayBaseline(uint64_t template_count = 24) {
    Baseline baseline;
    const std::vector<std::string> classes = {"IndexNotFoundException"};
    const std::string text = TemplateOf("disk [x] is slow");
    for (uint64_t i = 0; i < template_count; ++i) {
      baseline.Learn({"prod", "n1", At("2026-11-28T00:00:00Z") + std::chrono::seconds(86400 * i / template_count),
                      Level::kWarn, "o.e.x.Disk", "disk [x] is slow", &text, nullptr});
    }
    baseline.Learn({"prod", "n1", At("2026-11-28T12:00:00Z"), Level::kDebug, "rest.suppressed", "path: /x", nullptr,
                    &classes});
    for (int hour = 0; hour <= 24; ++hour) baseline.Cover(At("2026-11-28T00:00:00Z") + std::chrono::hours(hour));
    return baseline;
  }

  std::vector<PatternHit> Observe(NoveltyDetector* detector, const LogRecord& record, bool catalog_hit = false) {
    std::vector<PatternHit> hits;
    detector->Observe(record, catalog_hit, &hits);
    return hits;
  }
  std::string PatternOf(const PatternHit& hit) const { return catalog_->patterns()[hit.pattern].id; }

  // What two detectors made of the same lines: one given each record decoded in full, the
  // other each line as the reader hands it out, settled by its shape where it can be and
  // decoded where not. Lines are known by their number in the feed.
  struct SideBySide {
    std::vector<int> surges_decoded;
    std::vector<int> surges_settled;
    std::vector<int> settled_lines;
  };
  void FeedBoth(NoveltyDetector* decoded, NoveltyDetector* settled, int number, const LogRecord& line,
                SideBySide* seen) {
    if (!Observe(decoded, line).empty()) seen->surges_decoded.push_back(number);
    if (settled->SettleShaped({line.time, line.node, line.cluster, {line.shape, line.shape_values}})) {
      seen->settled_lines.push_back(number);
    } else if (!Observe(settled, line).empty()) {
      seen->surges_settled.push_back(number);
    }
  }

  std::unique_ptr<const Catalog> catalog_;
};

TEST_F(NoveltyDetectorTest, ANewExceptionIsSeenOnceThenRepeatedAtThreeOrAtErrorOrOnASecondNode) {
  NoveltyDetector detector(*catalog_, DayBaseline());
  const TimePoint t0 = At("2026-11-29T02:54:11Z");
  const std::string trace =
      "org.elasticsearch.action.search.SearchPhaseExecutionException: all shards failed\n"
      "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.onPhaseFailure(X.java:1)\n"
      "Caused by: org.elasticsearch.search.TooManyScrollContextsException: Trying to create too many scroll contexts";
  auto hits = Observe(&detector, Record(t0, Level::kWarn, "n2", "path: /orders/_search, status: 429", trace));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(PatternOf(hits[0]), "foreshock.novel.exception_seen");
  // The innermost new class, quoted from its Caused by: line.
  EXPECT_EQ(hits[0].Find("exception_class")->text, "TooManyScrollContextsException");
  EXPECT_EQ(hits[0].Find("baseline_seen")->text, "never");
  EXPECT_EQ(hits[0].Find("template")->text, "path: <*>, status: <*>");
  const LogRecord first = Record(t0, Level::kWarn, "n2", "path: /orders/_search, status: 429", trace);
  EXPECT_TRUE(std::string_view(first.text).substr(hits[0].match_begin).starts_with("Caused by: "));

  EXPECT_EQ(PatternOf(Observe(&detector, Record(t0 + std::chrono::seconds(4), Level::kWarn, "n2", "m", trace))[0]),
            "foreshock.novel.exception_seen");
  hits = Observe(&detector, Record(t0 + std::chrono::seconds(9), Level::kWarn, "n2", "m", trace));
  EXPECT_EQ(PatternOf(hits[0]), "foreshock.novel.exception_repeated");
  EXPECT_EQ(hits[0].Find("sightings")->number, 3);

  // At ERROR: at once.
  hits = Observe(&detector, Record(t0, Level::kError, "n1", "boom", "java.lang.IllegalStateException: boom"));
  EXPECT_EQ(PatternOf(hits[0]), "foreshock.novel.exception_repeated");
  // On a second node within the window.
  const std::string other = "org.x.ShardLockObtainFailedException: locked";
  EXPECT_EQ(PatternOf(Observe(&detector, Record(t0, Level::kWarn, "n1", "m", other))[0]), "foreshock.novel.exception_seen");
  hits = Observe(&detector, Record(t0 + std::chrono::minutes(2), Level::kWarn, "n3", "m", other));
  EXPECT_EQ(PatternOf(hits[0]), "foreshock.novel.exception_repeated");
  EXPECT_EQ(hits[0].Find("nodes_seen")->number, 2);
  // Ten minutes apart: a sighting again, not a repeat.
  EXPECT_EQ(PatternOf(Observe(&detector, Record(t0 + std::chrono::minutes(30), Level::kWarn, "n1", "m", other))[0]),
            "foreshock.novel.exception_seen");
}

// A new class flooding the log from two nodes: each record reports the sightings of the last
// ten minutes across the cluster (a retry counted once) and the nodes they came from, as
// counting every record seen would.
TEST_F(NoveltyDetectorTest, AFloodOfANewClassCountsTheWindowsSightingsAndNodes) {
  NoveltyDetector detector(*catalog_, DayBaseline());
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  std::vector<std::pair<TimePoint, std::string>> seen;  // time, node: the distinct records
  for (int second = 0; second < 1500; ++second) {
    const TimePoint time = t0 + std::chrono::seconds(second);
    // n1 every second, n2 for the first five minutes only; every seventh record sent twice.
    for (const std::string node : {"n1", "n2"}) {
      if (node == "n2" && second >= 300) continue;
      const LogRecord record = Record(time, Level::kWarn, node, "m", "org.x.FloodException: y");
      for (int reads = second % 7 == 0 ? 2 : 1; reads > 0; --reads) {
        const auto hits = Observe(&detector, record);
        if (reads == 1 && second % 7 == 0) {
          EXPECT_TRUE(hits.empty()) << "a retry at " << second << " s";
          continue;
        }
        seen.emplace_back(time, node);
        int sightings = 0;
        std::set<std::string> nodes;
        for (const auto& [at, from] : seen) {
          if (at >= time - std::chrono::minutes(10) && at <= time) {
            ++sightings;
            nodes.insert(from);
          }
        }
        ASSERT_EQ(hits.size(), 1u);
        EXPECT_EQ(hits[0].Find("sightings")->number, sightings) << second << " s on " << node;
        EXPECT_EQ(hits[0].Find("nodes_seen")->number, static_cast<double>(nodes.size())) << second << " s on " << node;
      }
    }
  }
}

TEST_F(NoveltyDetectorTest, TheSameRecordReadTwiceIsOneSighting) {
  NoveltyDetector detector(*catalog_, DayBaseline());
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  const LogRecord record = Record(t0, Level::kWarn, "n1", "m", "org.x.NewException: y");
  EXPECT_EQ(PatternOf(Observe(&detector, record)[0]), "foreshock.novel.exception_seen");
  EXPECT_TRUE(Observe(&detector, record).empty());  // a shipper's retry
  EXPECT_EQ(PatternOf(Observe(&detector, Record(t0 + std::chrono::seconds(1), Level::kWarn, "n1", "m", "org.x.NewException: y"))[0]),
            "foreshock.novel.exception_seen");
  EXPECT_EQ(PatternOf(Observe(&detector, Record(t0 + std::chrono::seconds(2), Level::kWarn, "n1", "m", "org.x.NewException: y"))[0]),
            "foreshock.novel.exception_repeated");
}

TEST_F(NoveltyDetectorTest, KnownClassesCatalogHitsAndOrdinaryRecordsAreLeftAlone) {
  NoveltyDetector detector(*catalog_, DayBaseline());
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  // Known to the baseline, at DEBUG through rest.suppressed.
  EXPECT_TRUE(Observe(&detector, Record(t0, Level::kDebug, "n1", "path: /x", "org.x.IndexNotFoundException: no such index"))
                  .empty());
  // A curated pattern matched it: the catalog tells its story.
  EXPECT_TRUE(Observe(&detector, Record(t0, Level::kWarn, "n1", "m", "org.x.BrandNewException: x"), true).empty());
  // INFO without an exception is not looked at.
  EXPECT_TRUE(Observe(&detector, Record(t0, Level::kInfo, "n1", "something never said before")).empty());
  // A new class at DEBUG (rest.suppressed) is news.
  EXPECT_EQ(Observe(&detector, Record(t0, Level::kDebug, "n1", "path: /y", "org.x.SecondNewException: y")).size(), 1u);
  EXPECT_EQ(detector.stats().examined, 2u);
}

TEST_F(NoveltyDetectorTest, BenignEntriesAndANodeStartingOrStoppingAreNoNews) {
  NoveltyDetector detector(*catalog_, DayBaseline());
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  // The shipped benign list: deprecation warnings.
  EXPECT_TRUE(Observe(&detector, Record(t0, Level::kWarn, "n1", "Field parameter [precision] is deprecated", "",
                                        "org.elasticsearch.deprecation.index.mapper.LegacyGeoShapeFieldMapper"))
                  .empty());
  EXPECT_EQ(detector.stats().benign, 1u);
  // A node starting: its warnings for five minutes after "initializing ..." are not news.
  EXPECT_TRUE(Observe(&detector, Record(t0, Level::kInfo, "n4", "initializing ...", "", "o.e.n.Node")).empty());
  EXPECT_TRUE(Observe(&detector, Record(t0 + std::chrono::seconds(20), Level::kWarn, "n4", "failed to connect to master [x]",
                                        "org.x.ConnectTransportException: refused"))
                  .empty());
  EXPECT_TRUE(Observe(&detector, Record(t0 + std::chrono::minutes(4), Level::kWarn, "n4", "failed to connect to master [y]",
                                        "org.x.ConnectTransportException: refused"))
                  .empty());
  EXPECT_EQ(detector.stats().lifecycle, 2u);
  // Long after it started, the same warning is news (on another node too).
  EXPECT_EQ(Observe(&detector, Record(t0 + std::chrono::minutes(30), Level::kWarn, "n4", "failed to connect to master [x]",
                                      "org.x.ConnectTransportException: refused"))
                .size(),
            1u);
}

TEST_F(NoveltyDetectorTest, ANewWarningTemplateIsSeenAndAKnownOneIsNot) {
  NoveltyDetector detector(*catalog_, DayBaseline());
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  EXPECT_TRUE(Observe(&detector, Record(t0, Level::kWarn, "n1", "disk [y] is slow", "", "o.e.x.Disk")).empty());
  const auto hits = Observe(&detector, Record(t0, Level::kWarn, "n1", "translog [7] fsync took [12s]", "", "o.e.x.Disk"));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(PatternOf(hits[0]), "foreshock.novel.template_seen");
  EXPECT_EQ(hits[0].Find("template")->text, "translog [<*>] fsync took [<*>]");
  // The same template from the same logger has the same id, whatever the values.
  const auto again = Observe(&detector, Record(t0, Level::kWarn, "n2", "translog [9] fsync took [3s]", "", "o.e.x.Disk"));
  EXPECT_EQ(again[0].Find("template_id")->text, hits[0].Find("template_id")->text);
}

TEST_F(NoveltyDetectorTest, ASurgeIsACountTheBaselineRateMakesImprobable) {
  // 24 a day on n1: 0.17 expected in 10 minutes (one added for caution).
  NoveltyDetector detector(*catalog_, DayBaseline(24));
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  int surges = 0;
  int first_surge_at = 0;
  for (int i = 1; i <= 12; ++i) {
    const auto hits = Observe(&detector, Record(t0 + std::chrono::seconds(30 * i), Level::kWarn, "n1", "disk [y] is slow", "",
                                                "o.e.x.Disk"));
    if (!hits.empty() && PatternOf(hits[0]) == "foreshock.novel.surge_seen") {
      if (surges++ == 0) first_surge_at = i;
    }
  }
  EXPECT_EQ(first_surge_at, 10);  // surge_min, and far beyond chance
  EXPECT_EQ(surges, 3);
  // The same count against a busy template's rate is nothing.
  NoveltyDetector busy(*catalog_, DayBaseline(20000));
  for (int i = 1; i <= 150; ++i) {
    EXPECT_TRUE(Observe(&busy, Record(t0 + std::chrono::seconds(4 * i), Level::kWarn, "n1", "disk [y] is slow", "",
                                      "o.e.x.Disk"))
                    .empty());
  }
}

// A line the reader settles by its shape (SettleShaped(), no decoding) counts towards its
// template's surge and is learned exactly as the record decoded in full: the same surge on
// the same line, the same baseline learned. A line whose count would raise the surge is not
// settled (its alert quotes it), nor is a shape never met.
TEST_F(NoveltyDetectorTest, ALineSettledByItsShapeCountsAndLearnsAsItsRecordDecoded) {
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  constexpr uint64_t kShape = 0x5eed;
  const auto record = [&](int i) {
    LogRecord shaped = Record(t0 + std::chrono::seconds(30 * i), Level::kWarn, "n1", "disk [y] is slow", "", "o.e.x.Disk");
    shaped.shape = kShape;
    shaped.shape_values = static_cast<uint64_t>(i);
    return shaped;
  };
  NoveltyDetector decoded(*catalog_, DayBaseline(24));
  NoveltyDetector settled(*catalog_, DayBaseline(24));
  EXPECT_FALSE(settled.SettleShaped({t0, "n1", "prod", {kShape, 0}}));  // never met
  SideBySide seen;
  for (int i = 1; i <= 12; ++i) FeedBoth(&decoded, &settled, i, record(i), &seen);
  EXPECT_EQ(seen.surges_decoded, (std::vector<int>{10, 11, 12}));
  EXPECT_EQ(seen.surges_settled, seen.surges_decoded);
  EXPECT_EQ(seen.settled_lines, (std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(settled.learned().ToJson(), decoded.learned().ToJson());
  EXPECT_EQ(settled.stats().by_shape, 8u);
  // On another node the shape is not known yet.
  EXPECT_FALSE(settled.SettleShaped({t0, "n2", "prod", {kShape, 1}}));
}

// Hours of a template at half its surge count a window, then a burst: lines settled by their
// shape keep sightings older than the window a while (they are dropped in batches), yet count
// only the window's, and surge on the same lines as the records decoded in full.
TEST_F(NoveltyDetectorTest, SettledLinesOverManyWindowsCountOnlyTheWindowsSightings) {
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  constexpr uint64_t kShape = 0x5eed;
  NoveltyDetector decoded(*catalog_, DayBaseline(24));
  NoveltyDetector settled(*catalog_, DayBaseline(24));
  std::vector<TimePoint> times;
  for (int i = 0; i < 90; ++i) times.push_back(t0 + std::chrono::minutes(2 * i));  // 5 a window: no surge
  const TimePoint burst = times.back();
  for (int i = 1; i <= 12; ++i) times.push_back(burst + std::chrono::seconds(5 * i));
  SideBySide seen;
  for (size_t i = 0; i < times.size(); ++i) {
    LogRecord line = Record(times[i], Level::kWarn, "n1", "disk [y] is slow", "", "o.e.x.Disk");
    line.shape = kShape;
    line.shape_values = i;
    FeedBoth(&decoded, &settled, static_cast<int>(i), line, &seen);
  }
  // The burst's fifth line is the tenth in its window: the five of the ten minutes before it
  // and five of the burst, none of the 85 older.
  ASSERT_FALSE(seen.surges_decoded.empty());
  EXPECT_EQ(seen.surges_decoded.front(), 89 + 5);
  EXPECT_EQ(seen.surges_settled, seen.surges_decoded);
  EXPECT_GT(seen.settled_lines.size(), 90u);
  EXPECT_EQ(settled.learned().ToJson(), decoded.learned().ToJson());
}

// When learning drops a template to stay within its bound, what was known of shapes goes
// (their places in what was learned may be gone): a line of a shape settled before is
// decoded again, and settles again once its record has been.
TEST_F(NoveltyDetectorTest, ShapesKnownAreForgottenWhenLearningDropsATemplate) {
  using std::chrono::seconds;
  NoveltyDetector detector(*catalog_, DayBaseline());
  detector.RestoreLearned(Baseline(/*max_templates=*/2));
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  constexpr uint64_t kShape = 0x5eed;
  LogRecord known = Record(t0, Level::kWarn, "n1", "disk [y] is slow", "", "o.e.x.Disk");
  known.shape = kShape;
  EXPECT_TRUE(Observe(&detector, known).empty());
  EXPECT_TRUE(detector.SettleShaped({t0 + seconds(1), "n1", "prod", {kShape, 1}}));
  for (const std::string word : {"alpha", "beta", "gamma"}) {
    Observe(&detector, Record(t0 + seconds(2), Level::kWarn, "n1", word + " went wrong", "", "o.e.x.Other"));
  }
  ASSERT_GT(detector.learned().evictions(), 0u);
  EXPECT_FALSE(detector.SettleShaped({t0 + seconds(3), "n1", "prod", {kShape, 2}}));
  EXPECT_FALSE(detector.SettleShaped({t0 + seconds(3), "n1", "prod", {kShape, 3}}));
  known.time = t0 + seconds(4);
  EXPECT_TRUE(Observe(&detector, known).empty());
  EXPECT_TRUE(detector.SettleShaped({t0 + seconds(5), "n1", "prod", {kShape, 4}}));
}

// With room for one surge window only, four nodes' windows keep dropping each other: a line
// settled by its shape counts in its node's window as found again, and the detectors agree
// on every surge and on what they learned (ASan would catch a window used after it went).
TEST_F(NoveltyDetectorTest, SettledLinesCountInSurgeWindowsDroppedToStayBounded) {
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  const std::vector<std::string> nodes = {"n1", "n2", "n3", "n4"};
  Baseline baseline;
  const std::string text = TemplateOf("disk [x] is slow");
  for (const std::string& node : nodes) {
    for (uint64_t i = 0; i < 24; ++i) {
      baseline.Learn({"prod", node, At("2026-11-28T00:00:00Z") + std::chrono::seconds(3600 * i), Level::kWarn,
                      "o.e.x.Disk", "disk [x] is slow", &text, nullptr});
    }
  }
  for (int hour = 0; hour <= 24; ++hour) baseline.Cover(At("2026-11-28T00:00:00Z") + std::chrono::hours(hour));
  NoveltyOptions options;
  options.max_tracked = 1;
  NoveltyDetector decoded(*catalog_, baseline, options);
  NoveltyDetector settled(*catalog_, baseline, options);
  constexpr uint64_t kShape = 0x5eed;
  SideBySide seen;
  for (int i = 1; i <= 64; ++i) {
    LogRecord line = Record(t0 + std::chrono::seconds(5 * i), Level::kWarn, nodes[static_cast<size_t>(i) % 4],
                            "disk [y] is slow", "", "o.e.x.Disk");
    line.shape = kShape;
    line.shape_values = static_cast<uint64_t>(i);
    FeedBoth(&decoded, &settled, i, line, &seen);
  }
  EXPECT_FALSE(seen.surges_decoded.empty());
  EXPECT_EQ(seen.surges_settled, seen.surges_decoded);
  EXPECT_GT(seen.settled_lines.size(), 8u);
  EXPECT_EQ(settled.learned().ToJson(), decoded.learned().ToJson());
}

// A node's clock going back by hours (its files replayed newest first, a clock stepped back):
// the lines after surge as they would alone, settled by their shape or decoded, and a line
// read twice there is still one sighting.
TEST_F(NoveltyDetectorTest, ANodesClockGoingBackSurgesAsTheLinesAfterAlone) {
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  constexpr uint64_t kShape = 0x5eed;
  const auto line = [&](TimePoint at, int i) {
    LogRecord shaped = Record(at + std::chrono::seconds(30 * i), Level::kWarn, "n1", "disk [y] is slow", "", "o.e.x.Disk");
    shaped.shape = kShape;
    shaped.shape_values = static_cast<uint64_t>(i);
    return shaped;
  };
  // The lines' numbers that raised a surge, each line read as the reader gives it: settled by
  // its shape where the detector can, else decoded. Line 9 is read twice (a shipper's retry).
  const auto surges = [&](NoveltyDetector* detector, TimePoint at) {
    std::vector<int> raised;
    for (int i = 1; i <= 12; ++i) {
      for (int reads = i == 9 ? 2 : 1; reads > 0; --reads) {
        const LogRecord record = line(at, i);
        if (detector->SettleShaped({record.time, record.node, record.cluster, {record.shape, record.shape_values}})) {
          continue;
        }
        if (!Observe(detector, record).empty()) raised.push_back(i);
      }
    }
    return raised;
  };
  NoveltyDetector alone(*catalog_, DayBaseline(24));
  const std::vector<int> expected = surges(&alone, t0);
  EXPECT_EQ(expected, (std::vector<int>{10, 11, 12}));
  for (const int minutes : {180, 60, 11}) {
    const auto back = std::chrono::minutes(minutes);
    NoveltyDetector detector(*catalog_, DayBaseline(24));
    EXPECT_EQ(surges(&detector, t0 + back), expected);
    EXPECT_EQ(surges(&detector, t0), expected) << "clock back by " << minutes << " min";
  }
}

// Records a curated pattern matched are learned, the later ones of a kind by the place the
// first was learned at: the baseline is that of learning each in full.
TEST_F(NoveltyDetectorTest, RecordsACuratedPatternMatchedAreLearnedAsEachInFull) {
  NoveltyDetector detector(*catalog_, std::nullopt);
  Baseline expected;
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  const std::string logger = "o.e.m.j.JvmGcMonitorService";
  for (int i = 0; i < 6; ++i) {
    const Level level = i == 4 ? Level::kError : Level::kWarn;
    const std::string message = "[gc][" + std::to_string(100 + i * 7) + "] overhead, spent [" + std::to_string(700 + i * 31) +
                                "ms] collecting in the last [1s]";
    const std::string node = i == 5 ? "n2" : "n1";
    LogRecord record = Record(t0 + std::chrono::seconds(i), level, node, message, i == 3 ? "java.lang.OutOfMemoryError: x" : "",
                              logger);
    EXPECT_TRUE(Observe(&detector, record, /*catalog_hit=*/true).empty());
    const std::string text = TemplateOf(record.message(), record.node, record.cluster);
    const std::string key = TemplateKey(record.logger, text);
    const std::vector<std::string> classes = ExceptionClassesIn(record.text);
    expected.Learn({record.cluster, record.node, record.time, record.level, record.logger, record.message(), &text, &classes,
                    &key});
  }
  EXPECT_EQ(detector.learned().ToJson(), expected.ToJson());
}

// A record decoded in full whose header had no shape (it held a catalog literal the regexes
// then did not match, or came in an envelope) is known by its decoded shape next time:
// settled without its classes and template worked out again, with the surges and the
// baseline of every record judged in full. Here warnings of a known template, each value
// different, then a known class in stack traces at DEBUG (rest.suppressed).
TEST_F(NoveltyDetectorTest, RecordsDecodedInFullAreSettledByTheirDecodedShapeAfterTheFirst) {
  NoveltyDetector detector(*catalog_, DayBaseline(24));
  Baseline expected;
  const TimePoint t0 = At("2026-11-29T02:00:00Z");
  std::vector<int> surges;
  const auto observe = [&](int i, const LogRecord& record) {
    const auto hits = Observe(&detector, record);
    if (!hits.empty() && PatternOf(hits[0]) == "foreshock.novel.surge_seen") surges.push_back(i);
    const bool warn = record.level >= Level::kWarn;
    const std::string text = warn ? TemplateOf(record.message(), record.node, record.cluster) : "";
    const std::string key = warn ? TemplateKey(record.logger, text) : "";
    const std::vector<std::string> classes = ExceptionClassesIn(record.text);
    expected.Learn({record.cluster, record.node, record.time, record.level, record.logger, record.message(),
                    warn ? &text : nullptr, &classes, warn ? &key : nullptr});
  };
  const auto warning = [&](int i) {
    return Record(t0 + std::chrono::seconds(30 * i), Level::kWarn, "n1", "disk [" + std::to_string(i) + "] is slow", "",
                  "o.e.x.Disk");
  };
  for (int i = 1; i <= 12; ++i) {
    observe(i, warning(i));
    // The same record read twice is one sighting: the first, judged in full, read again and
    // settled by its shape does not count again (it would make the 9th the surge's).
    if (i == 8) observe(0, warning(1));
  }
  EXPECT_EQ(surges, (std::vector<int>{10, 11, 12}));  // as in ASurgeIsACountTheBaselineRateMakesImprobable
  EXPECT_EQ(detector.stats().by_shape, 9u);           // the 2nd to the 9th, and the repeat; the 10th raised the surge
  for (int i = 0; i < 5; ++i) {
    observe(100 + i, Record(t0 + std::chrono::minutes(10 + i), Level::kDebug, "n1", "path: /logs-" + std::to_string(i) + "/_search",
                            "org.elasticsearch.index.IndexNotFoundException: no such index [logs-" + std::to_string(i) +
                                "]\n\tat org.elasticsearch.cluster.metadata.IndexNameExpressionResolver.concreteIndices("
                                "IndexNameExpressionResolver.java:" + std::to_string(200 + i) + ")",
                            "rest.suppressed"));
  }
  EXPECT_EQ(detector.stats().by_shape, 9u + 4u);
  EXPECT_EQ(surges.size(), 3u);  // and no exception news
  EXPECT_EQ(detector.learned().ToJson(), expected.ToJson());
}

TEST_F(NoveltyDetectorTest, WhatARunLearnsIsNewForADayThenNormalAndWarningsWaitForADayOfHistory) {
  NoveltyDetector detector(*catalog_, std::nullopt);
  const TimePoint t0 = At("2026-11-29T00:00:00Z");
  EXPECT_FALSE(detector.Mature());
  const std::string trace = "org.x.FlakyException: flake";
  EXPECT_EQ(Observe(&detector, Record(t0, Level::kWarn, "n1", "m", trace)).size(), 1u);
  EXPECT_EQ(Observe(&detector, Record(t0 + std::chrono::hours(23), Level::kWarn, "n1", "m", trace)).size(), 1u);
  for (int hour = 0; hour <= 25; ++hour) detector.Cover(t0 + std::chrono::hours(hour));
  EXPECT_TRUE(detector.Mature());
  EXPECT_TRUE(Observe(&detector, Record(t0 + std::chrono::hours(25), Level::kWarn, "n1", "m", trace)).empty());
  // What it learned can be saved and restored: a restarted run knows it.
  NoveltyDetector restarted(*catalog_, std::nullopt);
  restarted.RestoreLearned(detector.learned());
  EXPECT_TRUE(restarted.Mature());
  EXPECT_TRUE(Observe(&restarted, Record(t0 + std::chrono::hours(26), Level::kWarn, "n1", "m", trace)).empty());
}

TEST(PoissonTailTest, MatchesTheDistribution) {
  EXPECT_DOUBLE_EQ(PoissonTail(0, 3.0), 1.0);
  EXPECT_NEAR(PoissonTail(1, 1.0), 1 - std::exp(-1.0), 1e-12);
  EXPECT_NEAR(PoissonTail(2, 2.0), 1 - std::exp(-2.0) * 3, 1e-12);
  EXPECT_LT(PoissonTail(10, 0.17), 1e-13);
  EXPECT_GT(PoissonTail(80, 69.4), 0.05);
  EXPECT_NEAR(PoissonTail(1000, 1000), 0.5, 0.02);
  EXPECT_EQ(PoissonTail(3, 0), 0.0);
  // Far below the mean: certain, not an underflow read as a surge (10 seen, 2,312 expected).
  EXPECT_GT(PoissonTail(10, 2312.0), 0.999);
  EXPECT_GT(PoissonTail(1, 800.0), 0.999);
}

}  // namespace
}  // namespace foreshock
