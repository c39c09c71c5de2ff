#include "match/matcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "app/record_reader.h"
#include "catalog/catalog_loader.h"
#include "input/fd_source.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

Pattern MakePattern(std::string id, std::string regex) {
  Pattern pattern;
  pattern.id = std::move(id);
  pattern.regex = std::move(regex);
  return pattern;
}

LogRecord MakeRecord(std::string text, size_t message_length = std::string::npos) {
  LogRecord record;
  record.text = std::move(text);
  record.message_length = std::min(message_length, record.text.size());
  return record;
}

std::vector<int> HitIds(const Matcher& matcher, const LogRecord& record) {
  std::vector<PatternHit> hits;
  matcher.Match(record, &hits);
  std::vector<int> ids;
  for (const PatternHit& hit : hits) ids.push_back(hit.pattern);
  return ids;
}

TEST(MatcherTest, FindsHitsInsideExceptionTextAndCapturesTypedFields) {
  Pattern scroll = MakePattern("t.scroll", R"(too many scroll contexts\. Must be less than or equal to: \[(?P<limit>\d+)\])");
  scroll.fields["limit"] = FieldType::kInteger;
  const Catalog catalog({scroll, MakePattern("t.other", "never here")}, {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  const LogRecord record = MakeRecord(
      "path: /_search, status: 429\nCaused by: TooManyScrollContextsException: Trying to create too many "
      "scroll contexts. Must be less than or equal to: [500].",
      27);
  std::vector<PatternHit> hits;
  (*matcher)->Match(record, &hits);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pattern, 0);
  EXPECT_GT(hits[0].match_begin, record.message_length);
  const Capture* limit = hits[0].Find("limit");
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->text, "500");
  EXPECT_EQ(limit->number, 500.0);
}

TEST(MatcherTest, FiltersApplyAfterTheRegexAndUnknownValuesPass) {
  Pattern gc = MakePattern("t.gc", R"(overhead, spent)");
  gc.min_level = Level::kWarn;
  gc.logger_regex = "JvmGcMonitorService|monitor\\.jvm";
  gc.datasets = {"elasticsearch.server"};
  const Catalog catalog({gc}, {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  LogRecord record = MakeRecord("[gc][1] overhead, spent [5s] collecting in the last [5.5s]");
  record.level = Level::kWarn;
  record.logger = "o.e.m.j.JvmGcMonitorService";
  EXPECT_EQ(HitIds(**matcher, record), std::vector<int>{0});
  record.level = Level::kInfo;
  EXPECT_TRUE(HitIds(**matcher, record).empty()) << "INFO is below min_level";
  record.level = Level::kUnknown;  // a format without levels cannot rule the hit out
  EXPECT_EQ(HitIds(**matcher, record), std::vector<int>{0});
  record.logger = "o.e.c.s.ClusterApplierService";
  EXPECT_TRUE(HitIds(**matcher, record).empty()) << "wrong logger";
  record.logger.clear();
  record.dataset = "elasticsearch.slowlog";
  EXPECT_TRUE(HitIds(**matcher, record).empty()) << "wrong dataset";
}

// With a budget too small for the Set's DFA, RE2 refuses to compile the Set (and reports a
// DFA out of memory during a match only through ErrorInfo); the matcher must then match
// pattern by pattern and find exactly what the Set would have found.
TEST(MatcherTest, OutOfMemoryFallbackFindsTheSameHits) {
  std::vector<Pattern> patterns;
  for (int i = 0; i < 40; ++i) {
    patterns.push_back(MakePattern("t.p" + std::to_string(i),
                                   "(?i)word" + std::to_string(i) + R"([a-z]{3,9}\d+ .*(?:x|y){2}z)"));
  }
  const Catalog catalog(patterns, {});
  auto roomy = Matcher::Create(catalog, MatcherOptions{});
  MatcherOptions tiny_options;
  tiny_options.max_mem = 8 << 10;
  auto tiny = Matcher::Create(catalog, tiny_options);
  ASSERT_TRUE(roomy.ok());
  ASSERT_TRUE(tiny.ok());
  std::string text;
  for (int i = 0; i < 40; i += 3) text += "WORD" + std::to_string(i) + "abcd7 filler xyz\n";
  text += std::string(20000, 'q');  // long input makes the DFA build many states
  const LogRecord record = MakeRecord(text);
  const std::vector<int> expected = HitIds(**roomy, record);
  EXPECT_EQ(expected.size(), 14u);
  EXPECT_EQ(HitIds(**tiny, record), expected);
  EXPECT_EQ((*roomy)->fallback_count(), 0u);
  EXPECT_GT((*tiny)->fallback_count(), 0u);
}

// The literal prefilter is an optimisation only: over real logs (the seed incident, every
// format sample and, where present, the shared corpus) the shipped catalog finds exactly the
// same hits with it as without it, and it does stop most ordinary records.
// Calls `visit` with each record of the bundled samples and, when present, the shared corpus.
void ForEachSampleRecord(const std::function<void(const std::filesystem::path&, const LogRecord&)>& visit) {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"/seed-incident", "/formats"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(testing::kSamplesDir) + dir)) {
      files.push_back(entry.path());
    }
  }
  if (std::filesystem::is_directory(testing::kCorpusDir)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::kCorpusDir)) {
      if (entry.is_regular_file() && entry.path().extension() != ".md") files.push_back(entry.path());
    }
  }
  for (const auto& path : files) {
    auto reader = RecordReader::Create(std::move(FdSource::Open(path.string())).value(), {});
    LogRecord record;
    while (true) {
      auto next = (*reader)->Read(&record, std::chrono::milliseconds(100));
      if (!next.ok() || *next != RecordReader::Next::kRecord) break;
      visit(path, record);
    }
  }
}

