// Strategies on the choice model (choice_model.hpp): a strategy is one choice per state (a passive
// state's only choice). Exact evaluation of a strategy's linear system, properness (does every
// state reach the goal slot with probability 1?), the greedy proper strategy for a value vector,
// and policy iteration with its properness repair: written once, for both builders.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solve/core/choice_model.hpp"
#include "solve/detail/backward_choose.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

// The model seen backwards (its reverse, reverse_model), for backward_choose.
BackwardView backward_view(const ChoiceModel& m, const ModelReverse& rev);

// Does every state reach the goal slot under `choice`? `reached` receives the states that do.
bool is_proper(const ChoiceModel& m, const ModelReverse& rev, std::span<const std::uint32_t> choice,
               std::vector<std::uint8_t>& reached);

// The attractor strategy: each active state's choice moves strictly closer to the goal slot in a
// backward search (proper on the almost-sure region). Passive states get their only choice.
void attractor_strategy(const ChoiceModel& m, const ModelReverse& rev, std::vector<std::uint32_t>& choice);

// A proper strategy made of choices within a relative tolerance of the best one at x (where the
// good choices do not reach the goal, any choice that does).
void extract_proper(Team& team, const ChoiceModel& m, const ModelReverse& rev, std::span<const double> x,
                    double rel_tol, std::vector<std::uint32_t>& choice);

// cost(c) + sum p x over c's entries (ModelCosts::expected)
inline double q_value(const ChoiceModel& m, std::uint32_t c, const double* x) {
  double s = m.cost[c];
  for (std::uint32_t k = m.first_entry[c]; k < m.first_entry[c + 1]; ++k) s += m.prob[k] * x[m.column[k]];
  return s;
}

// The strongly connected components of a strategy's chain in topological order (successors
// first), as member lists (ascending within a component).
struct PolicyBlocks {
  std::uint32_t count = 0;
  std::vector<std::uint32_t> comp, coff, members;
};
PolicyBlocks decompose_policy(const ChoiceModel& m, std::span<const std::uint32_t> choice);

// Solves x_i = rhs_i + sum_t p x_t under the strategy, block by block in topological order:
// single states directly, small blocks by sparse LU, large ones by a Gauss-Seidel-preconditioned
// BiCGSTAB started from x (sparse LU when that does not reach its tolerance). `unit` makes rhs the
// number of moves in the test graph (for the expected number of steps), else the choice's cost.
// Returns false, x unusable, when the system is singular in floating point (a strategy that does
// not reach the goal, or one so ill-conditioned that rounding makes it look so).
bool solve_policy(Team& team, const ChoiceModel& m, std::span<const std::uint32_t> choice, const PolicyBlocks& blocks,
                  bool unit, std::vector<double>& x);

// max_i |rhs_i + sum p x_t - x_i| under the strategy (rhs as in solve_policy).
double policy_residual(const ChoiceModel& m, std::span<const std::uint32_t> choice, bool unit,
                       std::span<const double> x);

enum class PolicyIterationEnd : std::uint8_t {
  stable,           // no choice improves on the strategy by more than the tolerance
  iteration_limit,  // max_rounds evaluations done
  numeric_failure,  // an evaluation failed (singular in floating point) or properness was lost
};

struct PolicyIterationStats {
  std::uint32_t evaluations = 0, improvements = 0;
};

// Policy iteration from a proper strategy: exact evaluation, then a switch wherever a choice is
// strictly better by more than improvement_tolerance * max(1, |x_i|). A strict switch never makes a
// proper strategy improper (a closed class avoiding the goal would need a negative average cost),
// so the strategy stays proper; switches that rounding makes improper are reverted (the repair).
// On numeric_failure, `choice` is the last strategy evaluated successfully and x its values (or
// x is empty when the first evaluation failed).
PolicyIterationEnd policy_iteration(Team& team, const ChoiceModel& m, const ModelReverse& rev, std::uint32_t max_rounds,
                                    double improvement_tolerance, std::vector<std::uint32_t>& choice,
                                    std::vector<double>& x, PolicyIterationStats& stats, PolicyBlocks& blocks);

}  // namespace playtest::detail
