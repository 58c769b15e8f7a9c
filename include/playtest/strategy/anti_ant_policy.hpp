// The anti-ant tester (seed 002 §2, §5.1, after Li and Lam): at an active vertex take the out-edge
// visited least often so far in this run, breaking ties at random. It remembers history but does not
// plan, the baseline the planners are measured against. One template for every graph a run plays
// on (a TestGraph, a model explored on the fly).
#pragma once

#include <cstdint>
#include <limits>

#include "playtest/strategy/policy.hpp"

namespace playtest {

class AntiAntPolicy final : public Policy {
 public:
  std::string_view name() const override;  // its row's (strategy_row.hpp)
  Decision choose(const RunView& view, Rng& rng) override {
    auto out = view.graph.out_edges(view.current);
    if (out.empty()) return view.graph.is_resettable() ? Decision::reset() : Decision::stop();
    std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t ties = 0;
    EdgeId pick;
    // Reservoir sampling among the least visited edges: one pass, uniform tie-break.
    for (EdgeId e : out) {
      const std::uint32_t n = view.edge_visits[e.index()];
      if (n < best) {
        best = n;
        ties = 1;
        pick = e;
      } else if (n == best && rng.below(++ties) == 0) {
        pick = e;
      }
    }
    return Decision::take(pick);
  }
};

}  // namespace playtest