TEST(MatcherTest, PrefilterChangesNoHit) {
  LoadReport report;
  auto catalog = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
  ASSERT_NE(catalog, nullptr);
  auto with = Matcher::Create(*catalog, MatcherOptions{});
  MatcherOptions off;
  off.prefilter = false;
  auto without = Matcher::Create(*catalog, off);
  ASSERT_TRUE(with.ok());
  ASSERT_TRUE(without.ok());
  EXPECT_GT((*with)->atom_count(), 50u) << "every shipped pattern has required literals";

  size_t records = 0;
  size_t hits = 0;
  ForEachSampleRecord([&](const std::filesystem::path& path, const LogRecord& record) {
    ++records;
    const std::vector<int> expected = HitIds(**without, record);
    hits += expected.size();
    EXPECT_EQ(HitIds(**with, record), expected) << path << ":" << record.line_number;
  });
  EXPECT_GT(records, 4000u);
  EXPECT_GT(hits, 1000u);
  EXPECT_GT((*with)->prefilter_skipped(), records / 3) << "most ordinary records never reach the Set";
}

// What an unanchored RE2 search of the pattern finds in the record's text: the match and
// each named group's text ("" for one that took no part), in the order the regex names them.
std::pair<std::pair<size_t, size_t>, std::vector<std::string>> UnanchoredMatch(const Pattern& pattern,
                                                                               const std::string& text) {
  const RE2 regex(pattern.regex, RE2::Quiet);
  std::vector<re2::StringPiece> groups(static_cast<size_t>(regex.NumberOfCapturingGroups()) + 1);
  if (!regex.Match(text, 0, text.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) {
    return {};
  }
  std::vector<std::string> named;
  for (const auto& [index, name] : regex.CapturingGroupNames()) {
    const re2::StringPiece value = groups[static_cast<size_t>(index)];
    named.emplace_back(value.data() == nullptr ? "" : std::string(value.data(), value.size()));
  }
  const auto begin = static_cast<size_t>(groups[0].data() - text.data());
  return {{begin, begin + groups[0].size()}, named};
}

// Each hit's match and captures, as UnanchoredMatch() gives them.
std::pair<std::pair<size_t, size_t>, std::vector<std::string>> HitMatch(const Pattern& pattern, const PatternHit& hit) {
  const RE2 regex(pattern.regex, RE2::Quiet);
  std::vector<std::string> named;
  for (const auto& [index, name] : regex.CapturingGroupNames()) {
    const Capture* capture = hit.Find(name);
    named.emplace_back(capture == nullptr ? "" : capture->text);
  }
  return {{hit.match_begin, hit.match_end}, named};
}

// The matcher finds a pattern's match from where the pattern's fixed prefix stands, anchored;
// every hit must be the one an unanchored search finds: the same place, the same captures.
TEST(MatcherTest, HitsAreWhereAnUnanchoredSearchFindsThem) {
  LoadReport report;
  auto catalog = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
  ASSERT_NE(catalog, nullptr);
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  std::vector<LogRecord> records;
  // The prefix ("[gc][") stands before the match more often than it is tried anchored, and
  // in a failed match that overlaps the real one.
  records.push_back(MakeRecord("[gc][a] [gc][b] [gc][c] [gc][d] [gc][e] [gc][f] [gc][[gc][12] overhead, spent "
                               "[1.2s] collecting in the last [1.5s] and [gc][13] overhead, spent [2s] collecting "
                               "in the last [3s]"));
  records.push_back(MakeRecord("[gc][1] overhead [gc][7] overhead, spent [9s] collecting in the last [10s]"));
  std::vector<std::string> dirs;
  for (const char* dir : {"/seed-incident", "/formats", "/scenarios"}) dirs.push_back(std::string(testing::kSamplesDir) + dir);
  if (std::filesystem::is_directory(testing::kCorpusDir)) dirs.push_back(testing::kCorpusDir);
  for (const std::string& dir : dirs) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file() || entry.path().extension() == ".txt" || entry.path().extension() == ".md") continue;
      auto reader = RecordReader::Create(std::move(FdSource::Open(entry.path().string())).value(), {});
      LogRecord record;
      while (true) {
        auto next = (*reader)->Read(&record, std::chrono::milliseconds(100));
        if (!next.ok() || *next != RecordReader::Next::kRecord) break;
        records.push_back(record);
      }
    }
  }
  size_t hits_seen = 0;
  for (const LogRecord& record : records) {
    std::vector<PatternHit> hits;
    (*matcher)->Match(record, &hits);
    for (const PatternHit& hit : hits) {
      const Pattern& pattern = catalog->patterns()[static_cast<size_t>(hit.pattern)];
      EXPECT_EQ(HitMatch(pattern, hit), UnanchoredMatch(pattern, record.text)) << pattern.id << ": " << record.text;
      ++hits_seen;
    }
  }
  EXPECT_GT(hits_seen, 100u);
  // The shipped catalog reads the GC-overhead line twice: its WARN and its INFO band.
  for (const auto& [record, spent] : {std::pair{&records[0], "1.2s"}, std::pair{&records[1], "9s"}}) {
    std::vector<PatternHit> hits;
    (*matcher)->Match(*record, &hits);
    ASSERT_FALSE(hits.empty()) << record->text;
    for (const PatternHit& hit : hits) EXPECT_EQ(hit.Find("gc_spent")->text, spent) << record->text;
  }
}

