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
};

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

}  // namespace playtest::cli
