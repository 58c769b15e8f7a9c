#include "playtest/catalog/strategy_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "playtest/adapt/adaptive_policy.hpp"
#include "playtest/base/did_you_mean.hpp"
#include "playtest/base/error.hpp"
#include "playtest/cover/cover_strategy.hpp"
#include "playtest/ioco/torx_policy.hpp"
#include "playtest/plan/plan_strategies.hpp"
#include "playtest/solve/solver_strategies.hpp"
#include "playtest/strategy/basic_strategies.hpp"

namespace playtest {

std::span<const StrategyRow* const> strategy_table() {
  static const std::array<const StrategyRow*, 9> rows{
      &random_strategy(), &anti_ant_strategy(), &reach_strategy(),       &win_strategy(),  &expected_strategy(),
      &cover_strategy(),  &planner_strategy(),  &pessimistic_strategy(), &torx_strategy(),
  };
  return rows;
}

std::string strategy_names_list() {
  std::string s;
  for (const StrategyRow* row : strategy_table()) s += (s.empty() ? "" : ", ") + std::string(row->name);
  return s;
}

std::string on_the_fly_strategies(std::string_view conjunction) {
  return on_the_fly_names(strategy_table(), conjunction);
}

const StrategyRow& strategy_named(std::string_view name) {
  std::vector<std::string> names;
  for (const StrategyRow* row : strategy_table()) {
    if (row->name == name) return *row;
    names.emplace_back(row->name);
  }
  throw UsageError("strategy", fmt::format("unknown strategy '{}'{}; known strategies: {}", name,
                                           did_you_mean(name, names), strategy_names_list()));
}

std::vector<StrategyOption> strategy_options() {
  std::vector<StrategyOption> out;
  for (const StrategyRow* row : strategy_table())
    for (const StrategyOption& o : row->options)
      if (std::none_of(out.begin(), out.end(), [&](const StrategyOption& x) { return x.name == o.name; }))
        out.push_back(o);
  return out;
}

PolicyMaker policy_maker(std::string_view name, const GameGraph& g, const TestPurpose& purpose,
                         const PrepareOptions& options) {
  const StrategyContext context{.graph = g,
                                .purpose = purpose,
                                .args = options.args,
                                .adapt = options.adapt,
                                .allow_uncertified = options.allow_uncertified};
  const StrategyRow& row = strategy_named(name);
  PreparedStrategy p = prepare_strategy(row, context, strategy_table());
  if (p.refusal) {
    Diagnostic d;
    d.message = p.refusal->message;
    d.notes = p.refusal->notes;
    throw UsageError(p.refusal->option, std::move(d));
  }
  // Adaptation (issue 22) wraps what the row prepared; on the fly there is no whole graph to plan on.
  if (options.adapt == Adaptation::on && row.replanning != Replanning::none && g.explored() != nullptr) {
    AdaptOptions ao = options.adaptation;
    ao.learning.withheld_confidence = row.adapt_suspicion;
    if (row.replanning == Replanning::reach)
      ao.reach_bound = static_cast<std::uint32_t>(options.args.integer("bound", 0, 0, UINT32_MAX - 1));
    return adaptive_maker(row.replanning, *g.explored(), purpose, std::move(p.maker), ao);
  }
  return std::move(p.maker);
}

std::unique_ptr<Policy> make_policy(std::string_view name, const GameGraph& g, const TestPurpose& purpose,
                                    const PrepareOptions& options) {
  return policy_maker(name, g, purpose, options)(g);
}

}  // namespace playtest
