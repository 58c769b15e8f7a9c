// The test-purpose testers as rows of the strategy table (strategy/strategy_row.hpp): planner (the
// reactive planning tester over traps, seed 002) and pessimistic (the minimal-rank tester, seed
// 003, which also plays a model explored on the fly). Their traps are the purpose's edges (empty:
// every edge).
#pragma once

#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

const StrategyRow& planner_strategy();
const StrategyRow& pessimistic_strategy();

}  // namespace playtest
