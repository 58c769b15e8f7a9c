// The "starved" and "untestable_edges" fields of a run in `run --json` and in a trace's end event
// (docs/testing.md "Outcomes the system never chose"): one writer for both.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "playtest/graph/game_graph.hpp"
#include "playtest/run/runner.hpp"

namespace playtest::detail {

// Adds them to `j` when the run stopped on outcomes the system never chose (nothing otherwise).
inline void add_starved_json(nlohmann::json& j, const GameGraph& g, const RunResult& r) {
  if (r.starved.empty()) return;
  nlohmann::json js = nlohmann::json::array();
  for (const StarvedOutcome& so : r.starved)
    js.push_back({{"vertex", g.vertex_name(so.vertex)},
                  {"label", std::string(g.label(so.edge))},
                  {"edge", g.edge_name(so.edge)},
                  {"visits", so.visits},
                  {"contexts", so.contexts},
                  {"declared_prob", so.declared_prob},
                  {"edges_behind", so.edges_behind}});
  j["starved"] = std::move(js);
  j["untestable_edges"] = r.untestable_edges;
}

}  // namespace playtest::detail
