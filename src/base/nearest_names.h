#pragma once

// "did you mean ...?" for names typed on the command line (a rule, a pattern, a node): the
// known names closest to what was typed, by edit distance, with names that contain the typed
// text (or that it contains) first. Used so a filter that matches nothing says what would.

#include <string>
#include <string_view>
#include <vector>

namespace foreshock {

// Up to `at_most` of `known`, nearest first; only names close enough to be a plausible typo
// or a part of the name (none when nothing is).
std::vector<std::string> NearestNames(std::string_view typed, const std::vector<std::string>& known,
                                      size_t at_most = 3);

// " (did you mean es.breaker.parent or es.breaker.request?)", or "" when nothing is near.
std::string DidYouMean(std::string_view typed, const std::vector<std::string>& known);

}  // namespace foreshock
