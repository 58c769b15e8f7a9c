// The optimality certificate of an uncapacitated min-cost flow, checked as LEMON's own tests check
// theirs (complementary slackness): with LEMON's reduced cost c(u,v) + p(u) - p(v), every arc has
// reduced cost >= 0, and every arc with flow > 0 has reduced cost 0. Then for any feasible flow f',
// cost(f') = sum f' * reduced + sum p * (in - out) >= sum p * (in - out) = cost(f): f is optimal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cover/detail/min_cost_flow.hpp"

namespace playtest::cover_test {

// "" when `potential` certifies `flow` (which must be feasible; checked elsewhere), else the first
// violation.
inline std::string certificate_violation(const detail::FlowNetwork& net, const std::vector<std::int64_t>& flow,
                                         const std::vector<std::int64_t>& potential) {
  if (potential.size() != net.num_nodes) return "one potential per node expected";
  if (flow.size() != net.source.size()) return "one flow value per arc expected";
  for (std::size_t a = 0; a < flow.size(); ++a) {
    std::int64_t diff = 0, red = 0;
    if (__builtin_sub_overflow(potential[net.source[a]], potential[net.target[a]], &diff) ||
        __builtin_add_overflow(net.cost[a], diff, &red))
      return "arc " + std::to_string(a) + ": the reduced cost overflows";
    if (red < 0) return "arc " + std::to_string(a) + ": reduced cost " + std::to_string(red) + " < 0";
    if (flow[a] > 0 && red != 0)
      return "arc " + std::to_string(a) + ": flow " + std::to_string(flow[a]) + " at reduced cost " + std::to_string(red);
  }
  return "";
}

}  // namespace playtest::cover_test
