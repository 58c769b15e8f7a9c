// The table of every testing strategy (as Spot's table of emptiness checks): one row per strategy,
// each defined beside its algorithm (strategy/strategy_row.hpp). The tool's --strategy names, the
// options of each strategy and what each needs come from here; run/ and the simulator see only the
// policy makers the rows prepare.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/adapt/adaptive_policy.hpp"
#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

// Every row, in the order the tool lists them.
std::span<const StrategyRow* const> strategy_table();

// The row named `name`; throws UsageError("strategy") naming the known ones, with "did you mean"
// for a near miss.
const StrategyRow& strategy_named(std::string_view name);

// "random, anti-ant, reach, ..." for help texts and messages.
std::string strategy_names_list();

// The strategies that play a model explored on the fly (StrategyRow::on_the_fly), in words:
// "random, anti-ant and pessimistic" (on_the_fly_names of the table).
std::string on_the_fly_strategies(std::string_view conjunction = "and");

// Every option of every row, once per name, in table order (rows sharing a name share the option).
std::vector<StrategyOption> strategy_options();

// The strategy `name` prepared for `purpose` on `g` (its row's prepare_strategy): the maker of its
// policies. A refusal throws UsageError naming what to change (StrategyRefusal::option), with its
// notes. For C++ users testing in process, the tool and the tests alike.
struct PrepareOptions {
  StrategyArgs args;  // the strategy's own options ("bound" -> "20")
  // on: strategies that re-plan (StrategyRow::replanning) learn the system's choices while they play
  // (adapt/adaptive_policy.hpp), with these options.
  Adaptation adapt = Adaptation::off;
  AdaptOptions adaptation;
  bool allow_uncertified = false;
};
PolicyMaker policy_maker(std::string_view name, const GameGraph& g, const TestPurpose& purpose = {},
                         const PrepareOptions& options = {});
// One policy of strategy `name` (policy_maker(...)(g)).
std::unique_ptr<Policy> make_policy(std::string_view name, const GameGraph& g, const TestPurpose& purpose = {},
                                    const PrepareOptions& options = {});

}  // namespace playtest
