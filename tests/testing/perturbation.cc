#include "testing/perturbation.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace foreshock::testing {
namespace {

using Clock = std::chrono::system_clock;
using std::chrono::seconds;

// An ES event starts on an unindented line that holds its own stamp: "[2026-...T" (plain,
// also inside journald, Filebeat and syslog envelopes) or an ES JSON "@timestamp"/"timestamp"
// key; or on a lone "{" (ES 7 JSON pretty-printed). The other lines continue it: stack
// traces, a pretty-printed object's fields, an envelope's second half of a split line.
bool StartsEvent(std::string_view line) {
  static const RE2 kStart(R"(\[\d{4}-\d\d-\d\dT|"@timestamp"|\\?"timestamp\\?")");
  if (line.empty() || line[0] == ' ' || line[0] == '\t') return false;
  return line.starts_with("{\n") || line.starts_with("{\r\n") || RE2::PartialMatch(line, kStart);
}

const RE2& IsoStamp() {
  static const RE2 kIso(R"((\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d))");
  return kIso;
}

std::optional<Clock::time_point> FirstStamp(std::string_view line) {
  int year, month, day, hour, minute, second;
  if (RE2::PartialMatch(line, IsoStamp(), &year, &month, &day, &hour, &minute, &second)) {
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    return Clock::from_time_t(timegm(&tm));
  }
  static const RE2 kMicros(R"re("__REALTIME_TIMESTAMP": ?"(\d+)")re");
  long long micros;
  if (RE2::PartialMatch(line, kMicros, &micros)) return Clock::time_point(std::chrono::microseconds(micros));
  return std::nullopt;
}

std::string FormatIso(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[80];
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  return out;
}

std::vector<LogFile> EachFile(const std::vector<LogFile>& files,
                              const std::function<std::string(const LogFile&)>& change) {
  std::vector<LogFile> out;
  for (const LogFile& file : files) out.push_back({file.name, change(file)});
  return out;
}

std::vector<LogFile> Prepend(const std::vector<LogFile>& files, const std::string& junk) {
  return EachFile(files, [&](const LogFile& file) { return junk + file.bytes; });
}

// A copy of the file's first event, stamped `by` off, inserted at a random place after it.
std::vector<LogFile> Stray(const std::vector<LogFile>& files, std::mt19937* random, seconds by) {
  return EachFile(files, [&](const LogFile& file) {
    std::vector<RawRecord> records = SplitRecords(file.bytes);
    auto first = std::find_if(records.begin(), records.end(), [](const RawRecord& r) { return r.stamp.has_value(); });
    if (first == records.end() || records.size() < 2) return file.bytes;
    RawRecord stray{ShiftStamps(first->text, by), std::nullopt};
    const size_t at = 1 + (*random)() % (records.size() - 1);
    records.insert(records.begin() + static_cast<std::ptrdiff_t>(at), stray);
    return JoinRecords(records);
  });
}

std::vector<LogFile> Skew(const std::vector<LogFile>& files, seconds by) {
  const std::string node = NodeOfFile(files.front().name);
  return EachFile(files, [&](const LogFile& file) {
    return NodeOfFile(file.name) == node ? ShiftStamps(file.bytes, by) : file.bytes;
  });
}

}  // namespace

std::vector<RawRecord> SplitRecords(const std::string& bytes) {
  std::vector<RawRecord> records;
  size_t at = 0;
  while (at < bytes.size()) {
    size_t end = bytes.find('\n', at);
    end = end == std::string::npos ? bytes.size() : end + 1;
    const std::string_view line(bytes.data() + at, end - at);
    if (records.empty() || StartsEvent(line)) {
      records.push_back({std::string(line), FirstStamp(line)});
    } else {
      records.back().text += line;
      if (!records.back().stamp) records.back().stamp = FirstStamp(line);
    }
    at = end;
  }
  return records;
}

