#include "playtest/plan/plan_strategies.hpp"

#include <array>

#include "playtest/graph/test_graph.hpp"
#include "playtest/plan/pessimistic.hpp"
#include "playtest/plan/reactive_planner.hpp"

namespace playtest {

namespace {

constexpr std::array<StrategyOption, 1> planner_options{
    StrategyOption{.name = "planner-exact",
                   .help = "planner: the paper's exact gain at any size (no planning horizon; slow on large graphs, "
                           "docs/planning.md)"}};

PreparedStrategy prepare_planner(const StrategyContext& c) {
  const TestGraph& g = *c.graph.explored();
  PlannerOptions o;
  if (c.args.has("planner-exact")) o.horizon = o.tail_traps = 0;
  std::vector<EdgeId> traps = c.purpose.edges;
  PlannerPolicy check(g, o, traps);  // what the planner refuses, it refuses now rather than in a worker
  (void)check;
  return PreparedStrategy::play([&g, o, traps](const GameGraph&) -> std::unique_ptr<Policy> {
    return std::make_unique<PlannerPolicy>(g, o, traps);
  });
}

PreparedStrategy prepare_pessimistic(const StrategyContext& c) {
  std::vector<EdgeId> traps = c.purpose.edges;
  return PreparedStrategy::play([traps](const GameGraph& g) -> std::unique_ptr<Policy> {
    return std::make_unique<PessimisticPolicy>(g, PessimisticOptions{}, traps);
  });
}

}  // namespace

std::string_view PlannerPolicy::name() const { return planner_strategy().name; }

std::string_view PessimisticPolicy::name() const { return pessimistic_strategy().name; }

const StrategyRow& planner_strategy() {
  static const StrategyRow row{.name = "planner",
                               .summary = "reactive planning tester: the edge of greatest gain towards unvisited traps",
                               .source = "seed 002 (Algorithm 1, gain functions)",
                               .options = planner_options,
                               .replanning = Replanning::coverage,
                               .prepare = prepare_planner};
  return row;
}

const StrategyRow& pessimistic_strategy() {
  static const StrategyRow row{
      .name = "pessimistic",
      .summary = "minimal-rank tester: tests only while new coverage can be forced, whatever the system does",
      .source = "seed 003 (pessimistic testing)",
      .on_the_fly = true,
      .prepare = prepare_pessimistic};
  return row;
}

}  // namespace playtest
