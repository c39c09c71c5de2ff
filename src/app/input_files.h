#pragma once

// The inputs a verb reading archives is given (replay, baseline build): files, folders
// (recursively, in name order) and globs, each file once; what cannot be read is reported
// and passed over, never the end of the run. And the time bounds such verbs take.

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/time.h"
#include "base/time_zone.h"
#include "report/timeline.h"

namespace foreshock::app {

// An input (file or folder) that could not be read at all: reported now on stderr, and
// added to *failed for the summary.
void PassOver(const std::string& name, const std::string& why, std::vector<InputReport>* failed);

// The files `args` name, expanded as above. What does not exist or cannot be listed is
// passed over (PassOver).
std::vector<std::string> ExpandInputs(const std::vector<std::string>& args, std::vector<InputReport>* failed);

// "2026-11-29T02:50:00Z" (or any stamp foreshock reads), or relative to now like "-2h".
std::optional<TimePoint> ParseBound(const std::string& text, const TimeZone& zone);

// --from and --to (either may be empty): ParseBound() times, --from before --to. The error
// says which option is wrong and how.
Status ParseWindow(const std::string& from_text, const std::string& to_text, const TimeZone& zone,
                   std::optional<TimePoint>* from, std::optional<TimePoint>* to);

}  // namespace foreshock::app
