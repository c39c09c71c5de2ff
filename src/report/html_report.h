#pragma once

// RenderHtml writes a replay's Timeline as one self-contained HTML page (`replay --report`):
// no scripts, fonts or network access, so it opens anywhere, offline, and can be attached to
// a postmortem. At the top an SVG timeline with one row per node: bars of pattern hits over
// time, alert markers coloured by severity, and before each outage marker the lead time drawn
// as a span; below it the summary, the alerts with their evidence lines and runbooks, and
// the inputs with what could not be read. Every string that came from a log is escaped.

#include <string>

#include "report/timeline.h"

namespace foreshock {

std::string RenderHtml(const Timeline& timeline, const std::string& title);

// Escapes &, <, >, " and ' for HTML text and attributes.
std::string EscapeHtml(std::string_view text);

}  // namespace foreshock
