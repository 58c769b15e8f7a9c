// The static checker of model programs: resolves names and types, rejects unbounded domains and
// type mismatches with located diagnostics, folds constants, allocates frame slots.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lang/detail/ast.hpp"
#include "lang/detail/runtime.hpp"

namespace playtest::lang {

// Checks `p` in place; returns the words of the initial state. Throws ModelError.
std::vector<Word> check_program(Program& p, const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace playtest::lang
