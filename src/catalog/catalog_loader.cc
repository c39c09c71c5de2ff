#include "catalog/catalog_loader.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "catalog/yaml_reader.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kPatternKeys = {
    "id",      "title",   "category", "severity", "regex",    "fields",   "logger", "min_level", "max_level",
    "datasets", "marker", "predicts", "runbook",  "versions", "examples", "resolves"};
const std::set<std::string> kRuleKeys = {
    "id",     "name",    "category", "kind",          "pattern",      "steps",
    "severity", "message", "count",  "window",        "group_by",     "realert",
    "resolve_after", "inhibited_by", "runbook"};
const std::set<std::string> kStepKeys = {"pattern", "patterns", "severity", "message"};

const RE2& IdRegex() {
  static const RE2 regex("[a-z0-9_]+(\\.[a-z0-9_]+)+");
  return regex;
}

void CheckId(const YamlReader& reader, const YAML::Node& node, const std::string& id) {
  if (!RE2::FullMatch(id, IdRegex())) {
    reader.Error(node, "id '" + id + "' must be lowercase dotted words, e.g. es.disk.flood_stage");
  }
}

Pattern ReadPattern(const YamlReader& reader, const YAML::Node& node) {
  Pattern pattern;
  pattern.where = reader.Where(node);
  reader.CheckKeys(node, kPatternKeys, "pattern");
  pattern.id = reader.RequiredString(node, "id");
  if (!pattern.id.empty()) CheckId(reader, node["id"], pattern.id);
  pattern.title = reader.RequiredString(node, "title");
  pattern.category = reader.RequiredString(node, "category");
  pattern.severity = reader.SeverityOr(node, "severity", Severity::kWarning);
  pattern.regex = reader.RequiredString(node, "regex");
  pattern.logger_regex = reader.StringOr(node, "logger", "");
  pattern.min_level = reader.LevelOr(node, "min_level", Level::kUnknown);
  pattern.max_level = reader.LevelOr(node, "max_level", Level::kUnknown);
  pattern.datasets = reader.StringList(node, "datasets");
  pattern.marker = reader.MarkerOr(node, "marker", Marker::kNone);
  pattern.resolves = reader.StringList(node, "resolves");
  if (!pattern.resolves.empty() && pattern.marker != Marker::kRecovery) {
    reader.Error(node["resolves"], "only a 'marker: recovery' pattern can resolve others");
  }
  pattern.predicts = reader.StringOr(node, "predicts", "");
  pattern.runbook = reader.StringOr(node, "runbook", "");
  pattern.versions = reader.StringList(node, "versions");
  pattern.fields = reader.FieldTypes(node, "fields");
  reader.Examples(node, &pattern.examples, &pattern.no_match);

  RE2::Options options;
  options.set_log_errors(false);
  if (!pattern.regex.empty()) {
    RE2 compiled(pattern.regex, options);
    if (!compiled.ok()) {
      reader.Error(node["regex"], "regex does not compile: " + compiled.error());
    } else {
      const auto& groups = compiled.NamedCapturingGroups();
      for (const auto& [name, type] : pattern.fields) {
        if (!groups.contains(name)) {
          reader.Error(node["fields"], "field '" + name + "' is not a named capture of the regex");
        }
      }
    }
  }
  if (!pattern.logger_regex.empty() && !RE2(pattern.logger_regex, options).ok()) {
    reader.Error(node["logger"], "logger regex does not compile");
  }
  return pattern;
}

// Reads a stage: an entry of a sequence's `steps`, or the rule itself for single and
// threshold rules (whose other keys the rule has already checked).
RuleStep ReadStep(const YamlReader& reader, const YAML::Node& node, Severity default_severity,
                  bool is_step_entry) {
  RuleStep step;
  if (is_step_entry && node.IsMap()) reader.CheckKeys(node, kStepKeys, "step");
  step.patterns = reader.StringList(node, "patterns");
  if (node.IsMap() && node["pattern"]) step.patterns.push_back(reader.StringOr(node, "pattern", ""));
  if (step.patterns.empty()) reader.Error(node, "a step needs 'pattern' or 'patterns'");
  step.severity = reader.SeverityOr(node, "severity", default_severity);
  step.message = reader.RequiredString(node, "message");
  return step;
}

