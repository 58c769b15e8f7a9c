// The strategies that need no solver, as rows of the strategy table (strategy/strategy_row.hpp):
// random (the uniform random walk) and anti-ant (the least visited edge, seed 002 §5.1). Both play
// any graph, a model explored on the fly too.
#pragma once

#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

const StrategyRow& random_strategy();
const StrategyRow& anti_ant_strategy();

}  // namespace playtest
