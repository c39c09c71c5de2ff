#include "app/common_options.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "base/counted.h"
#include "base/terminal_text.h"
#include "base/timestamp_parser.h"
#include "catalog/catalog_loader.h"

namespace foreshock::app {

namespace po = boost::program_options;
namespace fs = std::filesystem;

void AddCatalogOptions(po::options_description* description, CommonOptions* options) {
  description->add_options()
      ("catalog", po::value(&options->catalogs)->composing(),
       "extra catalog file or folder (repeatable); an id already defined replaces that entry")
      ("no-builtin-catalog", po::bool_switch(&options->no_builtin_catalog),
       "use only the --catalog paths");
}

void AddInputOptions(po::options_description* description, CommonOptions* options, bool with_node) {
  description->add_options()
      ("format", po::value(&options->format)->default_value("auto"),
       "input format: auto; ecs, es-json, es-plain, text; or an envelope: journald-json, "
       "journald-text, filebeat, docker-json, shipper-json, cri, kubectl, compose")
      ("timezone", po::value(&options->timezone)->default_value("UTC"),
       "zone of timestamps that carry none: UTC, an offset (+01:00) or a name (Europe/Paris)")
      ("max-line-bytes", po::value(&options->max_line_bytes)->default_value(1 << 20),
       "longer lines are cut to this size and counted")
      ("exhaustive", po::bool_switch(&options->exhaustive),
       "decode every line in full, even those the literal prefilter rules out on their raw bytes, "
       "and capture every hit, even of patterns no rule uses (slower; the alerts are the same)")
      ("max-clock-jump", po::value(&options->max_clock_jump)->default_value("5m"),
       "a stamp farther than this from its node's clock (ahead or behind) moves that clock only once "
       "the node's next 2 records agree with it; until then it is correlated at the node's time "
       "and reported as a clock anomaly");
  description->add_options()("cluster", po::value(&options->cluster),
                             "cluster name for lines that carry none (plain text, journald, containers; default: "
                             "the cluster in Elasticsearch's file name, as prod in prod_server.json)");
  if (with_node) {
    description->add_options()("node", po::value(&options->node),
                               "node name for records that carry none (default: the input's file name)");
  }
}

void AddBaselineOption(po::options_description* description, CommonOptions* options) {
  description->add_options()("baseline", po::value(&options->baseline),
                             "look for unknown precursors: warn on exceptions and warnings this baseline "
                             "(foreshock baseline build) never saw, and on known warnings far above its rate");
}

Result<std::unique_ptr<NoveltyDetector>> NoveltyFromOptions(const CommonOptions& options, const Catalog& catalog) {
  if (options.baseline.empty()) return std::unique_ptr<NoveltyDetector>();
  auto baseline = Baseline::Load(options.baseline);
  if (!baseline.ok()) return Status::InvalidArgument("--baseline: " + baseline.status().message());
  const Duration covered = baseline->covered();
  spdlog::info("baseline {}: {} of logs, {}", options.baseline, FormatLeadTime(ToSeconds(covered)),
               Counted(baseline->clusters().size(), "cluster", "clusters"));
  return std::make_unique<NoveltyDetector>(catalog, std::move(baseline).value());
}

void LogNoveltySummary(const NoveltyDetector& novelty) {
  const NoveltyStats& stats = novelty.stats();
  uint64_t evicted = 0;
  for (const auto& [name, cluster] : novelty.learned().clusters()) evicted += cluster.evicted;
  spdlog::info("novelty: {} no pattern matched looked at ({} benign, {} while a node started or stopped); "
               "{}, {}, {}; {} learned templates dropped to stay within the bound",
               Counted(stats.examined, "record", "records"), stats.benign, stats.lifecycle,
               Counted(stats.novel_exceptions, "new exception", "new exceptions"),
               Counted(stats.novel_templates, "new warning", "new warnings"), Counted(stats.surges, "surge", "surges"),
               evicted);
  spdlog::debug("novelty: {} records settled by their shape, {} handed out by their shape and decoded",
                stats.by_shape, stats.shape_misses);
}

Status ApplyClockOptions(const CommonOptions& options, CorrelatorOptions* correlator) {
  const std::optional<Duration> jump = ParseDuration(options.max_clock_jump);
  if (!jump || *jump <= Duration(0)) {
    return Status::InvalidArgument("--max-clock-jump '" + options.max_clock_jump +
                                   "' is not a positive duration like 5m");
  }
  correlator->max_clock_jump = *jump;
  return Status();
}

Duration SettleWithin(const CorrelatorOptions& correlator) {
  return std::min<Duration>(std::chrono::minutes(1), correlator.max_clock_jump / 2);
}

void AddLoggingOption(po::options_description* description, CommonOptions* options) {
  description->add_options()
      ("log-level", po::value(&options->log_level)->default_value("info"),
       "foreshock's own log on stderr: trace, debug, info, warn, error, off");
}

namespace {

// spdlog's %v, escaped: diagnostics quote file names, node names and log text.
class EscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
    const std::string escaped = EscapeForTerminal(std::string_view(message.payload.data(), message.payload.size()));
    out.append(escaped.data(), escaped.data() + escaped.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<EscapedMessage>(); }
};

}  // namespace

