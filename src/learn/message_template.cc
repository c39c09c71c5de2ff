#include "learn/message_template.h"

#include <algorithm>
#include <cctype>

#include "learn/shape_piece.h"

namespace foreshock {
namespace {

constexpr std::string_view kMask = "<*>";
// Messages longer than this are templated on their head: the rest is values (a query, a
// mapping) more often than words.
constexpr size_t kMaxMessageBytes = 1024;

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }

// An id ES or a client generated: long, made of id characters, mixed case past its first.
bool LooksLikeId(std::string_view token) {
  if (token.size() < 16) return false;
  bool upper = false;
  bool lower = false;
  for (size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    if (!(IsUpper(c) || IsLower(c) || IsDigit(c) || c == '_' || c == '-')) return false;
    if (i > 0) {
      upper = upper || IsUpper(c);
      lower = lower || IsLower(c);
    }
  }
  return upper && lower;
}

bool IsValue(std::string_view token, char before, std::string_view node, std::string_view cluster) {
  if (before == '=') return true;
  if (std::any_of(token.begin(), token.end(), IsDigit)) return true;
  if (token.front() == '/' || token.starts_with("~/")) return true;  // a path
  if (!node.empty() && token == node) return true;
  if (!cluster.empty() && token == cluster) return true;
  return LooksLikeId(token);
}

// The end of the group opening at text[at] (`open`), or npos when it does not close on this
// line without nesting.
size_t GroupEnd(std::string_view text, size_t at, char open, char close) {
  for (size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == close) return i;
    if (text[i] == open) return std::string_view::npos;
  }
  return std::string_view::npos;
}

// Where a run of three or more `{…}` groups starting at `at` ends (a node descriptor), or
// `at` when there is none.
size_t NodeDescriptorEnd(std::string_view text, size_t at) {
  size_t end = at;
  int groups = 0;
  while (end < text.size() && text[end] == '{') {
    const size_t close = GroupEnd(text, end, '{', '}');
    if (close == std::string_view::npos) break;
    end = close + 1;
    ++groups;
  }
  return groups >= 3 ? end : at;
}

// A setting's name ("search.max_open_scroll_context"): lowercase dotted words, the one
// kind of bracketed text that is not a value.
bool IsSettingName(std::string_view text) {
  bool dot = false;
  for (char c : text) {
    if (c == '.') {
      dot = true;
    } else if (!(IsLower(c) || c == '_')) {
      return false;
    }
  }
  return dot && text.front() != '.' && text.back() != '.';
}

void AppendMask(std::string* out) {
  // Adjacent values ("10.0.0.3:9300/abc" cut at no separator) read as one.
  if (!out->ends_with(kMask)) out->append(kMask);
}

// "circuit_breaking_exception" -> "CircuitBreakingException".
std::string CamelCase(std::string_view snake) {
  std::string camel;
  bool up = true;
  for (char c : snake) {
    if (c == '_') {
      up = true;
      continue;
    }
    camel.push_back(up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    up = false;
  }
  return camel;
}

bool IsNameChar(char c) { return IsUpper(c) || IsLower(c) || IsDigit(c) || c == '_' || c == '$' || c == '.'; }

// The class a dotted name ends in, when it is one: "org.x.FooException" -> "FooException".
std::string ClassOf(std::string_view name) {
  while (!name.empty() && name.back() == '.') name.remove_suffix(1);
  const size_t dot = name.rfind('.');
  const std::string_view simple = dot == std::string_view::npos ? name : name.substr(dot + 1);
  for (std::string_view suffix : {std::string_view("Exception"), std::string_view("Error")}) {
    // A bare "Error" or "Exception" is a word, unless a package names it a class.
    const bool bare = simple.size() == suffix.size() && dot == std::string_view::npos;
    if (simple.size() >= suffix.size() && simple.ends_with(suffix) && IsUpper(simple.front()) && !bare) {
      return std::string(simple);
    }
  }
  for (std::string_view suffix : {std::string_view("_exception"), std::string_view("_error")}) {
    if (simple.size() > suffix.size() && simple.ends_with(suffix) && IsLower(simple.front()) &&
        std::all_of(simple.begin(), simple.end(), [](char c) { return IsLower(c) || c == '_'; })) {
      return CamelCase(simple);
    }
  }
  return {};
}

// A stack frame ("\tat org.x.Y.z(Y.java:12)") or its elision ("... 12 more"): no class it
// names is news.
bool IsFrame(std::string_view line) {
  size_t at = 0;
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  line.remove_prefix(at);
  return line.starts_with("at ") || line.starts_with("...");
}

}  // namespace

std::string TemplateOf(std::string_view message, std::string_view node, std::string_view cluster) {
  message = message.substr(0, std::min(message.find('\n'), kMaxMessageBytes));
  std::string out;
  out.reserve(std::min(message.size(), kMaxTemplateBytes) + 8);
  char before = ' ';
  size_t i = 0;
  while (i < message.size() && out.size() < kMaxTemplateBytes) {
    const char c = message[i];
    if (c == '{') {
      if (const size_t end = NodeDescriptorEnd(message, i); end != i) {
        out.append("{").append(kMask).append("}");
        i = end;
        before = '}';
        continue;
      }
    }
    if (c == '[') {
      // ES brackets what it fills in: an index, a shard, a size, a node, a module.
      const size_t close = GroupEnd(message, i, '[', ']');
      if (close != std::string_view::npos && close > i + 1) {
        const std::string_view inside = message.substr(i + 1, close - i - 1);
        out.push_back('[');
        if (IsSettingName(inside)) {
          out.append(inside);
        } else {
          out.append(kMask);
        }
        out.push_back(']');
        i = close + 1;
        before = ']';
        continue;
      }
    }
    if (IsTemplateSeparator(c)) {
      out.push_back(c);
      before = c;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() && !IsTemplateSeparator(message[end])) ++end;
    const std::string_view token = message.substr(i, end - i);
    if (IsValue(token, before, node, cluster)) {
      AppendMask(&out);
    } else {
      out.append(token);
    }
    before = 'a';
    i = end;
  }
  if (out.size() > kMaxTemplateBytes) out.resize(kMaxTemplateBytes);
  return out;
}

std::vector<std::string> ExceptionClassesIn(std::string_view text) {
  std::vector<std::string> classes;
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (IsFrame(line)) continue;
    size_t i = 0;
    while (i < line.size()) {
      if (!IsNameChar(line[i]) || IsDigit(line[i]) || line[i] == '.') {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < line.size() && IsNameChar(line[end])) ++end;
      size_t last = end;
      while (last > i && line[last - 1] == '.') --last;
      const char tail = line[last - 1];
      // Only "...Exception", "...Error" and their snake forms end so: most words go here.
      std::string name = tail == 'n' || tail == 'r' ? ClassOf(line.substr(i, end - i)) : std::string();
      i = end;
      if (!name.empty() && std::find(classes.begin(), classes.end(), name) == classes.end()) {
        classes.push_back(std::move(name));
      }
    }
  }
  return classes;
}

}  // namespace foreshock
