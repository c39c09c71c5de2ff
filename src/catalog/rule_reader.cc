#include "catalog/rule_reader.h"

#include <re2/re2.h>

#include <map>
#include <set>

namespace foreshock {
namespace {

const std::set<std::string> kRuleKeys = {
    "id",       "name",         "category", "kind",      "pattern",  "patterns", "steps",
    "severity", "message",      "count",    "window",    "group_by", "realert",  "resolve_after",
    "inhibited_by", "runbook",  "start",    "distinct",  "value",    "expect",   "within",
    "hold_down"};
const std::set<std::string> kStepKeys = {"pattern", "patterns", "severity", "message", "count"};

const std::map<std::string, Rule::Kind> kKinds = {
    {"single", Rule::Kind::kSingle},     {"threshold", Rule::Kind::kThreshold},
    {"sequence", Rule::Kind::kSequence}, {"distinct", Rule::Kind::kDistinct},
    {"value", Rule::Kind::kValue},       {"absence", Rule::Kind::kAbsence}};

// Reads a stage: an entry of a sequence's `steps`, or the rule itself for the other kinds
// (whose other keys the rule has already checked).
RuleStep ReadStep(const YamlReader& reader, const YamlNode& node, Severity default_severity,
                  bool is_step_entry) {
  RuleStep step;
  if (is_step_entry && node.IsMap()) reader.CheckKeys(node, kStepKeys, "step");
  step.patterns = reader.StringList(node, "patterns");
  if (node.IsMap() && node["pattern"]) step.patterns.push_back(reader.StringOr(node, "pattern", ""));
  if (step.patterns.empty()) reader.Error(node, "a step needs 'pattern' or 'patterns'");
  step.severity = reader.SeverityOr(node, "severity", default_severity);
  step.message = reader.RequiredString(node, "message");
  if (is_step_entry) {
    step.count = reader.IntOr(node, "count", 1);
    if (step.count < 1) reader.Error(node["count"], "count must be at least 1");
  }
  return step;
}

// value: {field: breaker_usage, of: breaker_limit, op: ">=", bound: 0.9}
void ReadValue(const YamlReader& reader, const YamlNode& node, ValueCondition* value) {
  const YamlNode& spec = node["value"];
  if (!spec || !spec.IsMap()) {
    reader.Error(spec ? spec : node, "a value rule needs 'value' with field, op and bound");
    return;
  }
  reader.CheckKeys(spec, {"field", "of", "op", "bound"}, "value");
  value->field = reader.RequiredString(spec, "field");
  value->of = reader.StringOr(spec, "of", "");
  static const std::map<std::string, ValueCondition::Op> kOps = {
      {">=", ValueCondition::Op::kGreaterEqual}, {">", ValueCondition::Op::kGreater},
      {"<=", ValueCondition::Op::kLessEqual},    {"<", ValueCondition::Op::kLess}};
  const std::string op = reader.StringOr(spec, "op", ">=");
  if (auto it = kOps.find(op); it != kOps.end()) {
    value->op = it->second;
  } else {
    reader.Error(spec["op"], "op must be one of >=, >, <=, <");
  }
  const std::string bound = reader.RequiredString(spec, "bound");
  try {
    value->bound = std::stod(bound);
  } catch (const std::exception&) {
    reader.Error(spec["bound"], "bound must be a number, not '" + bound + "'");
  }
}

}  // namespace

Rule ReadRule(const YamlReader& reader, const YamlNode& node) {
  Rule rule;
  rule.where = reader.Where(node);
  reader.CheckKeys(node, kRuleKeys, "rule");
  rule.id = reader.RequiredString(node, "id");
  static const RE2 kIdRegex("[a-z0-9_]+(\\.[a-z0-9_]+)+");
  if (!rule.id.empty() && !RE2::FullMatch(rule.id, kIdRegex)) {
    reader.Error(node["id"], "id '" + rule.id + "' must be lowercase dotted words, e.g. es.chain.disk_fill");
  }
  rule.name = reader.RequiredString(node, "name");
  rule.category = reader.RequiredString(node, "category");
  const std::string kind = reader.StringOr(node, "kind", "single");
  if (auto it = kKinds.find(kind); it != kKinds.end()) {
    rule.kind = it->second;
  } else {
    reader.Error(node["kind"], "kind must be single, threshold, sequence, distinct, value or absence, not '" +
                                   kind + "'");
  }
  const Severity severity = reader.SeverityOr(node, "severity", Severity::kWarning);
  if (rule.kind == Rule::Kind::kSequence) {
    const YamlNode& steps = node["steps"];
    if (!steps || !steps.IsSequence() || steps.size() == 0) {
      reader.Error(steps ? steps : node, "a sequence rule needs a non-empty list of 'steps'");
    } else {
      for (const YamlNode& step : steps.items()) {
        if (step.IsMap()) {
          rule.steps.push_back(ReadStep(reader, step, severity, true));
        } else {
          reader.Error(step, "each entry of 'steps' must be a map");
        }
      }
    }
    const std::string start = reader.StringOr(node, "start", "first");
    if (start != "first" && start != "any") reader.Error(node["start"], "start must be first or any");
    rule.start_any = start == "any";
  } else {
    rule.steps.push_back(ReadStep(reader, node, severity, false));
  }
  rule.count = reader.IntOr(node, "count", 1);
  if (rule.count < 1) reader.Error(node["count"], "count must be at least 1");
  rule.window = reader.DurationOr(node, "window", std::chrono::minutes(10));
  rule.realert = reader.DurationOr(node, "realert", std::chrono::hours(1));
  rule.resolve_after = reader.DurationOr(node, "resolve_after", std::chrono::minutes(15));
  rule.hold_down = reader.DurationOr(node, "hold_down", std::chrono::minutes(5));
  rule.group_by = reader.StringList(node, "group_by");
  if (rule.group_by.empty()) rule.group_by.push_back("node");
  rule.inhibited_by = reader.StringList(node, "inhibited_by");
  rule.runbook = reader.StringOr(node, "runbook", "");
  if (rule.kind == Rule::Kind::kDistinct) {
    rule.distinct_field = reader.RequiredString(node, "distinct");
    if (rule.count < 2) reader.Error(node, "a distinct rule needs a count of at least 2");
  }
  if (rule.kind == Rule::Kind::kValue) ReadValue(reader, node, &rule.value);
  if (rule.kind == Rule::Kind::kAbsence) {
    rule.expect = reader.StringList(node, "expect");
    if (rule.expect.empty()) reader.Error(node, "an absence rule needs 'expect': patterns, or any");
    rule.window = reader.DurationOr(node, "within", rule.window);
  }
  return rule;
}

}  // namespace foreshock
