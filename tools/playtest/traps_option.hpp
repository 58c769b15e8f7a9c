// The --traps option shared by plan, run and simulate (seed 002 test purposes, docs/planning.md).
#pragma once

#include <string>
#include <vector>

#include "common.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest::cli {

// The trap edges named by `specs` (plan/traps.hpp); "model" reads meta.traps of a graph/1 input.
std::vector<EdgeId> resolve_traps(const TestGraph& g, const InputOptions& input, const std::vector<std::string>& specs);

}  // namespace playtest::cli
