// The --traps option shared by plan, run and simulate (seed 002 test purposes, docs/planning.md).
#pragma once

#include <string>
#include <vector>

#include "common.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest::cli {

// The trap edges named by `specs` (strategy/traps.hpp); "model" means the model's meta.traps.
std::vector<EdgeId> resolve_traps(const TestGraph& g, const std::vector<std::string>& specs);

}  // namespace playtest::cli
