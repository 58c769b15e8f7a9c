// Expected-cost reachability games (seed 001 "Play to Test", §2 and §3): the tester strategy that
// minimizes the expected total cost of reaching a goal vertex, by value iteration (§3), policy
// iteration with exact policy evaluation, linear programming (§2.2), or the certified default
// (value iteration to get close, then policy iteration until no strict improvement is left).
//
// The paper assumes a transient graph (the goal reachable from every vertex) and positive costs.
// Here neither is assumed. Vertices from which no strategy reaches a goal with probability 1 (the
// paper's pruning removes them; they are exactly the vertices outside the "almost-sure reachability
// region", computed first by graph algorithms) get value +infinity. Inside the region the graph is
// transient in the paper's sense, and the value of a vertex is the least expected cost over the
// strategies that reach a goal with probability 1 ("proper" strategies). With zero-cost edges a
// strategy may loop forever at cost 0; such a strategy is never returned.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/choice_folding.hpp"

namespace playtest {

enum class ExpectedCostMethod {
  certified,           // value iteration, then policy iteration to a certified optimum (default)
  value_iteration,     // §3 only: stops when the largest relative change is <= epsilon
  policy_iteration,    // from the attractor strategy, exact policy evaluation each round
  linear_programming,  // §2.2 with COIN-OR Clp
};

// How value iteration updates: Jacobi computes M^{n+1} from M^n as in §3 equation (10) (the
// iterates the paper lists); Gauss-Seidel uses new values as soon as they exist (faster).
enum class ValueIterationUpdate { jacobi, gauss_seidel };

struct ExpectedCostOptions {
  ExpectedCostMethod method = ExpectedCostMethod::certified;
  // Value iteration stops when max_v |M^{n+1}[v] - M^n[v]| <= epsilon * max(1, |M^{n+1}[v]|).
  double epsilon = 1e-9;
  std::uint32_t max_iterations = 1000000;
  ValueIterationUpdate update = ValueIterationUpdate::gauss_seidel;
  // Iterate tracing (value iteration, including the value-iteration phase of `certified`):
  // result.trace[n-1][i] = M^n[trace_vertices[i]] for n = 1, 2, ... (M^0 = 0), at most
  // max_trace iterations recorded. Values of vertices outside the region are +infinity.
  std::vector<VertexId> trace_vertices;
  std::uint32_t max_trace = 1000;
  // Called after every value-iteration sweep with n and the whole vector M^n; may be empty.
  std::function<void(std::uint32_t n, std::span<const double> values)> on_iteration;
  // Called after every value-iteration sweep with n only (for a progress line; unlike on_iteration
  // it copies nothing and keeps the folded solver); may be empty.
  std::function<void(std::uint32_t n)> on_sweep;
  // Relative tolerance under which a strategy change does not count as an improvement
  // (policy iteration switches only on strict improvement, so that it stays proper).
  double improvement_tolerance = 1e-12;
  // certified, policy_iteration: a value is certified only when it is proved within this relative
  // distance of the optimum (ExpectedCostResult::certified).
  double certificate_tolerance = 1e-6;
  // certified: the value-iteration phase stops at this relative change or after this many sweeps,
  // whichever comes first; policy iteration does the rest.
  double certified_vi_epsilon = 1e-6;
  std::uint32_t certified_vi_sweeps = 200;
  // Which builder of the solver core's choice model to use: the folded one folds each passive
  // vertex whose only predecessor (in the region) is an active vertex into that vertex's edge and
  // solves the MDP on the remaining vertices (for a model imported from PRISM: its states); every
  // method runs on either. The answer is the same to the certified error bound; the counts of
  // sweeps and evaluations may differ. automatic: folded for the certified method when the region
  // has at least 65536 vertices; never when iterates are traced or observed.
  ChoiceFolding fold_choices = ChoiceFolding::automatic;
  // certified on the folded MDP: threads for the sweeps and the linear solves; 0: the machine's
  // hardware threads (at most 8; a sweep uses at most 2). The result is the same for every count.
  unsigned threads = 0;
};

struct ExpectedCostResult {
  // Per vertex; +infinity where no strategy reaches a goal with probability 1; 0 at goals.
  std::vector<double> value;
  // Per vertex; EdgeId::none() for goals, passive vertices, infinite vertices.
  std::vector<EdgeId> strategy;
  // True only with a proof (methods certified and policy_iteration; solve/core/certificate.hpp): the
  // strategy reaches a goal with probability 1 from every finite vertex (a graph search), and
  // vectors L <= U were checked, on the graph's own numbers with outward rounding, to be a sub-
  // solution of Bellman's equations and a super-solution of the strategy's, so that
  // L <= optimum <= the strategy's expected cost <= U, with max(U - value, value - L) <=
  // certificate_tolerance * max(1, value) at every finite vertex. The check is independent of the
  // model and method that computed the values. Otherwise `value` is the best estimate (clamped into
  // whatever bounds were proved, never negative) and not_certified says why.
  bool certified = false;
  std::string not_certified;
  std::uint32_t iterations = 0;    // value-iteration sweeps
  std::uint32_t improvements = 0;  // policy-iteration rounds that changed the strategy
  std::uint32_t evaluations = 0;   // exact policy evaluations
  // max over finite non-goal vertices of |value[v] - min over v's moves of (cost + value)|
  // (the Bellman residual of the returned values).
  double residual = 0;
  // Methods certified and policy_iteration: the proved bound max(U - value, value - L) relative to
  // max(1, value), over the finite vertices (it bounds the distance of `value` from the optimum and
  // from the returned strategy's true expected cost). -1 when no two-sided bound was proved.
  double error_bound = -1;
  // The proved bounds per vertex (+infinity outside the region); empty when not proved.
  std::vector<double> lower_bound, upper_bound;
  std::uint32_t num_infinite = 0;  // vertices with value +infinity
  std::uint32_t num_region = 0;    // vertices with a finite value (goals included)
  // Zero-cost end components (sets where the tester can stay forever at no cost) that value
  // iteration had to collapse to converge to the right fixed point.
  std::uint32_t num_zero_cost_components = 0;
  std::vector<std::vector<double>> trace;  // see ExpectedCostOptions::trace_vertices
};

// Throws UsageError when a goal id is out of range.
ExpectedCostResult solve_expected_cost(const TestGraph& g, std::span<const VertexId> goals,
                                       const ExpectedCostOptions& options = {});

// The almost-sure reachability region: winning[v] = 1 iff some strategy reaches one of `goals`
// with probability 1 from v (the greatest fixpoint "prob1E"). When `strategy` is given it receives,
// for every active non-goal vertex in the region, an edge of a strategy that does so (the
// attractor strategy: each choice moves strictly closer to a goal in the backward search).
std::vector<std::uint8_t> almost_sure_region(const TestGraph& g, std::span<const VertexId> goals,
                                             std::vector<EdgeId>* strategy = nullptr);

// The exact expected cost of following `strategy` (one edge per active non-goal vertex, as in
// ExpectedCostResult::strategy) until a goal is reached; +infinity where a goal is not reached
// with probability 1. Solves the strategy's linear system; meant for checking results.
std::vector<double> evaluate_strategy(const TestGraph& g, std::span<const VertexId> goals,
                                      std::span<const EdgeId> strategy);

}  // namespace playtest
