#include "run_options.hpp"

#include <fmt/format.h>

#include "graphwalker_options.hpp"
#include "option_checks.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/run/subprocess_adapter.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest::cli {

CLI::App* add_run_command(CLI::App& app, RunCliOptions& o) {
  auto* sub = app.add_subcommand(
      "run",
      "Test a live system: play a strategy against COMMAND through the adapter protocol "
      "(docs/adapter-protocol.md).\n"
      "Exit codes: 0 PASS, 1 FAIL, 4 INCONCLUSIVE, 3 ERROR (adapter died, garbage, hang), 2 usage/input error,\n"
      "6 an output not written (--trace, --trace-dir, --junit, --report, standard output), 7 a bug in playtest,\n"
      "130/143 stopped by SIGINT/SIGTERM (trace and JUnit written; the interrupted run is ERROR).");
  add_input_options(sub, o.input);
  add_explore_first_options(sub, o.explore);
  add_sut_options(sub, o.sut);
  add_strategy_options(sub, o.strategy, false);
  add_generator_option(sub, o.generator);
  sub->add_option("--steps", o.steps, "Step budget per run (0: none)")
      ->default_val(1000)
      ->check(non_negative_integer());
  sub->add_option("--time", o.time_s, "Wall-clock budget per run in seconds (0: none; at least 0.001)")
      ->default_val(0)
      ->check(budget_seconds());
  sub->add_option("--runs", o.runs, "Number of runs of the campaign (run i uses seed S+i-1)")
      ->default_val(1)
      ->check(positive_integer());
  sub->add_option("--jobs", o.jobs,
                  "Runs played at once, each job by its own adapter process: {job} in --sut and PLAYTEST_JOB "
                  "in its environment are the job's number, 1..N. Same --seed and N: the same runs, whatever the "
                  "load; with --adapt on, run i learns from the runs at least N places before it, so N changes "
                  "what later runs know (docs/testing.md \"Campaigns\")")
      ->default_val(1)
      ->check(positive_integer());
  sub->add_option("--shard", o.shard,
                  "K/M: play only shard K of M, the runs i with (i-1) mod M = K-1 (seeds as in the whole "
                  "campaign); put the shards' outputs together with playtest merge")
      ->default_val("1/1");
  sub->add_option("--max-errors", o.max_errors,
                  "Stop the campaign after N runs ended ERROR (a dead server, a broken adapter): no further run "
                  "starts (0: never)")
      ->default_val(0)
      ->check(non_negative_integer());
  sub->add_flag("--fail-fast", o.fail_fast,
                "Stop at the first FAIL: start no further run, stop the runs in progress after it (reported "
                "as not completed)");
  add_seed_option(sub, o.seed, "Seed of the strategy's random choices (run i uses seed S+i-1)");
  auto* trace = sub->add_option("--trace", o.trace,
                                "Write the JSON-lines trace of every run here, in run order (with --jobs, a run's "
                                "steps are held back until the runs before it are written)");
  sub->add_option("--trace-dir", o.trace_dir, "Write the trace of run i to DIR/run-<i>.jsonl instead")->excludes(trace);
  sub->add_option("--junit", o.junit, "Write a JUnit XML report here");
  sub->add_option("--report", o.report,
                  "Write a self-contained HTML report here: verdicts, replay commands, the model with coverage, "
                  "the path to each failure (docs/testing.md)");
  sub->add_option("--shrink", o.shrink.output,
                  "After a FAIL, shrink the first failing run to a shortest failing stimulus sequence and write "
                  "its trace here (docs/diagnosis.md; --shrink-attempts, --shrink-threshold, --shrink-budget)");
  add_shrink_options(sub, o.shrink, "shrink-");
  sub->add_option("--adapt", o.adapt,
                  "on: cover, planner, reach and expected learn the system's choices (per vertex and per "
                  "history, of any length) and re-plan on them, runs learn from the runs before them, and a run "
                  "whose purpose is left only behind outcomes that are futile to wait for (--rare-rate) stops "
                  "INCONCLUSIVE naming them; off: play the model's declared probabilities (the papers' numbers) "
                  "(docs/testing.md \"Adaptive strategies\")")
      ->check(CLI::IsMember({"on", "off"}))
      ->default_val("on");
  sub->add_flag("--json", o.json, "Print the result as JSON");
  sub->add_flag("--quiet", o.quiet, "Print only the coverage and the verdict");
  o.command = sub;
  return sub;
}

