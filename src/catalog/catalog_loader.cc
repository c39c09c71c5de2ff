#include "catalog/catalog_loader.h"

#include <fcntl.h>
#include <re2/re2.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "catalog/rule_reader.h"
#include "catalog/yaml_document.h"
#include "catalog/yaml_reader.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kPatternKeys = {
    "id",      "title",   "category", "severity", "regex",    "fields",   "logger", "min_level", "max_level",
    "datasets", "marker", "predicts", "runbook",  "versions", "examples", "resolves", "subject", "learned"};
const std::set<std::string> kBenignKeys = {"id", "reason", "logger", "datasets", "message", "exception", "examples"};

const RE2& IdRegex() {
  static const RE2 regex("[a-z0-9_]+(\\.[a-z0-9_]+)+");
  return regex;
}

void CheckId(const YamlReader& reader, const YamlNode& node, const std::string& id) {
  if (!RE2::FullMatch(id, IdRegex())) {
    reader.Error(node, "id '" + id + "' must be lowercase dotted words, e.g. es.disk.flood_stage");
  }
}

Pattern ReadPattern(const YamlReader& reader, const YamlNode& node) {
  Pattern pattern;
  pattern.where = reader.Where(node);
  reader.CheckKeys(node, kPatternKeys, "pattern");
  pattern.id = reader.RequiredString(node, "id");
  if (!pattern.id.empty()) CheckId(reader, node["id"], pattern.id);
  pattern.title = reader.RequiredString(node, "title");
  pattern.category = reader.RequiredString(node, "category");
  pattern.severity = reader.SeverityOr(node, "severity", Severity::kWarning);
  const std::string learned = reader.StringOr(node, "learned", "false");
  if (learned != "true" && learned != "false") reader.Error(node["learned"], "learned is true or false");
  pattern.learned = learned == "true";
  if (pattern.learned) {
    // The novelty detector makes its hits: no regex, no examples to match.
    if (node["regex"]) reader.Error(node["regex"], "a learned pattern has no regex: the novelty detector makes its hits");
    if (node["examples"]) reader.Error(node["examples"], "a learned pattern has no examples: it matches no text");
  } else {
    pattern.regex = reader.RequiredString(node, "regex");
  }
  pattern.logger_regex = reader.StringOr(node, "logger", "");
  pattern.min_level = reader.LevelOr(node, "min_level", Level::kUnknown);
  pattern.max_level = reader.LevelOr(node, "max_level", Level::kUnknown);
  pattern.datasets = reader.StringList(node, "datasets");
  pattern.marker = reader.MarkerOr(node, "marker", Marker::kNone);
  pattern.resolves = reader.StringList(node, "resolves");
  pattern.subject = reader.StringList(node, "subject");
  if (!pattern.resolves.empty() && pattern.marker != Marker::kRecovery) {
    reader.Error(node["resolves"], "only a 'marker: recovery' pattern can resolve others");
  }
  pattern.predicts = reader.StringOr(node, "predicts", "");
  pattern.runbook = reader.StringOr(node, "runbook", "");
  pattern.versions = reader.StringList(node, "versions");
  pattern.fields = reader.FieldTypes(node, "fields");
  if (!pattern.learned) reader.Examples(node, &pattern.examples, &pattern.no_match);

  RE2::Options options;
  options.set_log_errors(false);
  if (!pattern.regex.empty()) {
    auto compiled = std::make_shared<const RE2>(pattern.regex, options);
    if (!compiled->ok()) {
      reader.Error(node["regex"], "regex does not compile: " + compiled->error());
    } else {
      pattern.compiled_regex = compiled;
      const auto& groups = compiled->NamedCapturingGroups();
      for (const auto& [name, type] : pattern.fields) {
        if (!groups.contains(name)) {
          reader.Error(node["fields"], "field '" + name + "' is not a named capture of the regex");
        }
      }
      for (const std::string& subject : pattern.subject) {
        if (!groups.contains(subject)) {
          reader.Error(node["subject"], "subject '" + subject + "' is not a named capture of the regex");
        }
      }
    }
  }
  if (!pattern.logger_regex.empty()) {
    auto compiled = std::make_shared<const RE2>(pattern.logger_regex, options);
    if (compiled->ok()) {
      pattern.compiled_logger = std::move(compiled);
    } else {
      reader.Error(node["logger"], "logger regex does not compile");
    }
  }
  return pattern;
}

std::shared_ptr<const RE2> CompileIn(const YamlReader& reader, const YamlNode& node, const std::string& regex,
                                     const char* what) {
  if (regex.empty()) return nullptr;
  RE2::Options options;
  options.set_log_errors(false);
  auto compiled = std::make_shared<const RE2>(regex, options);
  if (compiled->ok()) return compiled;
  reader.Error(node, std::string(what) + " regex does not compile: " + compiled->error());
  return nullptr;
}

