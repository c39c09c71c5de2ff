#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>

namespace foreshock {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kCritical: return "critical";
  }
  return "unknown";
}

std::string_view KindName(Rule::Kind kind) {
  switch (kind) {
    case Rule::Kind::kSingle: return "single";
    case Rule::Kind::kThreshold: return "threshold";
    case Rule::Kind::kSequence: return "sequence";
    case Rule::Kind::kDistinct: return "distinct";
    case Rule::Kind::kValue: return "value";
    case Rule::Kind::kAbsence: return "absence";
  }
  return "unknown";
}

Catalog::Catalog(std::vector<Pattern> patterns, std::vector<Rule> rules, std::vector<BenignEntry> benign)
    : patterns_(std::move(patterns)), rules_(std::move(rules)), benign_(std::move(benign)) {
  const auto learned = std::stable_partition(patterns_.begin(), patterns_.end(), [](const Pattern& p) { return !p.learned; });
  matched_patterns_ = static_cast<size_t>(learned - patterns_.begin());
  for (size_t i = 0; i < patterns_.size(); ++i) pattern_index_[patterns_[i].id] = static_cast<int>(i);
  for (size_t i = 0; i < rules_.size(); ++i) rule_index_[rules_[i].id] = static_cast<int>(i);
}

int Catalog::FindPattern(std::string_view id) const {
  auto it = pattern_index_.find(id);
  return it == pattern_index_.end() ? -1 : it->second;
}

int Catalog::FindRule(std::string_view id) const {
  auto it = rule_index_.find(id);
  return it == rule_index_.end() ? -1 : it->second;
}

std::vector<std::string> Catalog::PatternIds() const {
  std::vector<std::string> ids;
  for (const Pattern& pattern : patterns_) ids.push_back(pattern.id);
  return ids;
}

std::vector<std::string> Catalog::RuleIds() const {
  std::vector<std::string> ids;
  for (const Rule& rule : rules_) ids.push_back(rule.id);
  return ids;
}

bool IsPlaceholderName(std::string_view name) {
  if (name.empty() || !(std::islower(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::vector<std::string> PlaceholdersIn(std::string_view text) {
  std::vector<std::string> names;
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    const std::string_view name = text.substr(open + 1, close - open - 1);
    if (IsPlaceholderName(name)) names.emplace_back(name);
  }
  return names;
}

}  // namespace foreshock
