// --generator (run, simulate; docs/graphwalker.md "Generators"): GraphWalker's generator and stop
// condition, or the GraphWalker model's own `generator`, played as a playtest strategy, purpose and
// budget. Before loading, the strategy, purpose, goals and budgets are set; after loading, the
// labels the coverage counts become the traps.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "common.hpp"
#include "playtest/input/load.hpp"
#include "playtest/lang/graphwalker_generator.hpp"
#include "strategy_options.hpp"

namespace playtest::cli {

void add_generator_option(CLI::App* sub, std::string& generator);

struct GeneratorChoice {
  std::optional<GwGenerator> generator;
};

// `text` is --generator ("" when not given: the GraphWalker model's own generator, unless
// `strategy_given`). `keep_strategies` (simulate): only the purpose and budgets are taken. Prints
// on standard error, once, how the generator is played and where playtest has better. predefined_path
// sets input.graphwalker_predefined_path.
GeneratorChoice generator_before_load(const std::string& text, StrategyOptions& strategy, InputOptions& input,
                                      std::uint64_t& steps, double* time_s, bool strategy_given, bool keep_strategies);

// The coverage's labels as the traps (those the explored graph has; the others are named in a note).
void generator_after_load(const GeneratorChoice& choice, const LoadedInput& in, StrategyOptions& strategy);

}  // namespace playtest::cli
