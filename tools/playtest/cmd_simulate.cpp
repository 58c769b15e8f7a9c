// playtest simulate MODEL --strategy A,B --runs R [--mutants]: compare strategies against a simulated
// system that plays the model's own probabilities (seeded), and against mutants of the model.
#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/run/mutation.hpp"
#include "playtest/run/policy_factory.hpp"
#include "playtest/run/simulation.hpp"
#include "playtest/strategy/traps.hpp"
#include "progress.hpp"
#include "strategy_options.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  StrategyOptions strategy;
  std::uint64_t steps = 1000, seed = 0;
  std::uint32_t runs = 100, mutant_count = 20, mutant_runs = 10, threads = 0;
  std::string shard = "1/1";
  bool mutants = false, json = false;
  std::string impl;  // --impl: the simulated SUT plays this model instead
  std::string report;
};

int run(const Options& o) {
  InputFormat format{};
  const TestGraph g = load_input(o.input, &format);
  std::optional<TestGraph> impl;
  if (!o.impl.empty()) impl = load_input(o.input.with_path(o.impl));
  StrategyComparison c{.seed = o.seed,
                       .max_steps = o.steps,
                       .runs = o.runs,
                       .mutant_runs = o.mutant_runs,
                       .shard = parse_shard(o.shard),
                       .model = o.input.path,
                       .implementation = o.impl};
  std::vector<Mutant> mutants;
  if (o.mutants) mutants = make_mutants(g, o.mutant_count, o.seed);
  for (const Mutant& m : mutants) c.mutants.push_back({std::string(to_string(m.kind)), m.description});
  for (const std::string& name : o.strategy.strategies) {
    const StrategySpec spec = strategy_spec(o.strategy, name);
    SimulationOptions so{
        .runs = o.runs, .mutant_runs = o.mutant_runs, .seed = o.seed, .threads = o.threads, .shard = c.shard};
    so.run.purpose = spec.resolve(g, declared_traps(g));
    require_something_to_test(g, so.run.purpose);
    refuse_unreachable(o.strategy, g, so.run.purpose);
    so.run.max_steps = o.steps;
    if (impl) {
      so.implementation = &*impl;
      // ioco implementations refuse inputs they lack and give outputs only when observed.
      so.sut.ioco_implementation = format == InputFormat::aut || format == InputFormat::lts;
    }
    const auto policies = policy_maker(spec.kind, g, policy_setup(o.strategy, so.run.purpose));
    ProgressLine progress("simulate " + name, "runs");
    so.on_progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    c.rows.push_back({name, so.run.purpose, simulate(g, policies, so, mutants), describe_purpose(g, so.run.purpose)});
  }
  if (!o.report.empty()) {
    Output out(o.report);
    report::write_html_report(out.stream(), {.title = "playtest simulate " + o.input.path,
                                             .tool_version = PLAYTEST_VERSION,
                                             .model = &g,
                                             .model_name = o.input.path,
                                             .simulation = &c});
    out.close();
  }
  if (o.json) {
    print_json(comparison_json(c));
  } else {
    write_comparison_text(std::cout, c);
  }
  return exit_ok;
}

const Registration reg{
    "simulate", 61, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "simulate",
          "Compare strategies against a simulated system that plays the model's probabilities (seeded): mean and sd "
          "of the steps to meet the purpose, success rate and, with --mutants, the fraction of faulty mutants "
          "detected; "
          "with --impl, against another model (a faulty implementation)");
      add_input_options(sub, o->input);
      add_strategy_options(sub, o->strategy, true);
      sub->add_option("--runs", o->runs, "Runs per strategy against the model")->default_val(100);
      sub->add_option("--steps", o->steps, "Step budget per run (0: none)")->default_val(1000);
      sub->add_option(
          "--impl", o->impl,
          "The simulated system plays this model (same kinds as FILE, e.g. a faulty .aut implementation) "
          "instead of FILE; for ioco models (.aut, lts/1) it refuses inputs it has no transition for (the run ends "
          "without a verdict on them) and gives outputs only when the tester observes");
      sub->add_flag("--mutants", o->mutants, "Also run against mutants of the model and report how many are detected");
      sub->add_option("--mutant-count", o->mutant_count, "Number of mutants")->default_val(20);
      sub->add_option("--mutant-runs", o->mutant_runs, "Runs per mutant and strategy")->default_val(10);
      add_seed_option(sub, o->seed, "Seed of every random choice (tester, simulated system, mutants)");
      sub->add_option("--threads", o->threads,
                      "Threads playing runs at once (default: the hardware's); the results are the same for any "
                      "number")
          ->default_str("hardware threads")
          ->check(positive_integer());
      sub->add_option("--shard", o->shard,
                      "K/M: play only shard K of M (run i, 0-based, when i mod M = K-1; mutant runs likewise); put "
                      "the shards' --json outputs together with playtest merge")
          ->default_val("1/1");
      sub->add_flag("--json", o->json, "Print the results as JSON");
      sub->add_option("--report", o->report,
                      "Also write a self-contained HTML report here: the strategies side by side with the "
                      "distribution of the steps to the purpose, and the mutants each one killed");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
