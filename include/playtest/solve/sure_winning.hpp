// Sure winning (seed 000 §4): the vertices from which the tester reaches a goal with certainty
// within a bounded number of moves, whatever the system under test does, and a strategy that does so
// with minimum worst-case path cost: Dijkstra's algorithm run backwards from the goals, where a
// passive vertex ("choice point") is settled only once all its successors are. O(E log V).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct SureWinResult {
  std::vector<std::uint8_t> winnable;  // per vertex
  std::vector<double> cost;            // per vertex: min worst-case cost; +infinity where not winnable
  std::vector<EdgeId> strategy;        // per vertex; EdgeId::none() for goals, passive vertices, losing vertices
  std::uint32_t num_winnable = 0;
};

// Goals are terminal (their out-edges are never taken). A passive vertex is winnable when all its
// out-edges lead to winnable vertices (every edge of the graph has probability > 0); an active one
// when some edge does. The strategy is "certain" (§4.2): following it from a winnable vertex reaches a
// goal within num_winnable moves, and cost[v] is the exact worst-case cost of doing so: for active v,
// cost[v] = cost(strategy[v]) + cost[target]; for passive v, cost[v] = max over out-edges e of
// cost(e) + cost[target(e)]. Every strategy edge points to a vertex settled earlier, so the strategy
// has no cycles even with zero-cost edges. Throws UsageError for goal ids out of range.
SureWinResult solve_sure_winning(const TestGraph& g, std::span<const VertexId> goals);

}  // namespace playtest