std::string JoinRecords(const std::vector<RawRecord>& records) {
  std::string out;
  for (const RawRecord& record : records) out += record.text;
  return out;
}

std::string ShiftStamps(const std::string& text, seconds by) {
  std::string out;
  re2::StringPiece rest(text);
  re2::StringPiece match;
  static const RE2 kAny(R"re((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d|"__REALTIME_TIMESTAMP": ?"\d+"))re");
  while (RE2::PartialMatch(rest, kAny, &match)) {
    out.append(rest.data(), static_cast<size_t>(match.data() - rest.data()));
    const auto stamp = FirstStamp(std::string_view(match.data(), match.size()));
    if (match[0] == '"') {
      const long long micros =
          std::chrono::duration_cast<std::chrono::microseconds>((*stamp + by).time_since_epoch()).count();
      out += "\"__REALTIME_TIMESTAMP\": \"" + std::to_string(micros) + "\"";
    } else {
      out += FormatIso(Clock::to_time_t(*stamp + by));
    }
    rest.remove_prefix(static_cast<size_t>(match.data() - rest.data()) + match.size());
  }
  out.append(rest.data(), rest.size());
  return out;
}

std::string NodeOfFile(const std::string& name) { return name.substr(0, name.find_first_of("._")); }

std::vector<Arrival> ArrivalOrder(const std::vector<LogFile>& files, const std::string& skewed_node, seconds skew) {
  struct Entry {
    Clock::time_point time;
    size_t file;
    size_t index;
    const RawRecord* record;
  };
  std::vector<std::vector<RawRecord>> split;
  for (const LogFile& file : files) split.push_back(SplitRecords(file.bytes));
  std::vector<Entry> entries;
  for (size_t f = 0; f < split.size(); ++f) {
    const std::vector<RawRecord>& records = split[f];
    Clock::time_point last{};
    for (size_t i = 0; i < records.size(); ++i) {
      std::vector<Clock::time_point> around;
      for (size_t j = i == 0 ? 0 : i - 1; j <= i + 1 && j < records.size(); ++j) {
        if (records[j].stamp) around.push_back(*records[j].stamp);
      }
      if (records[i].stamp && around.size() == 3) {
        std::sort(around.begin(), around.end());
        last = std::max(last, around[1]);
      } else if (records[i].stamp) {
        last = std::max(last, *records[i].stamp);
      }
      entries.push_back({last, f, i, &records[i]});
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.time != b.time ? a.time < b.time : a.file != b.file ? a.file < b.file : a.index < b.index;
  });
  std::vector<Arrival> arrivals;
  for (const Entry& entry : entries) {
    const bool skewed = !skewed_node.empty() && NodeOfFile(files[entry.file].name) == skewed_node;
    arrivals.push_back({entry.file, skewed ? ShiftStamps(entry.record->text, skew) : entry.record->text, entry.time});
    if (arrivals.back().text.back() != '\n') arrivals.back().text += '\n';
  }
  return arrivals;
}

std::string MergedByTime(const std::vector<LogFile>& files) {
  std::string out;
  for (const Arrival& arrival : ArrivalOrder(files)) out += arrival.text;
  return out;
}

