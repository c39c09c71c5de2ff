#pragma once

// Splits a command line into its words the way a shell would quote, and no more: words are
// separated by blanks; 'single quotes' keep everything literally; "double quotes" keep
// everything but \" \\ \$ \` (escaped); a backslash outside quotes keeps the next character.
// Nothing is expanded ($VAR, globs, ~, `...`): the words go to execve(2) as they are.

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace foreshock {

// An unterminated quote or a trailing backslash is an error saying where.
Result<std::vector<std::string>> CommandWords(std::string_view line);

}  // namespace foreshock
