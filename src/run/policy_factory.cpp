#include "playtest/run/policy_factory.hpp"

#include <fmt/format.h>

#include <array>

#include "playtest/error.hpp"
#include "playtest/run/anti_ant_policy.hpp"
#include "playtest/run/random_walk_policy.hpp"
#include "playtest/run/table_policy.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/plan/pessimistic.hpp"
#include "playtest/plan/reactive_planner.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"

namespace playtest {

namespace {
constexpr std::array<std::string_view, 9> names = {"random", "anti-ant", "reach",       "win", "expected",
                                                   "cover",  "planner",  "pessimistic", "torx"};
}

std::span<const std::string_view> policy_names() { return names; }

std::unique_ptr<Policy> make_policy(std::string_view name, const TestGraph& g, const PolicySetup& setup) {
  if (name == "random") return std::make_unique<RandomWalkPolicy>();
  if (name == "anti-ant") return std::make_unique<AntiAntPolicy>();
  std::vector<VertexId> goals = setup.goals.empty() ? g.goals() : setup.goals;
  auto need_goals = [&] {
    if (goals.empty())
      throw Error(Diagnostic{{}, fmt::format("strategy '{}' needs goal vertices, and the graph has none", name),
                             {"mark vertices with \"goal\": true or name them with --goal"}});
  };
  if (name == "reach") {
    need_goals();
    std::uint32_t bound = setup.bound ? setup.bound : 2 * g.num_vertices() + 2;
    auto result = std::make_shared<BoundedReachResult>(
        solve_bounded_reachability(g, goals, BoundedReachOptions{.bound = bound}));
    return std::make_unique<BoundedPolicy>(
        "reach", [result](VertexId v, std::uint32_t k) { return result->choice(v, std::min(k, result->bound())); },
        bound);
  }
  if (name == "win") {
    need_goals();
    SureWinResult r = solve_sure_winning(g, goals);
    return std::make_unique<TablePolicy>("win", std::move(r.strategy));
  }
  if (name == "expected") {
    need_goals();
    ExpectedCostResult r = solve_expected_cost(g, goals);
    return std::make_unique<TablePolicy>("expected", std::move(r.strategy));
  }
  if (name == "cover") return std::make_unique<CoverPolicy>(g);
  // Test-purpose testers (seed 002, seed 003): the traps are the purpose's edges (empty: all).
  if (name == "planner") return std::make_unique<PlannerPolicy>(g, setup.planner, setup.edges);
  if (name == "pessimistic") return std::make_unique<PessimisticPolicy>(g, PessimisticOptions{}, setup.edges);
  // TorX with explicit probabilities (seed 004 §3): its "observe" choice needs an ioco graph.
  if (name == "torx") return std::make_unique<ioco::TorxPolicy>(setup.torx);
  std::string known;
  for (std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
  throw Error(Diagnostic{{}, fmt::format("unknown strategy '{}'", name), {"known strategies: " + known}});
}

}  // namespace playtest
