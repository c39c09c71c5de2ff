#pragma once

// Random multi-node logs, and a catalog whose alerts depend on when the time-driven decisions
// are taken, for the tests that compare a shortcut of the hot path (quiet runs, in Run()
// and in watch's follower) with record-by-record processing: the alerts must be the same,
// in the same order.

#include <cstdint>
#include <random>
#include <string>

#include "catalog/catalog.h"
#include "correlate/alert.h"

namespace foreshock::testing {

// Rules whose alerts depend on when time-driven decisions are taken: a threshold resolved by
// a recovery after a hold-down (its resolution is stamped with the recovery's time, earlier
// than it is due), a single alert resolved after a quiet spell, and an absence that any line
// of the node disarms. Rule ids: t.pressure_rule, t.crash_rule, t.silent_after_snapshot,
// t.relieved_rule.
Catalog TimingCatalog();

// One node's log (ES 8 JSON or plain), its clock off by `clock_offset_millis`: mostly
// ordinary lines, a precursor of TimingCatalog() now and then, sometimes a gap, a line a few
// seconds out of order or one later than --lateness, or (plain) a stack trace.
std::string NodeLog(std::mt19937* random, const std::string& node, bool json, int lines, int64_t clock_offset_millis);

// An alert as the comparisons tell alerts apart: action, rule, time, fingerprint, message.
std::string DescribeAlert(const Alert& alert);

}  // namespace foreshock::testing
