#include "base/time_zone.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "base/timestamp_parser.h"

namespace foreshock {

const TimeZone& TimeZone::Utc() {
  static const TimeZone utc("UTC", true, Duration(0));
  return utc;
}

Result<TimeZone> TimeZone::Parse(std::string_view spec) {
  if (auto offset = ParseUtcOffset(spec)) return TimeZone(std::string(spec), true, *offset);
  const std::string name(spec);
  if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) {
    return Status::InvalidArgument("--timezone '" + name + "' is not a UTC offset or zone name");
  }
  const char* dir = std::getenv("TZDIR");
  const std::filesystem::path file =
      std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo") / name;
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    return Status::InvalidArgument("--timezone '" + name +
                                   "' is not a UTC offset such as +01:00 nor a zone in " +
                                   file.parent_path().string() + " (is tzdata installed?)");
  }
  return TimeZone(name, false, Duration(0));
}

Duration TimeZone::NamedOffsetAtLocal(TimePoint local) const {
  using namespace std::chrono;
  const int64_t hour = floor<hours>(local).time_since_epoch().count();
  if (hour == cached_hour_) return cached_offset_;
  const char* current = std::getenv("TZ");
  if (current == nullptr || name_ != current) {
    ::setenv("TZ", name_.c_str(), 1);
    ::tzset();
  }
  const sys_days day = floor<days>(local);
  const year_month_day ymd(day);
  const hh_mm_ss<seconds> clock(floor<seconds>(local - day));
  std::tm fields{};
  fields.tm_year = static_cast<int>(ymd.year()) - 1900;
  fields.tm_mon = static_cast<int>(static_cast<unsigned>(ymd.month())) - 1;
  fields.tm_mday = static_cast<int>(static_cast<unsigned>(ymd.day()));
  fields.tm_hour = static_cast<int>(clock.hours().count());
  fields.tm_isdst = -1;
  const std::time_t utc = std::mktime(&fields);
  // mktime normalised `fields` to the zone's reading at `utc`; the offset is the difference.
  const auto local_hour = sys_days(floor<days>(local)) + hours(clock.hours().count());
  cached_hour_ = hour;
  cached_offset_ = duration_cast<Duration>(local_hour - sys_seconds(seconds(utc)));
  return cached_offset_;
}

}  // namespace foreshock
