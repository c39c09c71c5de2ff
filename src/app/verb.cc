#include "app/verb.h"

#include <iostream>

#include "app/main.h"

namespace foreshock::app {

namespace po = boost::program_options;

std::optional<int> ParseArgs(const Args& args, std::string_view usage,
                             const po::options_description& options, const char* positional_name,
                             po::variables_map* values) {
  po::options_description visible = options;
  visible.add_options()("help,h", "show this help");
  po::options_description all;
  all.add(visible);
  po::positional_options_description positional;
  if (positional_name != nullptr) {
    all.add_options()(positional_name, po::value<std::vector<std::string>>());
    positional.add(positional_name, -1);
  }
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *values);
    if (values->count("help") > 0) {
      std::cout << "Usage: " << usage << "\n\n" << visible << "\n";
      return kExitOk;
    }
    po::notify(*values);
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
