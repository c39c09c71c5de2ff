#pragma once

// A verb of the command line (`foreshock scan`, `foreshock catalog`) and the shared
// parsing step: every verb has --help, reports bad usage as one line on stderr with
// exit code 2, and receives its arguments without the program and verb names.

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace foreshock::app {

using Args = std::vector<std::string>;

struct Verb {
  std::string_view name;
  std::string_view summary;
  int (*run)(const Args& args);
};

// The verbs Main() dispatches to, in the order --help lists them.
const std::vector<Verb>& Verbs();
// The verb called `name`, or null.
const Verb* FindVerb(std::string_view name);

// Parses `args` of `verb` ("scan"; its usage line reads "foreshock scan " + `synopsis`)
// with `options` and, when `positional_name` is set, positional arguments stored as a
// vector<string> under that name. Every verb also takes --config FILE (its [verb] section
// is read after the command line) and --print-config.
// Returns an exit code when the run should stop now: 0 after printing --help or the
// effective settings, 2 after a usage or config error; nullopt when the verb should go on.
std::optional<int> ParseArgs(const Args& args, std::string_view verb, std::string_view synopsis,
                             const boost::program_options::options_description& options,
                             const char* positional_name,
                             boost::program_options::variables_map* values);

// Prints "foreshock: <message>" on stderr and returns kExitError.
int UsageError(std::string_view message);

int RunScan(const Args& args);
int RunCatalog(const Args& args);
int RunMatch(const Args& args);
int RunWatch(const Args& args);
int RunReplay(const Args& args);
int RunBaseline(const Args& args);

}  // namespace foreshock::app