InputOptions run_input(RunCliOptions& o) {
  take_goal_conditions(o.strategy, o.input);  // --goal 'EXPR' on a model program
  // A model program with an on-the-fly strategy is played without exploring it first.
  InputOptions input = o.input;
  input.whole_graph_for = whole_graph_reason(campaign_request(o));
  input.explore_first = explore_first_options(o.explore, input);  // small models play as their graph
  input.values = true;
  return input;
}

std::function<std::string(std::uint64_t)> run_replay(bool on_the_fly) {
  return [on_the_fly](std::uint64_t seed) {
    std::vector<std::string> append{"--seed", std::to_string(seed), "--runs", "1"};
    if (on_the_fly) append.push_back("--on-the-fly");
    return replay_command({"--seed", "--runs", "--jobs", "--shard", "--trace", "--trace-dir", "--junit", "--report",
                           "--shrink", "--shrink-attempts", "--shrink-threshold", "--shrink-budget",
                           "--shrink-confidence", "--shrink-match", "--max-errors"},
                          {"--json", "--quiet", "--fail-fast", "--on-the-fly"}, append);
  };
}

std::map<std::string, std::string> run_settings(const RunCliOptions& o) {
  // The options that do not change what the runs do (outputs, parallelism, how the model is read,
  // which its digest covers, what happens after the runs); the others identify the campaign.
  // clang-format off
  static const std::vector<std::string> not_campaign_settings = {
      "--seed", "--runs", "--strategy", "--jobs", "--shard", "--fail-fast", "--trace", "--trace-dir", "--junit",
      "--report", "--json", "--quiet", "--sut-stderr", "--allow-unreachable", "--format", "--inputs", "--outputs",
      "--param", "--max-states", "--reward", "--goal-label", "--shrink", "--shrink-attempts", "--shrink-threshold",
      "--shrink-budget", "--shrink-confidence", "--shrink-match"};
  // clang-format on
  return o.command ? campaign_settings(o.command, not_campaign_settings) : std::map<std::string, std::string>{};
}

CampaignRequest campaign_request(const RunCliOptions& o) {
  return CampaignRequest{.strategy = o.strategy,
                         .sut = o.sut,
                         .steps = o.steps,
                         .time_s = o.time_s,
                         .seed = o.seed,
                         .runs = o.runs,
                         .jobs = o.jobs,
                         .max_errors = o.max_errors,
                         .shard = o.shard,
                         .fail_fast = o.fail_fast,
                         .adapt = o.adapt == "on",
                         .shrink_after = !o.shrink.output.empty(),
                         .settings = run_settings(o)};
}

const RunResult* failed_model_run(const CampaignResult& c) {
  const RunResult* model_failed = nullptr;
  for (const RunResult& r : c.runs)
    if (c.model_failed != 0 && r.run == c.model_failed) model_failed = &r;
  return model_failed;
}

void print_campaign(const RunCliOptions& o, const Runner& runner, const CampaignResult& c, const RunOutputOptions& out,
                    int code, const ShrinkDone* shrunk) {
  const std::string& name = o.strategy.strategies.front();
  if (o.json) {
    nlohmann::json j = campaign_json(runner, c, name, out);
    j["exit_code"] = code;
    if (shrunk) j["shrink"] = shrink_json(shrunk->result, shrunk->context);
    print_json(j);
  } else {
    write_campaign_text(std::cout, runner, c, out);
    if (shrunk) {
      std::cout << "shrinking the first failing run:\n";
      write_shrink_text(std::cout, shrunk->result, shrunk->context);
    }
  }
  // A model that failed in a run (on the fly) is a bad input (exit 2), said on stderr after the
  // outputs, which keep everything observed up to there.
  if (const RunResult* failed = failed_model_run(c))
    fmt::print(stderr, "playtest: {}\n  note: in run {} after {} step{}; no run was started after it\n",
               format_diagnostic(*failed->model_error), failed->run, failed->steps, failed->steps == 1 ? "" : "s");
  std::cout.flush();
}

}  // namespace playtest::cli
