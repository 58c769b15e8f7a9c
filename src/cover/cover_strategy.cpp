#include "playtest/cover/cover_strategy.hpp"

#include "playtest/cover/cover_policy.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

namespace {

PreparedStrategy prepare_cover(const StrategyContext& c) {
  const TestGraph& g = *c.graph.explored();
  auto tour = std::make_shared<const PostmanTour>(postman_tour(g, CoverOptions{}.tour));
  return PreparedStrategy::play(
      [&g, tour](const GameGraph&) -> std::unique_ptr<Policy> { return std::make_unique<CoverPolicy>(g, *tour); });
}

}  // namespace

const StrategyRow& cover_strategy() {
  static const StrategyRow row{.name = "cover",
                               .summary = "edge coverage along a Chinese Postman tour cut at choice points",
                               .source = "seed 000 §5 (procedure Cover)",
                               .replanning = Replanning::coverage,
                               .adapt_suspicion = 0.5,
                               .prepare = prepare_cover};
  return row;
}

}  // namespace playtest