Rule ReadRule(const YamlReader& reader, const YAML::Node& node) {
  Rule rule;
  rule.where = reader.Where(node);
  reader.CheckKeys(node, kRuleKeys, "rule");
  rule.id = reader.RequiredString(node, "id");
  if (!rule.id.empty()) CheckId(reader, node["id"], rule.id);
  rule.name = reader.RequiredString(node, "name");
  rule.category = reader.RequiredString(node, "category");
  const std::string kind = reader.StringOr(node, "kind", "single");
  if (kind == "single") {
    rule.kind = Rule::Kind::kSingle;
  } else if (kind == "threshold") {
    rule.kind = Rule::Kind::kThreshold;
  } else if (kind == "sequence") {
    rule.kind = Rule::Kind::kSequence;
  } else {
    reader.Error(node["kind"], "kind must be single, threshold or sequence, not '" + kind + "'");
  }
  const Severity severity = reader.SeverityOr(node, "severity", Severity::kWarning);
  if (rule.kind == Rule::Kind::kSequence) {
    const YAML::Node steps = node["steps"];
    if (!steps || !steps.IsSequence() || steps.size() == 0) {
      reader.Error(steps ? steps : node, "a sequence rule needs a non-empty list of 'steps'");
    } else {
      for (const YAML::Node& step : steps) rule.steps.push_back(ReadStep(reader, step, severity, true));
    }
  } else {
    rule.steps.push_back(ReadStep(reader, node, severity, false));
  }
  rule.count = reader.IntOr(node, "count", 1);
  if (rule.count < 1) reader.Error(node["count"], "count must be at least 1");
  rule.window = reader.DurationOr(node, "window", std::chrono::minutes(10));
  rule.realert = reader.DurationOr(node, "realert", std::chrono::hours(1));
  rule.resolve_after = reader.DurationOr(node, "resolve_after", std::chrono::minutes(15));
  rule.group_by = reader.StringList(node, "group_by");
  if (rule.group_by.empty()) rule.group_by.push_back("node");
  rule.inhibited_by = reader.StringList(node, "inhibited_by");
  rule.runbook = reader.StringOr(node, "runbook", "");
  return rule;
}

void ReadFile(const std::string& path, std::vector<Pattern>* patterns, std::vector<Rule>* rules,
              LoadReport* report) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::ParserException& e) {
    report->Error({path, e.mark.line + 1, e.mark.column + 1}, e.msg);
    return;
  } catch (const YAML::Exception& e) {
    report->Error({path, 0, 0}, std::string("cannot read: ") + e.what());
    return;
  }
  const YamlReader reader(path, report);
  if (root.IsNull()) return;  // an empty file defines nothing
  if (!root.IsMap()) {
    reader.Error(root, "a catalog file is a map with 'patterns' and/or 'rules'");
    return;
  }
  reader.CheckKeys(root, {"patterns", "rules"}, "catalog file");
  for (const char* section : {"patterns", "rules"}) {
    const YAML::Node list = root[section];
    if (!list) continue;
    if (!list.IsSequence()) {
      reader.Error(list, std::string("'") + section + "' must be a list");
      continue;
    }
    for (const YAML::Node& item : list) {
      if (!item.IsMap()) {
        reader.Error(item, std::string("each entry of '") + section + "' must be a map");
      } else if (section[0] == 'p') {
        patterns->push_back(ReadPattern(reader, item));
      } else {
        rules->push_back(ReadRule(reader, item));
      }
    }
  }
}

