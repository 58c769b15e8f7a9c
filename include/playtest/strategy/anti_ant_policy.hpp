// The anti-ant tester (seed 002 §2, §5.1, after Li and Lam): at an active vertex take the out-edge
// visited least often so far in this run, breaking ties at random. It remembers history but does not
// plan, the baseline the planners are measured against.
#pragma once

#include "playtest/strategy/policy.hpp"

namespace playtest {

class AntiAntPolicy final : public Policy {
 public:
  std::string_view name() const override { return "anti-ant"; }
  Decision choose(const RunView& view, Rng& rng) override;
};

}  // namespace playtest
