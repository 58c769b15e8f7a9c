// The random walk tester: at an active vertex, take an out-edge chosen uniformly at random.
// The "random choice" baseline of seed 002 §5.1 (Table 4). It plays any graph a run plays on
// (a TestGraph, a model explored on the fly): it needs only out_edges and is_resettable.
#pragma once

#include "playtest/strategy/policy.hpp"

namespace playtest {

class RandomWalkPolicy final : public Policy {
 public:
  std::string_view name() const override { return "random"; }
  Decision choose(const RunView& view, Rng& rng) override {
    auto out = view.graph.out_edges(view.current);
    if (out.empty()) return view.graph.is_resettable() ? Decision::reset() : Decision::stop();
    return Decision::take(out[rng.below(out.size())]);
  }
};

}  // namespace playtest
