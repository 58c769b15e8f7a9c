// playtest simulate's options (the command is cmd_simulate.cpp): the model, the strategies, the
// simulated system (--impl, --system, --system-choice), mutants and the outputs; what they mean for
// loading the model; and the comparison's rendering (text, --json, --report).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "common.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/run/on_the_fly.hpp"
#include "strategy_options.hpp"

namespace playtest::cli {

struct SimulateCliOptions {
  InputOptions input;
  StrategyOptions strategy;
  std::uint64_t steps = 1000, seed = 0;
  std::uint32_t runs = 100, mutant_count = 20, mutant_runs = 10, threads = 0;
  std::string shard = "1/1";
  bool mutants = false, json = false;
  std::string impl;    // --impl: the simulated SUT plays this model instead
  std::string system;  // --system: the simulated SUT plays the model with these probabilities
  std::string adapt = "off";
  std::string system_choice = "probabilities";
  std::string report;
  ExploreFirstOptions explore;  // a model program: explored first within --explore-time, else on the fly
  std::string generator;        // --generator: GraphWalker's generator (graphwalker_options.hpp)
  const CLI::App* command = nullptr;
};

// The `simulate` subcommand of `app` with all its options into `o`.
CLI::App* add_simulate_command(CLI::App& app, SimulateCliOptions& o);

// How to load the model for `o` (load_input): explored first unless a strategy or option needs the
// whole graph; --goal conditions taken into the input.
InputOptions simulate_input(SimulateCliOptions& o);

// The comparison written: --report (HTML), then --json or the text on standard output; on the fly
// (`on_the_fly_reason` not empty) says why and that the model's size is unknown.
void write_comparison(const SimulateCliOptions& o, const GameGraph& g, const StrategyComparison& c, bool on_the_fly,
                      InputFormat format, const std::string& on_the_fly_reason);

}  // namespace playtest::cli
