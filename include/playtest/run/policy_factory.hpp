// Policies by name, as the CLI and the simulator choose them: random, anti-ant, reach (bounded
// reachability, seed 000 §3), win (sure winning, seed 000 §4), expected (expected cost, seed 001 §2),
// cover (edge coverage, seed 000 §5), planner (seed 002), pessimistic (seed 003), torx (seed 004
// §3). The solver strategies are computed once here, then replayed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/ioco/torx_policy.hpp"
#include "playtest/plan/reactive_planner.hpp"
#include "playtest/strategy/policy.hpp"
#include "playtest/strategy/strategy_kind.hpp"

namespace playtest {

struct PolicySetup {
  std::vector<VertexId> goals;  // reach/win/expected: the goals (empty: the graph's goals)
  std::vector<EdgeId> edges;    // cover: the edges to cover (empty: all)
  std::uint32_t bound = 0;      // reach: the game's bound n (0: 2 * vertices + 2); keep it modest:
                                // far beyond the goal distance Pr(v, k) rounds to 1 and ties lose direction
  ioco::TorxOptions torx;       // torx: p1, p2, p3 and the length bound (seed 004 §3)
  PlannerOptions planner;       // planner: gain evaluation (exact trees, or horizon-cut online search)
};

// The policy of strategy `kind`; the solver strategies (reach, win, expected) are computed here.
// Throws UsageError("goals") when the strategy needs goals and neither `setup` nor the graph has
// any. The policy keeps a reference to `g`.
std::unique_ptr<Policy> make_policy(StrategyKind kind, const TestGraph& g, const PolicySetup& setup = {});

// As above, for a strategy name (parse_strategy_kind: UsageError("strategy") for an unknown one).
std::unique_ptr<Policy> make_policy(std::string_view name, const TestGraph& g, const PolicySetup& setup = {});

// Makes independent policies of strategy `kind`, one per worker of a campaign or thread of a
// simulation (a policy keeps per-run state, so workers cannot share one). What is expensive is done
// once, here, and shared read-only by every policy made: the solver strategies' solutions, the cover
// strategy's postman tour. Throws what make_policy throws, at once.
std::function<std::unique_ptr<Policy>()> policy_maker(StrategyKind kind, const TestGraph& g,
                                                      const PolicySetup& setup = {});

}  // namespace playtest
