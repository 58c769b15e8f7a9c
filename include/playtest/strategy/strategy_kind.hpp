// Which testing strategies exist (seed 000 §3-5, seed 001 §2, seed 002, seed 003, seed 004 §3) and
// what each needs: the one place that knows a strategy's name, its default test purpose and
// whether it computes on the whole graph.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace playtest {

enum class StrategyKind : std::uint8_t {
  random,       // uniform random walk
  anti_ant,     // the least visited out-edge (seed 002 §5.1)
  reach,        // bounded reachability: maximal probability within n moves (seed 000 §3)
  win,          // sure winning at minimal worst-case cost (seed 000 §4)
  expected,     // minimal expected cost (seed 001 §2)
  cover,        // edge coverage from the postman tour (seed 000 §5)
  planner,      // reactive planning tester over traps (seed 002)
  pessimistic,  // minimal-rank pessimistic tester (seed 003)
  torx,         // TorX's random derivation with p1, p2, p3 (seed 004 §3)
};

// Every kind, in the order the tool lists them.
std::span<const StrategyKind> strategy_kinds();

// "random", "anti-ant", "reach", ...
std::string_view to_string(StrategyKind k);

// The kind named `name`; throws UsageError("strategy", ...) listing the known names.
StrategyKind parse_strategy_kind(std::string_view name);

// "random, anti-ant, reach, ..." for help texts and messages.
std::string strategy_names_list();

// The strategy aims at goal vertices (reach, win, expected) and needs at least one.
bool needs_goals(StrategyKind k);

// The strategy is computed on the whole test graph before the run (it cannot play a lazily
// explored model).
bool needs_whole_graph(StrategyKind k);

}  // namespace playtest
