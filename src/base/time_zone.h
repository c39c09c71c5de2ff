#pragma once

// TimeZone reads the zone-less timestamps of plain-text logs (--timezone): UTC, a fixed UTC
// offset ("+01:00", "-0530"), or an IANA zone name ("Europe/Paris") from the system's tz
// database, with its daylight-saving rules. IANA zones are computed by libc (mktime with TZ
// set to the zone), once per local hour and cached, so the hot path rarely pays for it.
// Not thread-safe: a TimeZone belongs to one pipeline thread, and IANA zones set the
// process's TZ variable.

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/time.h"

namespace foreshock {

class TimeZone {
 public:
  static const TimeZone& Utc();

  // "UTC", "Z", "+01:00", "-0530", or an IANA name found under $TZDIR or
  // /usr/share/zoneinfo. Anything else is an InvalidArgument error saying why.
  static Result<TimeZone> Parse(std::string_view spec);

  // The offset from UTC in force when this zone's clocks read `local` (a wall-clock time
  // written as if it were UTC). In a daylight-saving gap or overlap, libc's choice. Inline
  // for fixed zones (UTC, an offset): plain log lines ask it once each.
  Duration OffsetAtLocal(TimePoint local) const { return fixed_ ? offset_ : NamedOffsetAtLocal(local); }

  const std::string& name() const { return name_; }

 private:
  TimeZone(std::string name, bool fixed, Duration offset)
      : name_(std::move(name)), fixed_(fixed), offset_(offset) {}
  Duration NamedOffsetAtLocal(TimePoint local) const;

  std::string name_;
  bool fixed_;
  Duration offset_;
  mutable int64_t cached_hour_ = INT64_MIN;  // local hours since the epoch
  mutable Duration cached_offset_{0};
};

}  // namespace foreshock