std::string NodeOfFile(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string name = file.filename().string();
  const std::string stem = name.substr(0, name.find('.'));
  const bool named_for_cluster = !ClusterOfFile(path).empty();
  if (stem != "gc" && !named_for_cluster) return stem;
  const std::string folder = std::filesystem::absolute(file).parent_path().filename().string();
  // Elasticsearch's own folders name no node.
  for (const char* generic : {"elasticsearch", "opensearch", "log", "logs"}) {
    if (folder == generic) return named_for_cluster ? "" : stem;
  }
  return folder.empty() ? (named_for_cluster ? "" : stem) : folder;
}

std::string ClusterOfFile(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  const std::string stem = name.substr(0, name.find('.'));
  for (const char* suffix : {"_server", "_deprecation", "_index_search_slowlog", "_index_indexing_slowlog", "_audit"}) {
    if (stem.size() > std::strlen(suffix) && stem.ends_with(suffix)) return stem.substr(0, stem.size() - std::strlen(suffix));
  }
  return "";
}

std::string DefaultCluster(const CommonOptions& options, const std::string& path) {
  if (!options.cluster.empty()) return options.cluster;
  return path == "-" ? "" : ClusterOfFile(path);
}

std::string DefaultNode(const CommonOptions& options, const std::string& path) {
  if (!options.node.empty()) return options.node;
  return path == "-" ? "" : NodeOfFile(path);
}

Status SetUpLogging(const std::string& level) {
  const spdlog::level::level_enum parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    return Status::InvalidArgument("unknown --log-level '" + level + "'");
  }
  auto logger = spdlog::stderr_color_st("foreshock");
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<EscapedMessage>('*').set_pattern("foreshock: %^%l%$: %*");
  logger->set_formatter(std::move(formatter));
  logger->set_level(parsed);
  spdlog::set_default_logger(logger);
  return Status();
}

std::optional<std::string> FindBuiltinCatalog() {
  if (const char* dir = std::getenv("FORESHOCK_PATTERNS_DIR"); dir != nullptr && *dir != '\0') {
    return std::string(dir);
  }
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  for (const fs::path& candidate :
       {exe.parent_path() / "patterns", exe.parent_path().parent_path() / "share" / "foreshock" / "patterns"}) {
    if (fs::is_directory(candidate, error)) return fs::canonical(candidate, error).string();
  }
  return std::nullopt;
}

std::unique_ptr<const Catalog> LoadConfiguredCatalog(const CommonOptions& options,
                                                     LoadReport* report) {
  std::vector<CatalogSource> sources;
  if (!options.no_builtin_catalog) {
    auto builtin = FindBuiltinCatalog();
    if (!builtin) {
      report->Error({"<built-in catalog>", 0, 0},
                    "not found next to the binary or under share/foreshock/patterns; "
                    "set FORESHOCK_PATTERNS_DIR or pass --no-builtin-catalog");
      return nullptr;
    }
    sources.push_back({*builtin, CatalogSource::Layer::kBuiltin});
  }
  for (const std::string& path : options.catalogs) {
    sources.push_back({path, CatalogSource::Layer::kUser});
  }
  return LoadCatalog(sources, report);
}

Result<RecordReaderOptions> ReaderOptions(const CommonOptions& options) {
  RecordReaderOptions reader;
  reader.format = options.format;
  auto zone = TimeZone::Parse(options.timezone);
  if (!zone.ok()) return zone.status();
  reader.zone = std::make_shared<const TimeZone>(std::move(zone).value());
  if (options.max_line_bytes < 64) {
    return Status::InvalidArgument("--max-line-bytes must be at least 64");
  }
  reader.max_line_bytes = options.max_line_bytes;
  reader.record_limits.max_record_bytes = std::max<size_t>(options.max_line_bytes, 1 << 20);
  reader.default_node = options.node;
  reader.default_cluster = options.cluster;
  return reader;
}

}  // namespace foreshock::app
