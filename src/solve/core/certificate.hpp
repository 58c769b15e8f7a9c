// Sound certificates for expected cost (issue 23): a proved interval [L, U] around every value,
// checked on the test graph's own numbers with outward rounding, independently of the model and
// of the method that produced the values.
//
// With M* the least expected cost over the strategies that reach a goal with probability 1 and
// M_s the expected cost of the returned strategy s (all costs >= 0):
// - U >= 0 with c(s(u)) + U(target) <= U(u) at active u and sum p (c + U) <= U(u) at passive u (a
//   super-solution of s's equations, right-hand sides rounded up) gives M_s <= U: U >= T_s^k U >=
//   T_s^k 0, whose limit is M_s. If s is proper (a graph search), M* <= M_s <= U.
// - L >= 0 with L(u) <= min over u's edges in the region of c + L(target) at active u and
//   L(u) <= sum p (c + L) at passive u (a sub-solution of Bellman's equations, right-hand sides
//   rounded down) gives L <= M*: L <= T L <= T_o L <= T_o^k L for an optimal proper o, whose limit
//   is M* (o's chain leaves the region's non-goal vertices with probability 1).
// The candidates are the values scaled outwards (U = v (1 + s) + s, L = v (1 - s) - s, clipped at 0)
// and then repaired a bounded number of rounds (U <- max(U, T_s U), L <- min(L, T L), each a
// monotone step that keeps what it proves); a value is certified when both checks pass and
// max(U - v, v - L) <= tolerance * max(1, v) everywhere. Rounding up and down is done by stepping
// to the next double after each operation rounded to nearest (exact for non-negative operands).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest::detail {

struct ExpectedCertificate {
  bool proper = false;  // the strategy reaches a goal with probability 1 from every region vertex
  bool upper = false;   // U was proved
  bool lower = false;   // L was proved
  bool certified = false;
  double error_bound = -1;    // max over the region of max(U - v, v - L) / max(1, v); -1 when not proved
  std::vector<double> value;  // the values clamped into [L, U] where proved (else as given, never < 0)
  std::vector<double> lower_bound, upper_bound;  // per vertex (empty when not proved)
  std::string why;                               // when not certified
};

// `in_region[v]`: v can reach a goal with probability 1 (the almost-sure region, goals included);
// `order`: the region's non-goal vertices, closest to a goal first; `value` and `strategy` as in
// ExpectedCostResult. `residual_hint`, an estimate of the values' largest absolute residual, only
// sizes the first widening (the proof does not rest on it). `max_rounds` bounds the repair: at
// most that many updates per vertex on average.
ExpectedCertificate certify_expected_cost(const TestGraph& g, std::span<const std::uint8_t> is_goal,
                                          std::span<const std::uint8_t> in_region, std::span<const VertexId> order,
                                          std::span<const double> value, std::span<const EdgeId> strategy,
                                          double tolerance, double residual_hint, std::uint32_t max_rounds = 64);

}  // namespace playtest::detail