BenignEntry ReadBenign(const YamlReader& reader, const YamlNode& node) {
  BenignEntry entry;
  entry.where = reader.Where(node);
  reader.CheckKeys(node, kBenignKeys, "benign entry");
  entry.id = reader.RequiredString(node, "id");
  if (!entry.id.empty()) CheckId(reader, node["id"], entry.id);
  entry.reason = reader.RequiredString(node, "reason");
  entry.logger_regex = reader.StringOr(node, "logger", "");
  entry.datasets = reader.StringList(node, "datasets");
  entry.message_regex = reader.StringOr(node, "message", "");
  entry.exception = reader.StringOr(node, "exception", "");
  entry.examples = reader.StringList(node, "examples");
  entry.compiled_logger = CompileIn(reader, node["logger"], entry.logger_regex, "logger");
  entry.compiled_message = CompileIn(reader, node["message"], entry.message_regex, "message");
  if (entry.logger_regex.empty() && entry.datasets.empty() && entry.message_regex.empty() && entry.exception.empty()) {
    reader.Error(node, "a benign entry needs at least one of 'logger', 'datasets', 'message' and 'exception'");
  }
  if (entry.examples.empty()) reader.Error(node, "a benign entry needs at least one example line it covers");
  return entry;
}

// The file's bytes; false with errno set when it cannot be read.
bool ReadWhole(const std::string& path, std::string* out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[64 * 1024];
  ssize_t got = 0;
  while ((got = ::read(fd, buffer, sizeof buffer)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    out->append(buffer, static_cast<size_t>(got));
  }
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return got == 0;
}

void ReadFile(const std::string& path, std::vector<Pattern>* patterns, std::vector<Rule>* rules,
              std::vector<BenignEntry>* benign, LoadReport* report) {
  std::string text;
  if (!ReadWhole(path, &text)) {
    report->Error({path, 0, 0}, "cannot read: " + std::string(std::strerror(errno)));
    return;
  }
  YamlError error;
  const std::optional<YamlNode> parsed = YamlNode::Parse(text, &error);
  if (!parsed) {
    report->Error({path, error.line, error.column}, error.message);
    return;
  }
  const YamlNode& root = *parsed;
  const YamlReader reader(path, report);
  if (root.IsNull()) return;  // an empty file defines nothing
  if (!root.IsMap()) {
    reader.Error(root, "a catalog file is a map with 'patterns', 'rules' and/or 'benign'");
    return;
  }
  reader.CheckKeys(root, {"patterns", "rules", "benign"}, "catalog file");
  for (const char* section : {"patterns", "rules", "benign"}) {
    const YamlNode& list = root[section];
    if (!list) continue;
    if (!list.IsSequence()) {
      reader.Error(list, std::string("'") + section + "' must be a list");
      continue;
    }
    for (const YamlNode& item : list.items()) {
      if (!item.IsMap()) {
        reader.Error(item, std::string("each entry of '") + section + "' must be a map");
        continue;
      }
      if (section[0] == 'p') {
        patterns->push_back(ReadPattern(reader, item));
      } else if (section[0] == 'r') {
        rules->push_back(ReadRule(reader, item));
      } else {
        benign->push_back(ReadBenign(reader, item));
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
    for (const std::string& id : rule.expect) {
      if (id != "any" && !pattern_ids.contains(id)) {
        report->Error(rule.where, "rule '" + rule.id + "' expects unknown pattern '" + id + "'");
      }
    }
    for (const std::string& id : rule.inhibited_by) {
      if (!rule_ids.contains(id)) {
        report->Error(rule.where, "rule '" + rule.id + "' is inhibited by unknown rule '" + id + "'");
      }
    }
  }
}

// The named captures of a pattern's regex: what its rules' messages may name.
std::set<std::string> CapturesOf(const Pattern& pattern) {
  std::set<std::string> names;
  for (auto& [name, type] : pattern.fields) names.insert(name);
  for (size_t at = pattern.regex.find("(?P<"); at != std::string::npos; at = pattern.regex.find("(?P<", at + 1)) {
    const size_t end = pattern.regex.find('>', at);
    if (end != std::string::npos) names.insert(pattern.regex.substr(at + 4, end - at - 4));
  }
  return names;
}

// Every {placeholder} of a message or runbook must be one the alert can fill: a typo would
// otherwise reach the on-call as "(heap_usd not logged)". When a user's override of a
// pattern no longer captures what a rule names, that is said as a note (the alert says the
// value was not logged): overriding a pattern must not break the rules built on it.
void CheckPlaceholders(const std::vector<Pattern>& patterns, const std::vector<Rule>& rules, LoadReport* report) {
  std::map<std::string, const Pattern*> by_id;
  for (const Pattern& pattern : patterns) by_id[pattern.id] = &pattern;
  auto check = [&](const std::string& text, const std::set<std::string>& known, const SourceLocation& where,
                   const std::string& what, bool overridden) {
    for (const std::string& name : PlaceholdersIn(text)) {
      if (known.contains(name)) continue;
      std::string listed;
      for (const std::string& each : known) listed += (listed.empty() ? "" : ", ") + each;
      if (overridden) {
        report->Note(where, what + " uses '{" + name + "}', which an overridden pattern no longer captures; its "
                            "alerts will say '(" + name + " not logged)'");
      } else {
        report->Error(where, what + " uses unknown placeholder '{" + name + "}' (it can use " + listed + ")");
      }
    }
  };
  for (const Pattern& pattern : patterns) {
    std::set<std::string> known = CapturesOf(pattern);
    known.insert({"node", "cluster", "count"});
    check(pattern.runbook, known, pattern.where, "the runbook of pattern '" + pattern.id + "'", false);
  }
  for (const Rule& rule : rules) {
    std::set<std::string> known = {"node", "cluster", "count"};
    bool overridden = false;
    for (const RuleStep& step : rule.steps) {
      for (const std::string& id : step.patterns) {
        if (auto it = by_id.find(id); it != by_id.end()) {
          known.merge(CapturesOf(*it->second));
          overridden = overridden || (!it->second->overrides.empty() && rule.overrides.empty());
        }
      }
    }
    for (const RuleStep& step : rule.steps) {
      check(step.message, known, rule.where, "rule '" + rule.id + "' message", overridden);
    }
    check(rule.runbook, known, rule.where, "the runbook of rule '" + rule.id + "'", overridden);
  }
}

// A rule is learned when every pattern it counts is.
void MarkLearnedRules(const std::vector<Pattern>& patterns, std::vector<Rule>* rules) {
  std::set<std::string> learned;
  for (const Pattern& pattern : patterns) {
    if (pattern.learned) learned.insert(pattern.id);
  }
  for (Rule& rule : *rules) {
    bool all = !rule.steps.empty();
    for (const RuleStep& step : rule.steps) {
      for (const std::string& id : step.patterns) all = all && learned.contains(id);
    }
    rule.learned = all;
  }
}

// A pattern at warning or above that no rule alerts on alerts on its own: a `single` rule
// with the pattern's id, title, severity and runbook.
void AddImplicitRules(const std::vector<Pattern>& patterns, std::vector<Rule>* rules) {
  // A sequence's later steps keep their own alert (absorbed while the sequence fires for the
  // node), and so does an absence rule's trigger (the rule alerts on the silence after it); a
  // pattern that starts a sequence, or feeds any other rule, is that rule's to tell.
  std::set<std::string> used;
  std::set<std::string> rule_ids;
  for (const Rule& rule : *rules) {
    rule_ids.insert(rule.id);
    if (rule.kind == Rule::Kind::kAbsence) continue;
    for (size_t i = 0; i < rule.steps.size(); ++i) {
      if (rule.kind == Rule::Kind::kSequence && i > 0 && !rule.start_any) continue;
      used.insert(rule.steps[i].patterns.begin(), rule.steps[i].patterns.end());
    }
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
    rule.learned = pattern.learned;
    rules->push_back(std::move(rule));
  }
}

}  // namespace

std::unique_ptr<const Catalog> LoadCatalog(const std::vector<CatalogSource>& sources,
                                           LoadReport* report) {
  std::vector<Pattern> patterns;
  std::vector<Rule> rules;
  std::vector<BenignEntry> benign;
  for (const CatalogSource& source : sources) {
    std::vector<Pattern> layer_patterns;
    std::vector<Rule> layer_rules;
    std::vector<BenignEntry> layer_benign;
    for (const std::string& file : ExpandPath(source.path, report)) {
      ReadFile(file, &layer_patterns, &layer_rules, &layer_benign, report);
    }
    Merge(std::move(layer_patterns), source.layer, &patterns, report);
    Merge(std::move(layer_rules), source.layer, &rules, report);
    Merge(std::move(layer_benign), source.layer, &benign, report);
  }
  CheckRuleReferences(patterns, rules, report);
  CheckPlaceholders(patterns, rules, report);
  if (report->has_errors()) return nullptr;
  MarkLearnedRules(patterns, &rules);
  AddImplicitRules(patterns, &rules);
  return std::make_unique<const Catalog>(std::move(patterns), std::move(rules), std::move(benign));
}

}  // namespace foreshock
