// What `playtest plan` shows (seed 002 §4): the reactive planner's gain function of every
// transition out of an active vertex (Table 2) with its value for the given trap bindings and its
// gain tree, and the gain guards (Table 3, formula (1)): the transitions of maximal positive gain.
// One typed result, one text and one JSON rendering.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "playtest/plan/reactive_planner.hpp"

namespace playtest {

struct PlannerReport {
  struct Transition {
    EdgeId edge;
    double gain = 0;
    std::string formula;
    GainTree tree;  // empty unless asked for
  };
  struct Guard {
    VertexId vertex;
    std::vector<EdgeId> transitions, enabled;  // enabled: maximal positive gain
  };
  std::vector<EdgeId> traps;
  PlannerOptions options;
  std::vector<Transition> transitions;  // grouped by active vertex, in id order
  std::vector<Guard> guards;
  std::uint64_t stored_tree_nodes = 0;
  std::uint32_t trees = 0;
};

// The gains with the traps in `visited` bound to visited (all others unvisited); `with_trees`: also
// each transition's gain tree (only the JSON rendering shows them).
PlannerReport inspect_planner(const TestGraph& g, std::vector<EdgeId> traps, std::span<const EdgeId> visited,
                              const PlannerOptions& options, bool with_trees = true);

void write_planner_text(std::ostream& out, const TestGraph& g, const PlannerReport& r);
nlohmann::json planner_json(const TestGraph& g, const PlannerReport& r);

}  // namespace playtest
