#include "playtest/solve/solver_strategies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"
#include "playtest/strategy/table_policy.hpp"

namespace playtest {

namespace {

constexpr std::array<StrategyOption, 1> reach_options{
    StrategyOption{.name = "bound",
                   .value = "N",
                   .help = "reach: the game's bound n (default: 2 * vertices + 2; a fresh game starts when it is "
                           "spent)",
                   .positive = true}};

PreparedStrategy prepare_reach(const StrategyContext& c) {
  const TestGraph& g = *c.graph.explored();
  const std::uint64_t fallback = 2 * std::uint64_t{g.num_vertices()} + 2;
  // The solver keeps (bound + 1) values per vertex when it keeps the whole table; refuse bounds whose
  // arrays could not be addressed before any work is done.
  const std::uint64_t bound = c.args.integer("bound", fallback, 1, UINT32_MAX - 1);
  auto result = std::make_shared<const BoundedReachResult>(solve_bounded_reachability(
      g, goals_of(g, c.purpose), BoundedReachOptions{.bound = static_cast<std::uint32_t>(bound)}));
  return PreparedStrategy::play([result, bound](const GameGraph&) -> std::unique_ptr<Policy> {
    return std::make_unique<BoundedPolicy>(
        std::string(reach_strategy().name),
        [result](VertexId v, std::uint32_t k) { return result->choice(v, std::min(k, result->bound())); },
        static_cast<std::uint32_t>(bound));
  });
}

PreparedStrategy prepare_win(const StrategyContext& c) {
  const TestGraph& g = *c.graph.explored();
  auto strategy = std::make_shared<const std::vector<EdgeId>>(solve_sure_winning(g, goals_of(g, c.purpose)).strategy);
  return PreparedStrategy::play([strategy](const GameGraph&) -> std::unique_ptr<Policy> {
    return std::make_unique<TablePolicy>(
        std::string(win_strategy().name), *strategy,
        "it is not a sure win (whatever the tester does there, the system can keep it from every goal)");
  });
}

PreparedStrategy prepare_expected(const StrategyContext& c) {
  const TestGraph& g = *c.graph.explored();
  ExpectedCostResult r = solve_expected_cost(g, goals_of(g, c.purpose));
  std::vector<std::string> notes;
  if (!r.certified) {
    if (!c.allow_uncertified)
      return PreparedStrategy::refuse("strategy",
                                      "the expected-cost strategy could not be certified optimal on this model" +
                                          (r.not_certified.empty() ? std::string() : " (" + r.not_certified + ")") +
                                          ", so playing it would not test what it claims",
                                      {"playtest solve --objective expected shows the values and their bounds",
                                       "--allow-uncertified plays it anyway"});
    notes.push_back("the expected-cost strategy is not certified optimal (played because of --allow-uncertified)");
  }
  auto strategy = std::make_shared<const std::vector<EdgeId>>(std::move(r.strategy));
  return PreparedStrategy::play(
      [strategy](const GameGraph&) -> std::unique_ptr<Policy> {
        return std::make_unique<TablePolicy>(std::string(expected_strategy().name), *strategy,
                                             "no strategy reaches a goal from there with probability 1");
      },
      std::move(notes));
}

}  // namespace

const StrategyRow& reach_strategy() {
  static const StrategyRow row{.name = "reach",
                               .summary = "maximal probability of reaching a goal within n moves",
                               .source = "seed 000 §3 (bounded reachability games)",
                               .needs_goals = true,
                               .default_purpose = TestPurpose::Kind::reach,
                               .options = reach_options,
                               .replanning = Replanning::reach,
                               .prepare = prepare_reach};
  return row;
}

const StrategyRow& win_strategy() {
  static const StrategyRow row{.name = "win",
                               .summary = "sure winning at minimal worst-case cost",
                               .source = "seed 000 §4",
                               .needs_goals = true,
                               .default_purpose = TestPurpose::Kind::reach,
                               .prepare = prepare_win};
  return row;
}

const StrategyRow& expected_strategy() {
  static const StrategyRow row{.name = "expected",
                               .summary = "minimal expected cost to a goal (certified, or refused)",
                               .source = "seed 001 §2 (expected-cost games)",
                               .needs_goals = true,
                               .default_purpose = TestPurpose::Kind::reach,
                               .replanning = Replanning::expected,
                               .prepare = prepare_expected};
  return row;
}

}  // namespace playtest
