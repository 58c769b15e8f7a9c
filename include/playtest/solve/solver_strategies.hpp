// The solver strategies as rows of the strategy table (strategy/strategy_row.hpp): reach (maximal
// probability of reaching a goal within n moves, seed 000 §3), win (sure winning at minimal
// worst-case cost, seed 000 §4) and expected (minimal expected cost, seed 001 §2). Each is solved
// once when prepared and replayed by every policy made.
#pragma once

#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

const StrategyRow& reach_strategy();
const StrategyRow& win_strategy();
const StrategyRow& expected_strategy();

}  // namespace playtest
