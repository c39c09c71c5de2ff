#include "app/verb.h"

#include <iostream>

#include "app/config_file.h"
#include "app/main.h"

namespace foreshock::app {

namespace po = boost::program_options;

std::optional<int> ParseArgs(const Args& args, std::string_view verb, std::string_view synopsis,
                             const po::options_description& options, const char* positional_name,
                             po::variables_map* values) {
  po::options_description visible = options;
  visible.add_options()
      ("help,h", "show this help")
      ("config", po::value<std::string>(),
       "read options from this file's [VERB] section (INI; the command line wins)")
      ("print-config", "print the effective settings as a config file and exit");
  po::options_description all;
  all.add(visible);
  po::positional_options_description positional;
  if (positional_name != nullptr) {
    all.add_options()(positional_name, po::value<std::vector<std::string>>()->composing());
    positional.add(positional_name, -1);
  }
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *values);
    if (values->count("help") > 0) {
      std::cout << "Usage: foreshock " << verb << " " << synopsis << "\n\n" << visible << "\n";
      return kExitOk;
    }
    if (values->count("config") > 0) {
      const Status status = MergeConfigFile((*values)["config"].as<std::string>(), verb, all, values);
      if (!status.ok()) return UsageError(status.message());
    }
    po::notify(*values);
    if (values->count("print-config") > 0) {
      PrintEffectiveConfig(verb, all, *values, std::cout);
      return kExitOk;
    }
  } catch (const po::error& e) {
    return UsageError(std::string(e.what()) + " (see --help)");
  }
  return std::nullopt;
}

int UsageError(std::string_view message) {
  std::cerr << "foreshock: " << message << "\n";
  return kExitError;
}

}  // namespace foreshock::app
