#include "app/input_files.h"

#include <glob.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "base/timestamp_parser.h"

namespace foreshock::app {

namespace fs = std::filesystem;

void PassOver(const std::string& name, const std::string& why, std::vector<InputReport>* failed) {
  spdlog::error("{}: {}; passed over", name, why);
  InputReport report;
  report.name = name;
  report.failure = why;
  failed->push_back(std::move(report));
}

namespace {

// The regular files under `folder`, recursively. A sub-folder that cannot be listed is
// passed over (PassOver); the walk goes on.
std::vector<std::string> FilesUnder(const std::string& folder, std::vector<InputReport>* failed) {
  std::vector<std::string> found;
  std::error_code error;
  fs::recursive_directory_iterator it(folder, error);
  if (error) {
    PassOver(folder, "cannot list: " + error.message(), failed);
    return found;
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) {
      PassOver(folder, "cannot list: " + error.message(), failed);
      break;
    }
    if (it->is_directory(error) && ::access(it->path().c_str(), R_OK | X_OK) != 0) {
      PassOver(it->path().string(), std::string("cannot list: ") + std::strerror(errno), failed);
      it.disable_recursion_pending();
    } else if (it->is_regular_file(error)) {
      found.push_back(it->path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::vector<std::string> ExpandInputs(const std::vector<std::string>& args, std::vector<InputReport>* failed) {
  std::vector<std::string> files;
  std::set<std::string> seen;
  auto add = [&](const std::string& path) {
    if (seen.insert(path).second) files.push_back(path);
  };
  for (const std::string& arg : args) {
    std::error_code error;
    if (fs::is_directory(arg, error)) {
      for (const std::string& path : FilesUnder(arg, failed)) add(path);
    } else if (arg.find_first_of("*?[") != std::string::npos) {
      glob_t matched{};
      if (::glob(arg.c_str(), 0, nullptr, &matched) == 0) {
        for (size_t i = 0; i < matched.gl_pathc; ++i) add(matched.gl_pathv[i]);
      } else {
        spdlog::warn("{}: no file matches", arg);
      }
      ::globfree(&matched);
    } else if (fs::exists(arg, error)) {
      add(arg);
    } else {
      PassOver(arg, "no such file or folder", failed);
    }
  }
  return files;
}

std::optional<TimePoint> ParseBound(const std::string& text, const TimeZone& zone) {
  if (text.starts_with("-")) {
    const auto back = ParseDuration(text.substr(1));
    if (!back) return std::nullopt;
    return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now()) - *back;
  }
  auto parsed = ParseTimestamp(text, zone);
  if (!parsed || parsed->length != text.size()) return std::nullopt;
  return parsed->time;
}

Status ParseWindow(const std::string& from_text, const std::string& to_text, const TimeZone& zone,
                   std::optional<TimePoint>* from, std::optional<TimePoint>* to) {
  if (!from_text.empty() && !(*from = ParseBound(from_text, zone))) {
    return Status::InvalidArgument("--from '" + from_text + "' is not a time like 2026-11-29T02:00:00Z or -2h");
  }
  if (!to_text.empty() && !(*to = ParseBound(to_text, zone))) {
    return Status::InvalidArgument("--to '" + to_text + "' is not a time like 2026-11-29T04:00:00Z or -1h");
  }
  if (*from && *to && **from >= **to) return Status::InvalidArgument("--from " + from_text + " is not before --to " + to_text);
  return Status();
}

}  // namespace foreshock::app
