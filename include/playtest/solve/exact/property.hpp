// The property kinds PRISM and Storm check on MDPs and DTMCs, as `solve` objectives for
// cross-checking and for asking "how bad can the system make it" (issue 23, item 3):
// Pmax / Pmin (and a DTMC's P) of reaching a target, unbounded, within a number of moves, or within
// a reward budget, optionally until (only through "allowed" vertices: PRISM's `a U b`); Rmin / Rmax
// (and a DTMC's R) of the expected total cost (the reward) until a target is reached.
//
// On a test graph the tester's active vertices are the nondeterministic choices (the scheduler's:
// max or min) and passive vertices are random (a DTMC export has only passive vertices). Semantics
// follow PRISM and Storm:
// - P: the probability, under the best (max) or worst (min) scheduler, of reaching a target along
//   allowed vertices; vertices that are neither allowed nor targets, and dead ends, count as lost.
// - R: the expected cost until a target; +infinity for a scheduler that misses the targets with a
//   positive probability. So Rmin is infinite where no scheduler reaches a target almost surely,
//   Rmax where some scheduler misses with positive probability.
//
// Algorithms (exact in rational arithmetic with PropertyOptions::exact, else in double):
// qualitative graph precomputations (solve/core's prob0 / prob1 for the best or worst scheduler,
// at every reward level; breadth-first searches for step bounds): the vertices with probability
// exactly 0 or 1 (PropertyResult::probability_class) and where a reward is infinite,
// then policy iteration from a strategy that reaches the absorbing vertices almost surely, switching
// only on strict improvement (which keeps it doing so, and its fixed point is optimal), each strategy
// evaluated by solving its linear system: exact rational Gaussian elimination (exact_linear.hpp) or
// Eigen's sparse LU. Step-bounded: value iteration over the bound; in double, Pmax of F<=k is the
// solver core's bounded-reachability sweep (solve_bounded_reachability: its threads and, on a
// PRISM-shaped MDP, one pass per MDP step), the graph deciding the 0 / 1 classes it leaves open.
// Reward-bounded: one unbounded problem per budget level 0..B (integer costs), zero-cost edges
// staying on the level.
//
// Certification of a double answer: the final strategy is solved again in rational arithmetic
// (policy iteration warm-started from it, usually one evaluation and one improvement check) when
// the graph has at most exact_check_vertices vertices and the budget allows; the answer is then
// exact and certified. Step-bounded double answers are certified with a proved rounding bound.
// Rmin on larger graphs is the solver core's expected cost (solve_expected_cost: folded model,
// threads, and its certificate of proved per-vertex bounds L <= value <= U, checked on the graph's
// own numbers with outward rounding). Otherwise the answer is not certified.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/exact_rational.hpp"

