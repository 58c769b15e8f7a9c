// The edge-coverage strategy of seed 000 §5 as a row of the strategy table
// (strategy/strategy_row.hpp): the Chinese Postman tour is computed once when it is prepared and
// shared by every policy made.
#pragma once

#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

const StrategyRow& cover_strategy();

}  // namespace playtest