std::vector<std::string> ExpandPath(const std::string& path, LoadReport* report) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    if (!fs::exists(path, error)) report->Error({path, 0, 0}, "no such file or folder");
    return error || !fs::exists(path) ? std::vector<std::string>{} : std::vector{path};
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(path, error)) {
    const std::string name = entry.path().string();
    if (entry.is_regular_file() && (name.ends_with(".yaml") || name.ends_with(".yml"))) {
      files.push_back(name);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Adds `items` of one layer to `merged`: duplicates within the built-in layer are errors,
// user entries replace earlier entries with the same id.
template <typename Item>
void Merge(std::vector<Item> items, CatalogSource::Layer layer, std::vector<Item>* merged,
           LoadReport* report) {
  std::set<std::string> seen_in_layer;
  for (Item& item : items) {
    if (!seen_in_layer.insert(item.id).second) {
      report->Error(item.where, "duplicate id '" + item.id + "'");
      continue;
    }
    auto existing = std::find_if(merged->begin(), merged->end(),
                                 [&](const Item& other) { return other.id == item.id; });
    if (existing == merged->end()) {
      merged->push_back(std::move(item));
      continue;
    }
    const SourceLocation& first = existing->where;
    const std::string first_at = first.file + ":" + std::to_string(first.line);
    if (layer == CatalogSource::Layer::kBuiltin) {
      report->Error(item.where, "duplicate id '" + item.id + "' (first defined at " + first_at + ")");
    } else {
      item.overrides = first_at;
      report->Note(item.where, "'" + item.id + "' overrides the entry at " + first_at);
      *existing = std::move(item);
    }
  }
}

void CheckRuleReferences(const std::vector<Pattern>& patterns, const std::vector<Rule>& rules,
                         LoadReport* report) {
  std::set<std::string> pattern_ids;
  for (const Pattern& pattern : patterns) pattern_ids.insert(pattern.id);
  for (const Pattern& pattern : patterns) {
    for (const std::string& id : pattern.resolves) {
      if (!pattern_ids.contains(id)) {
        report->Error(pattern.where, "pattern '" + pattern.id + "' resolves unknown pattern '" + id + "'");
      }
    }
  }
  std::set<std::string> rule_ids;
  for (const Rule& rule : rules) rule_ids.insert(rule.id);
  for (const Rule& rule : rules) {
    for (const RuleStep& step : rule.steps) {
      for (const std::string& id : step.patterns) {
        if (!pattern_ids.contains(id)) {
          report->Error(rule.where, "rule '" + rule.id + "' names unknown pattern '" + id + "'");
        }
      }
    }
    for (const std::string& id : rule.inhibited_by) {
      if (!rule_ids.contains(id)) {
        report->Error(rule.where, "rule '" + rule.id + "' is inhibited by unknown rule '" + id + "'");
      }
    }
  }
}

// A pattern at warning or above that no rule uses alerts on its own: a `single` rule with the
// pattern's id, title, severity and runbook. Patterns that rules use are building blocks.
void AddImplicitRules(const std::vector<Pattern>& patterns, std::vector<Rule>* rules) {
  std::set<std::string> used;
  std::set<std::string> rule_ids;
  for (const Rule& rule : *rules) {
    rule_ids.insert(rule.id);
    for (const RuleStep& step : rule.steps) used.insert(step.patterns.begin(), step.patterns.end());
  }
  for (const Pattern& pattern : patterns) {
    if (pattern.severity < Severity::kWarning || pattern.marker == Marker::kRecovery ||
        used.contains(pattern.id) || rule_ids.contains(pattern.id)) {
      continue;
    }
    Rule rule;
    rule.id = pattern.id;
    rule.name = pattern.title;
    rule.category = pattern.category;
    rule.kind = Rule::Kind::kSingle;
    rule.steps.push_back({{pattern.id}, pattern.severity,
                          pattern.title + " on {node}." + (pattern.predicts.empty() ? "" : " " + pattern.predicts)});
    rule.window = std::chrono::minutes(10);
    rule.realert = std::chrono::hours(1);
    rule.resolve_after = std::chrono::minutes(15);
    rule.group_by = {"node"};
    rule.runbook = pattern.runbook;
    rule.where = pattern.where;
    rule.implicit = true;
    rules->push_back(std::move(rule));
  }
}

}  // namespace

std::unique_ptr<const Catalog> LoadCatalog(const std::vector<CatalogSource>& sources,
                                           LoadReport* report) {
  std::vector<Pattern> patterns;
  std::vector<Rule> rules;
  for (const CatalogSource& source : sources) {
    std::vector<Pattern> layer_patterns;
    std::vector<Rule> layer_rules;
    for (const std::string& file : ExpandPath(source.path, report)) {
      ReadFile(file, &layer_patterns, &layer_rules, report);
    }
    Merge(std::move(layer_patterns), source.layer, &patterns, report);
    Merge(std::move(layer_rules), source.layer, &rules, report);
  }
  CheckRuleReferences(patterns, rules, report);
  if (report->has_errors()) return nullptr;
  AddImplicitRules(patterns, &rules);
  return std::make_unique<const Catalog>(std::move(patterns), std::move(rules));
}

}  // namespace foreshock
