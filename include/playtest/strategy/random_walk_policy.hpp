// The random walk tester: at an active vertex, take an out-edge chosen uniformly at random.
// The "random choice" baseline of seed 002 §5.1 (Table 4).
#pragma once

#include "playtest/strategy/policy.hpp"

namespace playtest {

class RandomWalkPolicy final : public Policy {
 public:
  std::string_view name() const override { return "random"; }
  Decision choose(const RunView& view, Rng& rng) override;
};

}  // namespace playtest
