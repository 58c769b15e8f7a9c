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

#include "playtest/solve/property.hpp"

namespace playtest::detail {

PropertyResult solve_complement(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);
PropertyResult solve_lower_bounded(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);
PropertyResult solve_step_reward(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);
PropertyResult solve_steady_state(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o);

// A proved bound on the rounding error, relative to the largest value, of one move of value
// iteration in double against the exact model: the worst passive vertex's |1 - sum of its
// probabilities| plus (3 d + 2) units of 2^-53 for its d products and sums.
double move_rounding(const TestGraph& g);

}  // namespace playtest::detail
