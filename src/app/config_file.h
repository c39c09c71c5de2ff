#pragma once

// The config file every verb reads with --config, and --print-config, which shows the
// effective settings. The file is Boost.Program_options' INI form with one section per
// verb (`[watch]`, `[scan]`, ...) holding that verb's long options without the dashes;
// `input = PATH` lines stand for the positional arguments. The command line wins over the
// file, except that repeatable options (`--output`, `--catalog`, inputs) add up. A key
// outside a section, an unknown section or an option the verb does not have is an error
// naming the file and line, so a typo never goes unnoticed.

#include <boost/program_options.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "base/status.h"

namespace foreshock::app {

// Stores the options of `verb`'s section of the file at `path` into *values, after the
// command line has been stored (Boost keeps the first value an option gets).
Status MergeConfigFile(const std::string& path, std::string_view verb,
                       const boost::program_options::options_description& options,
                       boost::program_options::variables_map* values);

// Writes every option of `options` with its effective value as a config file with a
// `[verb]` section, so the output can be fed back with --config and means the same.
// Options with no value and options left at their default are written commented out.
void PrintEffectiveConfig(std::string_view verb, const boost::program_options::options_description& options,
                          const boost::program_options::variables_map& values, std::ostream& out);

}  // namespace foreshock::app
