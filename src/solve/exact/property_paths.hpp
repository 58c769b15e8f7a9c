// The property paths beyond reachability (issue 32, item 5), each reduced to the reachability
// solver (solve_property on a plain query) and step passes over the graph:
// - complement: G, weak until and release are 1 - P of an until, solved for the opposite optimum;
// - step_lower: F>=k, F[a,b], X, U[a,b]: the inner (b - a)-bounded (or unbounded) until, then a
//   backward passes that keep to the left side;
// - cumulative (C<=k) and instantaneous (I=k) rewards: k backward passes;
// - steady state (S [ s ] and R [ S ] on a DTMC): the bottom strongly connected components, their
//   stationary distributions, and the probabilities of reaching them.
// Double passes carry a proved rounding bound on top of the inner answer's; exact ones are exact.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "playtest/solve/exact/property.hpp"

namespace playtest::detail {

PropertyResult solve_complement(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);
PropertyResult solve_lower_bounded(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);
PropertyResult solve_step_reward(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);
PropertyResult solve_steady_state(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);

// Pmin of reaching the targets through allowed vertices, certified at any size by the solver
// core's expected cost (property.cpp).
PropertyResult pmin_by_expected_cost(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                     const std::vector<std::uint8_t>& is_allowed, const PropertyOptions& o);

// Pmax of the same, certified at any size: the maximal end components of the vertices that are
// neither targets nor lost are collapsed (each into one choice among its exits, or staying, which
// reaches nothing: de Alfaro's quotient, as interval iteration needs it, Haddad and Monmege
// 2018), after which every scheduler ends at a target or a lost vertex almost surely, so Pmax is
// 1 - Pmin of ending lost, which pmin_by_expected_cost certifies (end_components.cpp).
PropertyResult pmax_by_quotient(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                const std::vector<std::uint8_t>& is_allowed, const PropertyOptions& o);

// Certifies a double Rmax answer (value, infinite and strategy set) with proved per-vertex bounds
// (lower, upper, error_bound, certified) from a super-solution of Bellman's equations and a
// sub-solution of the strategy's, checked with outward rounding on the graph's numbers
// (rmax_certificate.cpp). False, leaving r as it was, when the checks fail.
// The first candidate widens the values by a multiple of the most expected moves to a target
// (`moves` when given, else Gauss-Seidel sweeps until `deadline`, at most 100000: callers on large
// graphs pass one); then by multiples of the values.
bool certify_rmax(const TestGraph& g, const std::vector<std::uint8_t>& is_target, PropertyResult& r,
                  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
                  const std::vector<double>* moves = nullptr);

// Rmax above the exact check's limit on the solver core: +infinity where some scheduler misses the
// targets with a positive probability (prob1A on the graph), elsewhere the core's policy iteration
// on the negated costs (every strategy reaches a target there), certified by certify_rmax.
PropertyResult rmax_by_policy_iteration(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                        const PropertyOptions& o);

// Rmax above the exact check's limit: +infinity where some scheduler misses the targets with a
// positive probability (prob1A on the graph), elsewhere Gauss-Seidel value iteration to a fixed
// point in double, certified by certify_rmax.
PropertyResult rmax_by_value_iteration(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                       const PropertyOptions& o);

// The maximal end components among the vertices with region[v] != 0: per vertex its component
// number or UINT32_MAX; returns their count. An end component is a strongly connected set that
// an active vertex can keep to by some of its edges and a passive vertex by all of its edges.
std::uint32_t maximal_end_components(const TestGraph& g, const std::vector<std::uint8_t>& region,
                                     std::vector<std::uint32_t>& mec);

// A proved bound on the rounding error, relative to the largest value, of one move of value
// iteration in double against the exact model: the worst passive vertex's |1 - sum of its
// probabilities| plus (3 d + 2) units of 2^-53 for its d products and sums.
double move_rounding(const TestGraph& g);

}  // namespace playtest::detail
