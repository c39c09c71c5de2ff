#include "app/config_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "app/verb.h"

#ifndef FORESHOCK_VERSION
#define FORESHOCK_VERSION "unknown"
#endif

namespace foreshock::app {

namespace po = boost::program_options;

namespace {

// Options that steer the parsing itself and make no sense in a file.
bool IsMetaOption(const std::string& name) {
  return name == "help" || name == "config" || name == "print-config";
}

std::string Trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(begin, end - begin + 1));
}

// The 1-based line of `key` ("section.name", or "name" outside any section) in the file,
// or 0. Boost's parser does not keep line numbers, so the file is scanned again.
int LineOf(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  std::string section;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = Trim(line.substr(0, line.find('#')));
    if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
      section = Trim(std::string_view(text).substr(1, text.size() - 2)) + ".";
      continue;
    }
    if (section + Trim(text.substr(0, text.find('='))) == key) return number;
  }
  return 0;
}

Status ErrorAt(const std::string& path, const std::string& key, const std::string& reason) {
  const int line = LineOf(path, key);
  std::string message = path;
  if (line > 0) message += ':' + std::to_string(line);
  message += ": ";
  message += reason;
  return Status::InvalidArgument(message);
}

// The value as it would be written in the file, one string per occurrence.
std::vector<std::string> ValueTexts(const boost::any& value) {
  if (const auto* text = boost::any_cast<std::string>(&value)) return {*text};
  if (const auto* texts = boost::any_cast<std::vector<std::string>>(&value)) return *texts;
  if (const auto* flag = boost::any_cast<bool>(&value)) return {*flag ? "true" : "false"};
  if (const auto* size = boost::any_cast<size_t>(&value)) return {std::to_string(*size)};
  return {"<value of an unprintable type>"};  // a test runs --print-config of every verb
}

}  // namespace

Status MergeConfigFile(const std::string& path, std::string_view verb, const po::options_description& options,
                       po::variables_map* values) {
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument("cannot read config file " + path + ": " + std::strerror(errno));
  po::parsed_options mine(&options);
  try {
    po::parsed_options parsed = po::parse_config_file(in, options, /*allow_unregistered=*/true);
    for (po::option& option : parsed.options) {
      const std::string key = option.string_key;
      const size_t dot = key.find('.');
      if (dot == std::string::npos) {
        return ErrorAt(path, key, "'" + key + "' is outside any section; put it under [" + std::string(verb) + "]");
      }
      const std::string section = key.substr(0, dot);
      const std::string name = key.substr(dot + 1);
      if (FindVerb(section) == nullptr) return ErrorAt(path, key, "unknown section [" + section + "]");
      if (section != verb) continue;
      if (IsMetaOption(name) || options.find_nothrow(name, false) == nullptr) {
        return ErrorAt(path, key, "foreshock " + section + " has no option '" + name + "'");
      }
      option.string_key = name;
      option.unregistered = false;
      mine.options.push_back(std::move(option));
    }
    po::store(mine, *values);
  } catch (const po::error_with_option_name& e) {
    std::string name = e.get_option_name();
    if (name.starts_with("--")) name.erase(0, 2);
    return ErrorAt(path, std::string(verb) + "." + name, e.what());
  } catch (const po::error& e) {
    return Status::InvalidArgument(path + ": " + e.what());
  }
  return Status();
}

void PrintEffectiveConfig(std::string_view verb, const po::options_description& options,
                          const po::variables_map& values, std::ostream& out) {
  out << "# foreshock " FORESHOCK_VERSION ": effective settings of 'foreshock " << verb << "'\n"
      << "[" << verb << "]\n";
  for (const auto& option : options.options()) {
    const std::string& name = option->long_name();
    if (IsMetaOption(name)) continue;
    const auto found = values.find(name);
    if (found == values.end() || found->second.empty()) {
      out << "# " << name << " =\n";
      continue;
    }
    for (const std::string& text : ValueTexts(found->second.value())) {
      if (found->second.defaulted()) {
        out << "# " << name << " = " << text << "  (default)\n";
      } else {
        out << name << " = " << text << "\n";
      }
    }
  }
}

}  // namespace foreshock::app
