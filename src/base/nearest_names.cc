#include "base/nearest_names.h"

#include <algorithm>
#include <tuple>

namespace foreshock {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> NearestNames(std::string_view typed, const std::vector<std::string>& known, size_t at_most) {
  // (not a part of it, distance, name): parts first, then the closest.
  std::vector<std::tuple<bool, size_t, std::string>> ranked;
  for (const std::string& name : known) {
    const bool part = !typed.empty() && (name.find(typed) != std::string::npos || typed.find(name) != std::string::npos);
    const size_t distance = EditDistance(typed, name);
    // A typo changes a few characters: at most a third of the longer name.
    if (part || distance * 3 <= std::max(typed.size(), name.size())) ranked.emplace_back(!part, distance, name);
  }
  std::sort(ranked.begin(), ranked.end());
  ranked.erase(std::unique(ranked.begin(), ranked.end()), ranked.end());
  // Of the typos, only the nearest: "es.braker.parent" means es.breaker.parent, not also
  // es.breaker.request.
  const auto first_typo = std::find_if(ranked.begin(), ranked.end(), [](const auto& r) { return std::get<0>(r); });
  std::vector<std::string> nearest;
  for (auto it = ranked.begin(); it != ranked.end() && nearest.size() < at_most; ++it) {
    if (std::get<0>(*it) && std::get<1>(*it) > std::get<1>(*first_typo)) break;
    nearest.push_back(std::get<2>(*it));
  }
  return nearest;
}

std::string DidYouMean(std::string_view typed, const std::vector<std::string>& known) {
  const std::vector<std::string> nearest = NearestNames(typed, known);
  if (nearest.empty()) return "";
  std::string text = " (did you mean ";
  for (size_t i = 0; i < nearest.size(); ++i) {
    if (i > 0) text += i + 1 == nearest.size() ? " or " : ", ";
    text += nearest[i];
  }
  return text + "?)";
}

}  // namespace foreshock
