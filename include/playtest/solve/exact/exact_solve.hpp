// Exact rational solving on test graphs (issue 23, item 2): the model's numbers as rationals, the
// exact value of a given strategy (its linear system solved by exact_linear.hpp), an exact check
// of a floating-point expected-cost answer, and the exact optimum (`solve --exact`), which the
// floating-point path can fall back to on small models it could not certify.
//
// The exact model: costs and probabilities are the decimals the input wrote (exact_rational.hpp,
// from_double: literals of at most 15 significant digits), and the probabilities of each passive
// vertex are divided by their exact sum (so weights 1:2 become 1/3 and 2/3 exactly, and
// probabilities that a file wrote to 16 or 17 digits, like PRISM's 0.3333333333333333, sum to 1).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/exact_rational.hpp"

namespace playtest::exact {

// Per edge: the cost, and the probability (0 out of active vertices; normalized per passive vertex).
struct ExactNumbers {
  std::vector<Rational> prob, cost;
};
ExactNumbers exact_numbers(const TestGraph& g);

// The exact expected cost of following `strategy` (one edge per active non-goal vertex; none where
// the strategy has no edge, which is a dead end) until one of `goals`: per vertex, nullopt where a
// goal is not reached with probability 1 (infinite cost), 0 at goals. `cancelled` (may be empty)
// is asked now and then whether to give up (a time budget); then the result is empty.
std::vector<std::optional<Rational>> strategy_cost(const TestGraph& g, const ExactNumbers& x,
                                                   std::span<const VertexId> goals, std::span<const EdgeId> strategy,
                                                   const std::function<bool()>& cancelled = {});

// The exact probability of eventually reaching one of `goals` following `strategy`.
std::vector<Rational> strategy_reach_probability(const TestGraph& g, const ExactNumbers& x,
                                                 std::span<const VertexId> goals, std::span<const EdgeId> strategy,
                                                 const std::function<bool()>& cancelled = {});

// An exact check of a minimal-expected-cost answer (ExpectedCostResult's strategy and values).
struct ExpectedCostCheck {
  bool completed = false;  // false: cancelled
  // The strategy is optimal: it reaches a goal with probability 1 from every vertex where some
  // strategy does, and no edge improves on its exact values (the Bellman optimality condition,
  // checked exactly).
  bool optimal = false;
  VertexId improvable;                         // a vertex where an edge is strictly better, or where the strategy fails
  std::vector<std::optional<Rational>> value;  // the strategy's exact values (nullopt: infinite)
  // max over vertices with finite values of |values[v] - value[v]|, absolute and relative to
  // max(1, |value[v]|); +infinity where `values` is finite and the exact one is not (or vice versa).
  double max_abs_error = 0, max_rel_error = 0;
};
ExpectedCostCheck check_expected_cost(const TestGraph& g, std::span<const VertexId> goals,
                                      std::span<const EdgeId> strategy, std::span<const double> values,
                                      const std::function<bool()>& cancelled = {});

}  // namespace playtest::exact

namespace playtest::exact {

// The exact minimal expected cost to a goal and an optimal strategy (what `solve --exact` computes;
// the fallback of the floating-point path on small models): value nullopt where no strategy
// reaches a goal with probability 1. Throws UsageError("exact_seconds") when the budget (wall
// seconds) runs out first.
struct ExactOptimum {
  std::vector<std::optional<Rational>> value;
  std::vector<EdgeId> strategy;  // as ExpectedCostResult::strategy
  std::uint32_t improvements = 0, evaluations = 0;
};
ExactOptimum solve_expected_cost_exact(const TestGraph& g, std::span<const VertexId> goals, double seconds = 120);

}  // namespace playtest::exact
