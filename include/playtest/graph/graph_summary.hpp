// What `playtest info` says about a test graph: counts by kind, strongly connected components,
// and where it is weak (vertices unreachable from the initial vertex, vertices that cannot reach a
// goal, dead ends). One typed result, one text and one JSON rendering.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct GraphSummary {
  std::uint32_t timeout_edges = 0;
  std::uint32_t components = 0, largest_component = 0, singleton_components = 0;
  std::vector<VertexId> unreachable;  // from the initial vertex
  std::vector<VertexId> no_goal;      // cannot reach a goal (empty when the graph has no goal)
  std::vector<VertexId> dead_ends;    // non-goal vertices without out-edges
};

GraphSummary summarize(const TestGraph& g);

// `limit`: how many vertex ids to name per finding.
void write_summary_text(std::ostream& out, const TestGraph& g, const GraphSummary& s, std::uint32_t limit);
nlohmann::json summary_json(const TestGraph& g, const GraphSummary& s, std::uint32_t limit);

}  // namespace playtest
