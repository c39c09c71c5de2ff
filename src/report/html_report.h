#pragma once

// RenderHtml writes a replay's Timeline as one self-contained HTML page (`replay --report`):
// no scripts, fonts or network access, so it opens anywhere, offline, prints whole to PDF
// and can be attached to a postmortem. At the top its provenance (version, command line,
// catalog, when), then an SVG timeline with one row per node on a UTC axis and one relative
// to the outage (T-20m): an outage band from the first to the last outage-marker line, the
// lead time before it, bars of pattern hits (hover: the minute, the count, the patterns) and
// alert markers that never overlap; below it the captured numbers plotted on the same axis
// (heap, breaker usage against its limit, disk use), the alerts, one block per alert story
// with its evidence once (with lines of context, if read) and each rule's runbook once, the
// summary and the inputs. Every string that came from a log is escaped.

#include <string>

#include "report/timeline.h"

namespace foreshock {

std::string RenderHtml(const Timeline& timeline, const Provenance& provenance, const Catalog& catalog);

// Escapes &, <, >, " and ' for HTML text and attributes.
std::string EscapeHtml(std::string_view text);

}  // namespace foreshock
