// Bounded reachability (seed 000 §3) on an MDP of the PRISM importer's shape with its choice
// vertices folded into their actions (BoundedReachOptions::fold_choices).
//
// In such a graph every passive vertex j is the choice of one active vertex i (its only
// predecessor) or has only goals as predecessors ("loose"), and every edge of a non-goal active
// vertex leads to a choice of its own or to a goal. The recursion of §3.3 then splits in two: a
// state's value at k depends on its choices' values at k - 1, which depend on the states' values at
// k - 2. One pass over the states computes the steps 2s and 2s + 1 together from the states'
// values at 2s - 2 and 2s - 1, which lie side by side (one cache line per successor read), and
// evaluates each choice vertex at 2s - 1 and 2s on the way, so that choice vertices need no values
// of their own between passes: only the last one computed, to tell whether the next one differs
// (the frontier sizes count every vertex whose value changed, as BoundedReachSolver does).
// Every value, comparison and change point is computed by the same operations in the same order as
// BoundedReachSolver's dense step, so the result is identical, bit for bit.
#pragma once

#include <span>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/bounded_reachability.hpp"

namespace playtest::detail {

class BoundedReachFolded {
 public:
  // Solves into `r` and returns true, or returns false (leaving `r` alone) when g does not have
  // the shape above. `order` is one of the library's preorders.
  template <class Order>
  static bool solve(const TestGraph& g, std::span<const VertexId> goals, const BoundedReachOptions& o, Order order,
                    BoundedReachResult& r);
};

}  // namespace playtest::detail
