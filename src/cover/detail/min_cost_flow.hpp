// The balancing min-cost flow of the postman tour (seed 000 §5), behind a plain interface: arrays
// in, flow out. All of LEMON stays in min_cost_flow.cpp, which is compiled as C++17 (see there and
// docs/dependencies.md), so this header must stay valid C++17.
#pragma once

#include <cstdint>
#include <vector>

namespace playtest::detail {

// LEMON's min-cost flow solvers; all are exact on integer costs (times measured on the postman
// balancing problem: docs/performance.md, "Coverage (Chinese Postman)").
enum class MinCostFlowAlgorithm : std::uint8_t {
  network_simplex_altering,      // NetworkSimplex, altering candidate list pivots (the fastest)
  network_simplex_block,         // NetworkSimplex, block search pivots (LEMON's default)
  cost_scaling_partial_augment,  // CostScaling, PARTIAL_AUGMENT
  cost_scaling_push,             // CostScaling, PUSH
  cost_scaling_augment,          // CostScaling, AUGMENT
  capacity_scaling,              // CapacityScaling
};

// Uncapacitated transshipment: arcs source[i] -> target[i] with cost cost[i] >= 0 and no upper
// bound; supply[v] > 0 sends, < 0 receives, summing to 0.
struct FlowNetwork {
  std::uint32_t num_nodes = 0;
  std::vector<std::uint32_t> source, target;
  std::vector<std::int64_t> cost;
  std::vector<std::int64_t> supply;
};

struct MinCostFlowOptions {
  MinCostFlowAlgorithm algorithm = MinCostFlowAlgorithm::network_simplex_altering;
  // CostScaling's epsilon division factor / CapacityScaling's delta factor (0: LEMON's default).
  int factor = 0;
  // Hand LEMON the reduced costs c(u,v) + d(u) - d(v), d the distance from the nearest supply
  // node (a multi-source Dijkstra): still >= 0, every feasible flow's cost shifts by the same
  // constant, so the optimal flows are the same, but NetworkSimplex's initial pivots (the
  // cheapest arc into each demand node) then follow shortest paths.
  bool shift_costs = true;
};

// LEMON's ProblemType. The bound total-supply on every arc (see min_cost_flow.cpp) makes
// `unbounded` impossible; `infeasible` means some demand cannot be reached from the supplies.
enum class MinCostFlowStatus : std::uint8_t { optimal, infeasible, unbounded };

struct MinCostFlowResult {
  MinCostFlowStatus status = MinCostFlowStatus::infeasible;
  // The primal and dual solutions, both empty unless status == optimal.
  std::vector<std::int64_t> flow;  // per arc, in input order
  // Per node, LEMON's convention: the reduced cost of arc (u, v) is cost + potential[u] -
  // potential[v]. They always certify the flow's optimality for the uncapacitated problem
  // (complementary slackness): every reduced cost >= 0, and = 0 on every arc with flow > 0.
  // LEMON's own potentials, repaired by a shortest-path pass where the solver's internal arc
  // bound left a negative reduced cost, in the input's costs (the cost shift below is undone).
  std::vector<std::int64_t> potential;
  std::int64_t total_cost = 0;
};

// Solves the network with the chosen algorithm and returns its status, flow and potentials.
// Throws InternalError when the arrays disagree in size, an endpoint is out of range, a cost
// is negative or the supplies do not sum to 0.
MinCostFlowResult solve_min_cost_flow(const FlowNetwork& net, const MinCostFlowOptions& options = {});

}  // namespace playtest::detail