std::vector<Perturbation> Perturbations() {
  using Files = std::vector<LogFile>;
  std::vector<Perturbation> list;
  auto add = [&](std::string name, auto apply, bool for_streams_only = false) {
    list.push_back({std::move(name), Expectation::kSameAlerts, Expectation::kSameAlerts, for_streams_only, apply,
                    seconds(0)});
  };
  auto add_skew = [&](std::string name, seconds by) {
    list.push_back({std::move(name), Expectation::kNoWarningLost, Expectation::kSameAlertsAndStages, false,
                    [by](const Files& files, std::mt19937*) { return Skew(files, by); }, by});
  };
  add("jvm-warning-first", [](const Files& files, std::mt19937*) {
    return Prepend(files,
                   "OpenJDK 64-Bit Server VM warning: Option UseConcMarkSweepGC was deprecated in version 9.0 and "
                   "will likely be removed in a future release.\n");
  });
  add("blank-line-first", [](const Files& files, std::mt19937*) { return Prepend(files, "\n"); });
  add("binary-first", [](const Files& files, std::mt19937*) {
    return Prepend(files, std::string("\x00\x01\xfe\xff\x1b[0m\x7f junk\n", 15));
  });
  add("json-object-first", [](const Files& files, std::mt19937*) {
    return Prepend(files, "{\n  \"name\" : \"es-data-1\",\n  \"cluster_name\" : \"prod\",\n  \"tagline\" : \"You Know, for Search\"\n}\n");
  });
  add("stray-years-ahead", [](const Files& files, std::mt19937* random) {
    return Stray(files, random, std::chrono::hours(24 * 365 * 5));
  });
  add("stray-years-back", [](const Files& files, std::mt19937* random) {
    return Stray(files, random, -std::chrono::hours(24 * 365));
  });
  add_skew("node-5m-fast", std::chrono::minutes(5));
  add_skew("node-5m-slow", -std::chrono::minutes(5));
  add("every-50th-record-twice", [](const Files& files, std::mt19937*) {
    return EachFile(files, [](const LogFile& file) {
      std::vector<RawRecord> records = SplitRecords(file.bytes);
      std::vector<RawRecord> out;
      for (size_t i = 0; i < records.size(); ++i) {
        out.push_back(records[i]);
        if (i % 50 == 49 && records[i].stamp) out.push_back(records[i]);
      }
      return JoinRecords(out);
    });
  });
  add("neighbours-swapped-within-5s", [](const Files& files, std::mt19937* random) {
    return EachFile(files, [&](const LogFile& file) {
      std::vector<RawRecord> records = SplitRecords(file.bytes);
      for (size_t i = 1; i + 1 < records.size(); ++i) {
        const auto& a = records[i].stamp;
        const auto& b = records[i + 1].stamp;
        if (a && b && *b - *a <= seconds(5) && (*random)() % 3 == 0) {
          std::swap(records[i], records[i + 1]);
          ++i;  // each record moves once
        }
      }
      return JoinRecords(records);
    });
  });
  add("crlf-line-ends", [](const Files& files, std::mt19937*) {
    return EachFile(files, [](const LogFile& file) {
      std::string out;
      for (char c : file.bytes) {
        if (c == '\n') out += '\r';
        out += c;
      }
      return out;
    });
  });
  add("split-into-rotated-files", [](const Files& files, std::mt19937* random) {
    // Oldest first: name.2, name.1, name, as logrotate leaves them.
    Files out;
    for (const LogFile& file : files) {
      std::vector<RawRecord> records = SplitRecords(file.bytes);
      size_t cut1 = records.size() / 3 + (*random)() % (records.size() / 3 + 1);
      size_t cut2 = std::min(records.size(), cut1 + 1 + (*random)() % (records.size() / 3 + 1));
      std::vector<RawRecord> parts[3] = {{records.begin(), records.begin() + static_cast<std::ptrdiff_t>(cut1)},
                                         {records.begin() + static_cast<std::ptrdiff_t>(cut1),
                                          records.begin() + static_cast<std::ptrdiff_t>(cut2)},
                                         {records.begin() + static_cast<std::ptrdiff_t>(cut2), records.end()}};
      out.push_back({file.name + ".2", JoinRecords(parts[0])});
      out.push_back({file.name + ".1", JoinRecords(parts[1])});
      out.push_back({file.name, JoinRecords(parts[2])});
    }
    return out;
  });
  add("cut-at-a-random-byte-and-resumed", [](const Files& files, std::mt19937*) { return files; },
      /*for_streams_only=*/true);
  return list;
}

}  // namespace foreshock::testing
