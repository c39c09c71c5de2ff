#pragma once

// Options every pipeline verb shares (--catalog, --format, --timezone, ...), how they are
// declared to Boost.Program_options, and what they resolve to: the loaded catalog, the
// decoder settings and the logging setup.

#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/record_reader.h"
#include "base/result.h"
#include "catalog/catalog.h"
#include "catalog/load_report.h"
#include "correlate/correlator.h"
#include "learn/novelty_detector.h"

namespace foreshock::app {

struct CommonOptions {
  std::vector<std::string> catalogs;
  bool no_builtin_catalog = false;
  std::string format = "auto";
  std::string timezone = "UTC";
  std::string log_level = "info";
  std::string node;
  std::string cluster;
  size_t max_line_bytes = 1 << 20;
  bool exhaustive = false;  // decode every record in full (the output is the same)
  std::string max_clock_jump = "5m";
  std::string baseline;  // --baseline FILE: look for unknown precursors against it
};

// Declares the options above, writing into *options when parsed.
void AddCatalogOptions(boost::program_options::options_description* description,
                       CommonOptions* options);
// `with_node`: declare --node (the node of records that name none); replay uses --node
// as a filter instead.
void AddInputOptions(boost::program_options::options_description* description,
                     CommonOptions* options, bool with_node = true);
void AddLoggingOption(boost::program_options::options_description* description,
                      CommonOptions* options);

// Declares --baseline FILE.
void AddBaselineOption(boost::program_options::options_description* description, CommonOptions* options);
// The novelty detector --baseline asks for, with the file loaded (null when it is not
// given); the error names what is wrong with the file.
Result<std::unique_ptr<NoveltyDetector>> NoveltyFromOptions(const CommonOptions& options, const Catalog& catalog);
// One line on stderr of what the detector looked at and found.
void LogNoveltySummary(const NoveltyDetector& novelty);

// The node a log file's records belong to when they name none: its name before the first dot
// ("es-data-1.json.1.gz" -> es-data-1). The JVM's gc.log (gc.log.0, gc.log.03, ...) and
// Elasticsearch's own files (prod_server.json: named for the cluster) are named after no
// node: they take their folder's name (archive/es-data-1/gc.log -> es-data-1), unless it is
// Elasticsearch's own (/var/log/elasticsearch: then none for prod_server.json).
std::string NodeOfFile(const std::string& path);
// --node if given, else NodeOfFile() (nothing for stdin, "-").
std::string DefaultNode(const CommonOptions& options, const std::string& path);
// The cluster Elasticsearch's own file names carry: "prod" for prod_server.json,
// prod_deprecation.json, prod_index_search_slowlog.log, ...; "" for other names.
std::string ClusterOfFile(const std::string& path);
// --cluster if given, else ClusterOfFile().
std::string DefaultCluster(const CommonOptions& options, const std::string& path);

// Sends foreshock's own log to stderr at `level` (trace, debug, info, warn, error, off).
Status SetUpLogging(const std::string& level);

// The shipped catalog folder: $FORESHOCK_PATTERNS_DIR, else `patterns` next to the binary
// (build tree), else `../share/foreshock/patterns` relative to it (installed).
std::optional<std::string> FindBuiltinCatalog();

// Loads the built-in catalog (unless disabled) plus every --catalog path. Diagnostics go to
// *report; null when it has errors.
std::unique_ptr<const Catalog> LoadConfiguredCatalog(const CommonOptions& options,
                                                     LoadReport* report);

// Resolves --max-clock-jump into *correlator.
Status ApplyClockOptions(const CommonOptions& options, CorrelatorOptions* correlator);

// How soon after its input's newest stamp a quiet run may settle a notable line by its
// shape (RecordReaderOptions::settle_within): well inside what the event clock takes as it is.
Duration SettleWithin(const CorrelatorOptions& correlator);

// Resolves --format, --timezone, --max-line-bytes and --node into reader options.
Result<RecordReaderOptions> ReaderOptions(const CommonOptions& options);

}  // namespace foreshock::app
