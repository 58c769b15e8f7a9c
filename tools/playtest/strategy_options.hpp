// The options that choose a strategy and its test purpose, shared by `run` and `simulate` (and
// the same spelling wherever else they appear): --strategy, --purpose, --goal, --edge, --traps,
// --bound, the TorX options, --planner-exact and --allow-unreachable.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "playtest/run/policy_factory.hpp"
#include "playtest/strategy/test_purpose.hpp"
#include "torx_option.hpp"

namespace playtest::cli {

struct StrategyOptions {
  std::vector<std::string> strategies{"random"};
  std::string purpose = "auto";
  std::vector<std::string> goals, edges, traps;
  std::uint32_t bound = 0;
  TorxCliOptions torx;
  bool planner_exact = false;
  bool allow_unreachable = false;  // run even when no run can meet the purpose
};

// `several`: --strategy takes a comma-separated list (simulate compares them).
void add_strategy_options(CLI::App* sub, StrategyOptions& o, bool several);

// The strategy `name` with the purpose the options ask for.
StrategySpec strategy_spec(const StrategyOptions& o, const std::string& name);

// Refuses (GraphError, exit 2, naming it) a purpose that no run can meet (diagnose/analyze.hpp,
// purpose_feasibility), unless --allow-unreachable.
void refuse_unreachable(const StrategyOptions& o, const TestGraph& g, const TestPurpose& purpose);

// What make_policy needs for a strategy playing `purpose`.
PolicySetup policy_setup(const StrategyOptions& o, const TestPurpose& purpose);

}  // namespace playtest::cli
