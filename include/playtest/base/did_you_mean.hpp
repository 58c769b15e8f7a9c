// "Did you mean ...?" for a name that is not known: the known names closest to it by edit distance
// (Damerau-Levenshtein with adjacent transpositions, so "cvoer" is one step from "cover"), as
// messages for strategy, objective, format, vertex and label names suggest them.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

// The known names within a distance of max(1, |name| / 3) of `name` (case-insensitive), closest
// first, at most `limit`; empty when none is close.
std::vector<std::string> closest_names(std::string_view name, std::span<const std::string> known,
                                       std::size_t limit = 3);

// " (did you mean 'cover'?)", " (did you mean 'a' or 'b'?)", or "" when nothing is close.
std::string did_you_mean(std::string_view name, std::span<const std::string> known);

}  // namespace playtest
