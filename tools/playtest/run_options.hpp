// playtest run's options (the command is cmd_run.cpp): the model, the system under test, the
// strategy, the campaign's budgets and outputs, and what they mean for loading the model (explored
// first, or whole) and for the command that replays one run.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "common.hpp"
#include "diagnose_options.hpp"
#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/campaign_output.hpp"
#include "playtest/run/on_the_fly.hpp"
#include "strategy_options.hpp"

namespace playtest::cli {

struct RunCliOptions {
  InputOptions input;
  StrategyOptions strategy;
  SutCliOptions sut;  // --sut, its stderr and the timeouts
  std::string trace, trace_dir, junit, report, shard = "1/1";
  std::uint64_t steps = 1000, seed = 0;
  double time_s = 0;
  std::uint32_t runs = 1, jobs = 1, max_errors = 0;
  bool json = false, quiet = false, fail_fast = false;
  ExploreFirstOptions explore;        // a model program: explored first within --explore-time, else on the fly
  std::string adapt = "on";           // --adapt: learn the system's choices and re-plan (issue 22)
  ShrinkCliOptions shrink;            // --shrink FILE: shrink the first FAIL right after the campaign
  std::string generator;              // --generator: GraphWalker's generator (graphwalker_options.hpp)
  const CLI::App* command = nullptr;  // the parsed subcommand (its options identify the campaign)
};

// The `run` subcommand of `app` with all its options into `o`.
CLI::App* add_run_command(CLI::App& app, RunCliOptions& o);

// How to load the model for `o` (load_input): explored first within --explore-time and played on
// the fly when it does not fit, unless a strategy or option needs the whole graph (named in
// LoadOptions::whole_graph_for); --goal conditions taken into the input. UsageError for
// --on-the-fly with what needs the whole graph.
InputOptions run_input(RunCliOptions& o);

// The command that replays one run: this command line with that run's seed, one run and one job,
// writing no files; on the fly when the campaign was (a model with `abstract` plays differently
// explored and on the fly).
std::function<std::string(std::uint64_t)> run_replay(bool on_the_fly);

// What identifies the campaign besides its model (CampaignOptions::settings, for merge).
std::map<std::string, std::string> run_settings(const RunCliOptions& o);

// The campaign as the options ask for it (session/plan.hpp: plan_campaign makes every decision).
CampaignRequest campaign_request(const RunCliOptions& o);

// The run in which the model failed (a model program played on the fly), or null.
const RunResult* failed_model_run(const CampaignResult& c);
// The campaign's outcome on standard output (--json: with the exit code and the shrink), and on
// standard error the run in which the model failed.
void print_campaign(const RunCliOptions& o, const Runner& runner, const CampaignResult& c, const RunOutputOptions& out,
                    int code, const ShrinkDone* shrunk);

}  // namespace playtest::cli
