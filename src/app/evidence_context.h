#pragma once

// Lines of context for a replay report's evidence (`replay --context N`): the N lines before
// and after each evidence line, read again from its input (plain, gzip or zstd), in one
// pass per input, and handed to the Timeline. Evidence is named "file:line"; inputs that
// cannot be read again are left without context.

#include <cstddef>

#include "report/timeline.h"

namespace foreshock::app {

void ReadEvidenceContext(size_t lines_around, Timeline* timeline);

}  // namespace foreshock::app