namespace playtest {

// probability: P of a path; reward: R, the expected reward of RewardMeasure; steady_state: S, the
// long-run probability of being at a target (a DTMC: every vertex passive or a dead end).
enum class PropertyKind : std::uint8_t { probability, reward, steady_state };
// R: the reward until a target (R [ F s ]); accumulated within step_bound moves (C<=k); of the
// state reached after exactly step_bound moves (I=k: PropertyQuery::state_reward); the long-run
// average per move (R [ S ], a DTMC).
enum class RewardMeasure : std::uint8_t { reach, cumulative, instantaneous, long_run };
enum class PropertyDirection : std::uint8_t { max, min };

struct PropertyQuery {
  PropertyKind kind = PropertyKind::probability;
  PropertyDirection direction = PropertyDirection::max;
  std::vector<VertexId> targets;  // at least one (an empty set is allowed: every value is 0 / inf)
  // Until: the vertices a path may pass through before a target (PRISM's left side of U);
  // nullopt: every vertex (F).
  std::optional<std::vector<VertexId>> allowed;
  // P only: a target must be reached within this many moves (a PRISM MDP step is two moves of
  // the imported test graph, a DTMC step one).
  std::optional<std::uint64_t> step_bound;
  // P only: ... with at most this much cost (reward) accumulated before the target. Needs
  // integer edge costs.
  std::optional<std::uint64_t> reward_bound;
  // P only: the target counts from this many moves on (F>=k, F[a,b], X): the path stays in
  // `allowed` for the first step_lower moves and then satisfies the (step_bound - step_lower)-bounded
  // until. A dead end keeps its vertex (PRISM's self-loop on deadlocks).
  std::optional<std::uint64_t> step_lower;
  // P only: the probability of the path's negation (G s = !F !s; a W b = !((!b) U (!a & !b));
  // a R b = !((!a) U (!b))): 1 minus the inner value; `direction` is that of the answer (the inner
  // path is solved for the opposite one).
  bool complement = false;
  RewardMeasure measure = RewardMeasure::reach;
  // Per vertex, the reward of being there for one step (a PRISM export's state rewards; empty:
  // none). I=k reads only these; C<=k and R [ S ] add them at dead ends (PRISM's self-loops), whose
  // edges are absent.
  std::vector<double> state_reward;
};

struct PropertyOptions {
  bool exact = false;  // rational arithmetic throughout (and exact values in the result)
  // double: the size up to which the final strategy is checked in rational arithmetic.
  std::uint32_t exact_check_vertices = 20000;
  // Wall-clock budget in seconds for the exact solve (exact = true); when it runs out,
  // solve_property throws UsageError("exact_seconds").
  double exact_seconds = 120;
  // ... and for the exact check of a double answer; when it runs out the answer is not certified.
  double check_seconds = 10;
  double improvement_tolerance = 1e-12;   // double policy iteration: relative strict-improvement margin
  std::uint32_t max_iterations = 100000;  // policy-iteration rounds
  // Threads for the solver core (Rmin above exact_check_vertices); 0: the machine's, at most 8.
  unsigned threads = 0;
};

// Where a probability is exactly 0 or exactly 1, decided on the graph alone (prob0 / prob1 for
// the best or worst scheduler, as PRISM and Storm precompute them), or strictly between.
enum class ProbabilityClass : std::uint8_t { between, zero, one };

struct PropertyResult {
  // Per vertex: the probability, or the expected cost (+infinity where infinite).
  std::vector<double> value;
  // P: per vertex, whether the value is exactly 0, exactly 1 (value then holds exactly that number)
  // or strictly between; decided by graph algorithms, so always right. Empty for R.
  std::vector<ProbabilityClass> probability_class;
  std::uint32_t num_zero = 0, num_one = 0;  // P: vertices with probability exactly 0 / 1
  // Per vertex: 1 where the value is infinite (R only). A finite exact value too large for a double
  // has value +infinity but infinite 0.
  std::vector<std::uint8_t> infinite;
  // Per vertex, when has_exact: the exact value (0 where infinite).
  bool has_exact = false;
  std::vector<exact::Rational> exact;
  // Per vertex: an optimal choice (unbounded: a memoryless optimal strategy; bounded: the choice
  // with the whole bound left); none at passive vertices, targets, lost and infinite vertices.
  std::vector<EdgeId> strategy;
  bool certified = false;
  std::string not_certified;  // why, when not
  // A proved bound on |value - exact value| (0 when has_exact); -1 when not certified.
  double error_bound = -1;
  // Per vertex, when proved (else empty): lower[v] <= exact value <= upper[v] (+infinity where
  // infinite).
  std::vector<double> lower, upper;
  std::uint32_t improvements = 0;  // policy-iteration rounds that changed the strategy
  std::uint32_t evaluations = 0;   // strategies solved
  std::uint32_t num_infinite = 0;  // R: vertices with an infinite value
  std::uint32_t levels = 0;        // reward-bounded: budget levels solved
  std::uint64_t max_bits = 0;      // exact: the largest numerator or denominator met, in bits
};

// Throws UsageError for vertex ids out of range, a bound on an R query, a reward bound with
// non-integer costs, and an exact solve that runs out of its budget.
PropertyResult solve_property(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o = {});

}  // namespace playtest
