#include "playtest/run/policy_factory.hpp"

#include <fmt/format.h>

#include "playtest/cover/cover_policy.hpp"
#include "playtest/error.hpp"
#include "playtest/plan/pessimistic.hpp"
#include "playtest/plan/reactive_planner.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"
#include "playtest/strategy/anti_ant_policy.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "playtest/strategy/table_policy.hpp"

namespace playtest {

std::unique_ptr<Policy> make_policy(StrategyKind kind, const TestGraph& g, const PolicySetup& setup) {
  const std::string_view name = to_string(kind);
  std::vector<VertexId> goals = setup.goals.empty() ? g.goals() : setup.goals;
  if (needs_goals(kind) && goals.empty())
    throw UsageError("goals", fmt::format("strategy '{}' needs goal vertices, and the graph has none", name));
  switch (kind) {
    case StrategyKind::random:
      return std::make_unique<RandomWalkPolicy>();
    case StrategyKind::anti_ant:
      return std::make_unique<AntiAntPolicy>();
    case StrategyKind::reach: {
      std::uint32_t bound = setup.bound ? setup.bound : 2 * g.num_vertices() + 2;
      auto result = std::make_shared<BoundedReachResult>(
          solve_bounded_reachability(g, goals, BoundedReachOptions{.bound = bound}));
      return std::make_unique<BoundedPolicy>(
          "reach", [result](VertexId v, std::uint32_t k) { return result->choice(v, std::min(k, result->bound())); },
          bound);
    }
    case StrategyKind::win: {
      SureWinResult r = solve_sure_winning(g, goals);
      return std::make_unique<TablePolicy>(
          "win", std::move(r.strategy),
          "it is not a sure win (whatever the tester does there, the system can keep it from every goal)");
    }
    case StrategyKind::expected: {
      ExpectedCostResult r = solve_expected_cost(g, goals);
      return std::make_unique<TablePolicy>("expected", std::move(r.strategy),
                                           "no strategy reaches a goal from there with probability 1");
    }
    case StrategyKind::cover:
      return std::make_unique<CoverPolicy>(g);
    // Test-purpose testers (seed 002, seed 003): the traps are the purpose's edges (empty: all).
    case StrategyKind::planner:
      return std::make_unique<PlannerPolicy>(g, setup.planner, setup.edges);
    case StrategyKind::pessimistic:
      return std::make_unique<PessimisticPolicy>(g, PessimisticOptions{}, setup.edges);
    // TorX with explicit probabilities (seed 004 §3): its "observe" choice needs an ioco graph.
    case StrategyKind::torx:
      return std::make_unique<ioco::TorxPolicy>(setup.torx);
  }
  throw InternalError("make_policy: unknown strategy kind");
}

std::unique_ptr<Policy> make_policy(std::string_view name, const TestGraph& g, const PolicySetup& setup) {
  return make_policy(parse_strategy_kind(name), g, setup);
}

std::function<std::unique_ptr<Policy>()> policy_maker(StrategyKind kind, const TestGraph& g, const PolicySetup& setup) {
  std::vector<VertexId> goals = setup.goals.empty() ? g.goals() : setup.goals;
  if (needs_goals(kind) && goals.empty())
    throw UsageError("goals",
                     fmt::format("strategy '{}' needs goal vertices, and the graph has none", to_string(kind)));
  switch (kind) {
    case StrategyKind::reach: {
      const std::uint32_t bound = setup.bound ? setup.bound : 2 * g.num_vertices() + 2;
      auto result = std::make_shared<const BoundedReachResult>(
          solve_bounded_reachability(g, goals, BoundedReachOptions{.bound = bound}));
      return [result, bound]() -> std::unique_ptr<Policy> {
        return std::make_unique<BoundedPolicy>(
            "reach", [result](VertexId v, std::uint32_t k) { return result->choice(v, std::min(k, result->bound())); },
            bound);
      };
    }
    case StrategyKind::win:
    case StrategyKind::expected: {
      auto strategy = std::make_shared<const std::vector<EdgeId>>(
          kind == StrategyKind::win ? solve_sure_winning(g, goals).strategy : solve_expected_cost(g, goals).strategy);
      const std::string name(to_string(kind));
      return [strategy, name]() -> std::unique_ptr<Policy> { return std::make_unique<TablePolicy>(name, *strategy); };
    }
    case StrategyKind::cover: {
      auto tour = std::make_shared<const PostmanTour>(postman_tour(g, CoverOptions{}.tour));
      return [&g, tour]() -> std::unique_ptr<Policy> { return std::make_unique<CoverPolicy>(g, *tour); };
    }
    default:
      make_policy(kind, g, setup);  // the errors come now, not in a worker
      return [kind, &g, setup]() { return make_policy(kind, g, setup); };
  }
}

}  // namespace playtest
