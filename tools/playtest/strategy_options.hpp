// The options that choose a strategy and its test purpose, shared by `run` and `simulate` (and
// the same spelling wherever else they appear): --strategy, --purpose, --goal, --edge, --traps,
// --allow-unreachable, --allow-uncertified, and the options of the strategies' own, which come from
// the strategy table's rows (catalog/strategy_table.hpp: --bound, --planner-exact, the TorX options).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "playtest/run/on_the_fly.hpp"
#include "playtest/session/plan.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/strategy_row.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest::cli {

// The strategy options are the library's request (session/plan.hpp).
using StrategyOptions = StrategyRequest;

// `several`: --strategy takes a comma-separated list (simulate compares them).
void add_strategy_options(CLI::App* sub, StrategyOptions& o, bool several);

// A model program's --goal values that are conditions on the state ("len(queue) == 0") rather than
// vertex names move to input.goal_conditions (the model's final states become the states where one
// holds), and the purpose auto becomes reach. Conditions and vertex names together are refused.
void take_goal_conditions(StrategyOptions& o, InputOptions& input);

// --on-the-fly and --explore-time (run, simulate; docs/testing.md "Models too big to explore"): a
// model program is explored first within a budget, else played on the fly.
void add_explore_first_options(CLI::App* sub, ExploreFirstOptions& o);
// The options for explore_first (with --max-states); refuses --on-the-fly with what needs the whole
// graph (input.whole_graph_for).
ExploreFirstOptions explore_first_options(const ExploreFirstOptions& o, const InputOptions& input);
// Refuses --on-the-fly for an input that is not a model program (a graph is explored already).
void refuse_on_the_fly_for(const ExploreFirstOptions& o, InputFormat format);

}  // namespace playtest::cli
