#include "app/evidence_context.h"

#include <map>
#include <set>

#include "input/decompressing_source.h"

namespace foreshock::app {
namespace {

constexpr size_t kMaxLineChars = 2000;  // a context line longer than this is cut

// The lines [from, to] (1-based) of `path`, or nothing when it cannot be read.
void ReadLines(const std::string& path, const std::set<uint64_t>& wanted_lines, size_t around,
               std::map<uint64_t, std::string>* lines) {
  auto source = OpenInputFile(path);
  if (!source.ok()) return;
  auto wanted = [&](uint64_t number) {
    const auto it = wanted_lines.lower_bound(number > around ? number - around : 1);
    return it != wanted_lines.end() && *it <= number + around;
  };
  const uint64_t last_wanted = *wanted_lines.rbegin() + around;
  std::string buffer, line;
  uint64_t number = 1;
  while (number <= last_wanted) {
    buffer.clear();
    auto state = (*source)->Read(&buffer, std::chrono::seconds(1));
    if (!state.ok()) return;
    for (char c : buffer) {
      if (c != '\n') {
        if (line.size() < kMaxLineChars) line.push_back(c);
        continue;
      }
      if (wanted(number)) (*lines)[number] = std::move(line);
      line.clear();
      ++number;
    }
    if (*state == Source::ReadState::kEnd) break;
  }
  if (!line.empty() && wanted(number)) (*lines)[number] = std::move(line);
}

}  // namespace

void ReadEvidenceContext(size_t lines_around, Timeline* timeline) {
  std::map<std::string, std::set<uint64_t>> wanted;  // file -> evidence line numbers
  for (const nlohmann::json& alert : timeline->alerts()) {
    for (const nlohmann::json& evidence : alert["foreshock"]["evidence"]) {
      const std::string source = evidence.value("source", "");
      const size_t colon = source.rfind(':');
      if (colon == std::string::npos || colon + 1 == source.size()) continue;
      try {
        wanted[source.substr(0, colon)].insert(std::stoull(source.substr(colon + 1)));
      } catch (const std::exception&) {
        continue;  // not a line number
      }
    }
  }
  for (const auto& [file, numbers] : wanted) {
    std::map<uint64_t, std::string> lines;
    ReadLines(file, numbers, lines_around, &lines);
    for (uint64_t number : numbers) {
      const uint64_t first = number > lines_around ? number - lines_around : 1;
      std::vector<std::string> around;
      for (uint64_t at = first; at <= number + lines_around; ++at) {
        const auto it = lines.find(at);
        if (it == lines.end()) break;
        around.push_back(it->second);
      }
      if (!around.empty()) timeline->NoteContext(file + ":" + std::to_string(number), std::move(around), first);
    }
  }
}

}  // namespace foreshock::app
