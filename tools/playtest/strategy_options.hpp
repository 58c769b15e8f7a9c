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
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/strategy_row.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest::cli {

struct StrategyOptions {
  std::vector<std::string> strategies{"random"};
  std::string purpose = "auto";
  std::vector<std::string> goals, edges, traps;
  StrategyArgs args;               // the rows' options that were given
  bool allow_unreachable = false;  // run even when no run can meet the purpose
  bool allow_uncertified = false;  // play a solver strategy that could not be certified
  // --rare-rate: with adaptation, outcomes never seen and ruled out above this rate (at 99.9%) at
  // their vertex and in every history offered are futile to wait for (strategy/claims.hpp).
  double rare_rate = 0.01;
};

// The claims' options of --rare-rate (strategy/claims.hpp).
ClaimOptions claim_options(const StrategyOptions& o);

// `several`: --strategy takes a comma-separated list (simulate compares them).
void add_strategy_options(CLI::App* sub, StrategyOptions& o, bool several);

// The strategy `name` (UsageError("strategy") with "did you mean" for an unknown one) with the
// purpose the options ask for.
StrategySpec strategy_spec(const StrategyOptions& o, const std::string& name);

// run and simulate on a model program: why the model must be explored first rather than played on
// the fly ("strategy 'reach'", "--traps", ...; docs/testing.md "Models too big to explore"), or ""
// when every strategy can play on the fly.
std::string whole_graph_reason(const StrategyOptions& o);

// Refuses (GraphError, exit 2, naming it) a purpose that no run can meet (diagnose/analyze.hpp,
// purpose_feasibility), unless --allow-unreachable.
void refuse_unreachable(const StrategyOptions& o, const TestGraph& g, const TestPurpose& purpose);

// The strategy of `spec` prepared for `purpose` on `g` (catalog/strategy_table.hpp policy_maker): a
// refusal is a usage error (exit 2) naming what to change, with its notes.
PolicyMaker prepare(const StrategyOptions& o, const StrategySpec& spec, const GameGraph& g, const TestPurpose& purpose,
                    Adaptation adapt = Adaptation::off);

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
