// The certified expected-cost method on the folded MDP (mdp_model.hpp): the same steps as on the
// test graph itself (Gauss-Seidel value iteration in the order of the backward search from the
// goals, the greedy strategy made proper, policy iteration with exact evaluation, the same
// certificate), with the choice vertices folded into their actions and the large strongly connected
// blocks of a strategy's chain solved by a Gauss-Seidel-preconditioned BiCGSTAB.
#pragma once

#include <cstdint>
#include <span>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/expected_cost.hpp"

namespace playtest::detail {

// `order` is the work set (the almost-sure region without the goals) in backward-search order.
// Returns false, leaving `result` alone, when the folded MDP has an action of cost 0 that does not
// go straight to a goal: zero-cost end components may then exist, and the vertex-level solver,
// which collapses them, must be used.
bool solve_certified_mdp(const TestGraph& g, std::span<const std::uint8_t> is_goal, std::span<const VertexId> order,
                         const ExpectedCostOptions& o, ExpectedCostResult& result);

}  // namespace playtest::detail