// Two patterns share a message template; the gate looks for the parts that tell them apart
// (rare in ordinary lines), not for the template (in every health change), and still finds
// every hit.
// Hits of patterns whose place is not wanted are the same hits, only bare: every other
// pattern keeps the captures and place it has when all are wanted.
TEST(MatcherTest, UnplacedHitsAreTheSameHitsWithoutCaptures) {
  LoadReport report;
  auto catalog = LoadCatalog({{testing::kPatternsDir, CatalogSource::Layer::kBuiltin}}, &report);
  ASSERT_NE(catalog, nullptr);
  auto matcher = Matcher::Create(*catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  std::vector<bool> placed(catalog->patterns().size());
  for (size_t i = 0; i < placed.size(); i += 2) placed[i] = true;
  size_t bare = 0;
  size_t captured = 0;
  ForEachSampleRecord([&](const std::filesystem::path& path, const LogRecord& record) {
    std::vector<PatternHit> all, some;
    (*matcher)->Match(record, &all);
    (*matcher)->Match(record, &some, &placed);
    ASSERT_EQ(some.size(), all.size()) << path << ":" << record.line_number;
    for (size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(some[i].pattern, all[i].pattern);
      if (placed[static_cast<size_t>(all[i].pattern)]) {
        EXPECT_EQ(HitMatch(catalog->patterns()[static_cast<size_t>(all[i].pattern)], some[i]),
                  HitMatch(catalog->patterns()[static_cast<size_t>(all[i].pattern)], all[i]));
        captured += all[i].captures.empty() ? 0 : 1;
      } else {
        EXPECT_TRUE(some[i].captures.empty());
        bare += all[i].captures.empty() ? 0 : 1;
      }
    }
  });
  EXPECT_GT(bare, 100u) << "hits that would have had captures went bare";
  EXPECT_GT(captured, 100u);
}

TEST(MatcherTest, GateLooksForWhatTellsPatternsApart) {
  const Catalog catalog({MakePattern("t.red", R"(Cluster health status changed from \[(\w+)\] to \[RED\])"),
                         MakePattern("t.recovered", R"(Cluster health status changed from \[RED\] to \[(GREEN|YELLOW)\])")},
                        {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  const std::vector<std::string>& gates = (*matcher)->gate_literals();
  EXPECT_NE(std::find(gates.begin(), gates.end(), "] to [red]"), gates.end());
  for (const std::string& gate : gates) EXPECT_NE(gate, "cluster health status changed from [");
  const std::string ordinary = "Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started])";
  EXPECT_FALSE((*matcher)->MayMatch(ordinary));
  EXPECT_EQ(HitIds(**matcher, MakeRecord("Cluster health status changed from [YELLOW] to [RED]")), std::vector<int>{0});
  EXPECT_EQ(HitIds(**matcher, MakeRecord("Cluster health status changed from [RED] to [YELLOW]")), std::vector<int>{1});
}

// A record holding a pattern's gate literal but not the rest of what its prefilter needs
// is ruled out by that pattern's own atoms, without scanning for every atom; a record
// holding the gate literals of many patterns is asked all the atoms at once. Either way
// every hit is found.
TEST(MatcherTest, APatternsOwnAtomsRuleOutARecordHoldingOnlyItsGateLiteral) {
  std::vector<Pattern> patterns = {
      MakePattern("t.replica", R"(failed to perform (indices:data/write/[^\s]+) on replica)")};
  for (int i = 0; i < 6; ++i) {
    patterns.push_back(MakePattern("t.many" + std::to_string(i), "alpha" + std::to_string(i) + " beta gamma delta (\\d+)"));
  }
  const Catalog catalog(patterns, {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  const std::string trace =
      "org.elasticsearch.transport.RemoteTransportException: [es-3][10.0.3.7:9300][indices:data/write/bulk[s]]\n"
      "\tat org.elasticsearch.index.engine.InternalEngine.index(InternalEngine.java:1)";
  EXPECT_FALSE((*matcher)->MayMatch(trace)) << "its gate literal alone";
  using Parts = std::vector<std::string_view>;
  EXPECT_FALSE((*matcher)->MayMatchParts(Parts{"failed to perform x", "indices:data/write/bulk"}))
      << "' on replica' missing";
  EXPECT_TRUE((*matcher)->MayMatchParts(Parts{"failed to perform x", "indices:data/write/bulk on replica"}))
      << "every atom, in one part or another";
  const std::string hit = "[es-1] failed to perform indices:data/write/bulk[s] on replica [idx][0]";
  EXPECT_TRUE((*matcher)->MayMatch(hit));
  EXPECT_EQ(HitIds(**matcher, MakeRecord(hit)), std::vector<int>{0});
  std::string many;
  for (int i = 0; i < 6; ++i) many += "alpha" + std::to_string(i) + " beta ";
  EXPECT_FALSE((*matcher)->MayMatch(many)) << "six patterns' gate literals, none's other atoms";
  EXPECT_EQ(HitIds(**matcher, MakeRecord(many + "alpha4 beta gamma delta 7")), std::vector<int>{5});
}

TEST(MatcherTest, EmptyCatalogMatchesNothing) {
  const Catalog catalog({}, {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  EXPECT_TRUE(HitIds(**matcher, MakeRecord("anything")).empty());
}


// A record the reader's prefilter let through (marked prefiltered) is not looked at by the
// gate again: it counts as let through, and finds the same hits; one marked by mistake finds
// none.
TEST(MatcherTest, APrefilteredRecordCountsAsLetThroughAndFindsTheSameHits) {
  const Catalog catalog({MakePattern("t.scroll", R"(too many scroll contexts)")}, {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  LogRecord hit = MakeRecord("Trying to create too many scroll contexts");
  LogRecord miss = MakeRecord("an ordinary line");
  const std::vector<int> expected = HitIds(**matcher, hit);
  ASSERT_EQ(expected.size(), 1u);
  hit.prefiltered = true;
  miss.prefiltered = true;
  EXPECT_EQ(HitIds(**matcher, hit), expected);
  EXPECT_TRUE(HitIds(**matcher, miss).empty());
  EXPECT_EQ((*matcher)->prefilter_passed(), 3u);
  EXPECT_EQ((*matcher)->prefilter_skipped(), 0u);
}

// The reader's prefilter lists the only patterns that can match a record it lets through
// (LogRecord::candidates); Match() tries those as they are, but only when this matcher
// listed them: a listing made by another (the catalog before a reload, whose pattern
// numbers mean other patterns) is ignored.
TEST(MatcherTest, TriesTheCandidatesItListedForTheReader) {
  const Catalog catalog({MakePattern("t.scroll", R"(too many scroll contexts)"),
                         MakePattern("t.breaker", R"(\[parent\] Data too large)")},
                        {});
  const Catalog reloaded({MakePattern("t.breaker", R"(\[parent\] Data too large)"),
                          MakePattern("t.scroll", R"(too many scroll contexts)")},
                         {});
  auto matcher = Matcher::Create(catalog, MatcherOptions{});
  auto other = Matcher::Create(reloaded, MatcherOptions{});
  ASSERT_TRUE(matcher.ok());
  ASSERT_TRUE(other.ok());
  const std::string text = "Trying to create too many scroll contexts";
  const std::string_view part = text;
  ListedCandidates listed;
  ASSERT_TRUE((*matcher)->MayMatchParts({&part, 1}, &listed));
  EXPECT_NE(listed.matcher, 0u);
  EXPECT_EQ(listed.patterns, std::vector<int>{0});
  const std::string_view ordinary = "an ordinary line";
  EXPECT_FALSE((*matcher)->MayMatchParts({&ordinary, 1}, &listed));

  LogRecord record = MakeRecord(text);
  record.prefiltered = true;
  ASSERT_TRUE((*matcher)->MayMatchParts({&part, 1}, &record.candidates));
  EXPECT_EQ(HitIds(**matcher, record), std::vector<int>{0});
  // Taken as they are: a listing that names no pattern finds nothing.
  record.candidates.patterns.clear();
  EXPECT_TRUE(HitIds(**matcher, record).empty());
  // The other matcher's listing names pattern 1 (t.scroll there, t.breaker here): ignored.
  ASSERT_TRUE((*other)->MayMatchParts({&part, 1}, &record.candidates));
  EXPECT_EQ(record.candidates.patterns, std::vector<int>{1});
  EXPECT_EQ(HitIds(**matcher, record), std::vector<int>{0});
}

// What a pattern's own prefilter answers for a set of atoms is remembered per thread; two
// matchers (a catalog and the one reloaded after it) whose patterns hold the same atoms with
// other rules never take each other's answers, matched in turn on one thread.
TEST(MatcherTest, RemembersEachMatchersOwnPrefilterAnswersApart) {
  const Catalog both({MakePattern("t.both", R"(alpha-signal .* omega-signal)")}, {});
  const Catalog either({MakePattern("t.either", R"(alpha-signal|omega-signal)")}, {});
  auto needs_both = Matcher::Create(both, MatcherOptions{});
  auto needs_either = Matcher::Create(either, MatcherOptions{});
  ASSERT_TRUE(needs_both.ok());
  ASSERT_TRUE(needs_either.ok());
  const LogRecord alpha = MakeRecord("an alpha-signal alone");
  const LogRecord omega = MakeRecord("an omega-signal alone");
  const LogRecord pair = MakeRecord("alpha-signal then omega-signal");
  for (int round = 0; round < 3; ++round) {
    EXPECT_TRUE(HitIds(**needs_both, alpha).empty()) << round;
    EXPECT_EQ(HitIds(**needs_either, alpha), std::vector<int>{0}) << round;
    EXPECT_TRUE(HitIds(**needs_both, omega).empty()) << round;
    EXPECT_EQ(HitIds(**needs_either, omega), std::vector<int>{0}) << round;
    EXPECT_EQ(HitIds(**needs_both, pair), std::vector<int>{0}) << round;
    EXPECT_EQ(HitIds(**needs_either, pair), std::vector<int>{0}) << round;
  }
}

}  // namespace
}  // namespace foreshock
