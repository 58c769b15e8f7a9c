#include "simulate_options.hpp"

#include <fmt/format.h>

#include "graphwalker_options.hpp"
#include "option_checks.hpp"
#include "playtest/graph/transforms.hpp"
#include "playtest/report/html_report.hpp"

namespace playtest::cli {

CLI::App* add_simulate_command(CLI::App& app, SimulateCliOptions& o) {
  auto* sub = app.add_subcommand(
      "simulate",
      "Compare strategies against a simulated system that plays the model's probabilities (seeded): mean and sd "
      "of the steps to meet the purpose, success rate and, with --mutants, the fraction of faulty mutants "
      "detected; "
      "with --impl, against another model (a faulty implementation)");
  add_input_options(sub, o.input);
  add_explore_first_options(sub, o.explore);
  add_strategy_options(sub, o.strategy, true);
  sub->add_option("--runs", o.runs, "Runs per strategy against the model")->default_val(100)->check(positive_integer());
  add_generator_option(sub, o.generator);
  o.command = sub;
  sub->add_option("--steps", o.steps, "Step budget per run (0: none)")
      ->default_val(1000)
      ->check(non_negative_integer());
  sub->add_option(
      "--impl", o.impl,
      "The simulated system plays this model (same kinds as FILE, e.g. a faulty .aut implementation) "
      "instead of FILE; for ioco models (.aut, lts/1) it refuses inputs it has no transition for (the run ends "
      "without a verdict on them) and gives outputs only when the tester observes");
  auto* system = sub->add_option(
      "--system", o.system,
      "The simulated system chooses with this model's probabilities (a graph/1 file with the same vertices and "
      "edges, e.g. the output of playtest learn -o) instead of FILE's, which the strategies still plan on");
  system->excludes(sub->get_option("--impl"));
  sub->add_option("--system-choice", o.system_choice,
                  "How the simulated system chooses at a passive vertex: probabilities (the model's, or --system's), "
                  "or incoming-edge (a fixed function of the edge that led there: a system whose choices depend on "
                  "history, to measure --adapt offline)")
      ->check(CLI::IsMember({"probabilities", "incoming-edge"}))
      ->default_val("probabilities");
  sub->add_option("--adapt", o.adapt,
                  "on: cover, planner, reach and expected learn the simulated system's choices within each run and "
                  "re-plan (as run does by default); off (default here): they play the model's probabilities, "
                  "the papers' numbers")
      ->check(CLI::IsMember({"on", "off"}))
      ->default_val("off");
  sub->add_flag("--mutants", o.mutants, "Also run against mutants of the model and report how many are detected");
  sub->add_option("--mutant-count", o.mutant_count, "Number of mutants")->default_val(20);
  sub->add_option("--mutant-runs", o.mutant_runs, "Runs per mutant and strategy")->default_val(10);
  add_seed_option(sub, o.seed, "Seed of every random choice (tester, simulated system, mutants)");
  sub->add_option("--threads", o.threads,
                  "Threads playing runs at once (default: the hardware's); the results are the same for any "
                  "number")
      ->default_str("hardware threads")
      ->check(positive_integer());
  sub->add_option("--shard", o.shard,
                  "K/M: play only shard K of M (run i, 0-based, when i mod M = K-1; mutant runs likewise); put "
                  "the shards' --json outputs together with playtest merge")
      ->default_val("1/1");
  sub->add_flag("--json", o.json, "Print the results as JSON");
  sub->add_option("--report", o.report,
                  "Also write a self-contained HTML report here: the strategies side by side with the "
                  "distribution of the steps to the purpose, and the mutants each one killed");
  return sub;
}

InputOptions simulate_input(SimulateCliOptions& o) {
  take_goal_conditions(o.strategy, o.input);  // --goal 'EXPR' on a model program
  // A model program whose strategies all play on the fly is simulated without exploring it first.
  InputOptions input = o.input;
  input.whole_graph_for = whole_graph_reason(o.strategy);
  if (input.whole_graph_for.empty() && o.mutants) input.whole_graph_for = "--mutants";
  if (input.whole_graph_for.empty() && !o.impl.empty()) input.whole_graph_for = "--impl";
  if (input.whole_graph_for.empty() && !o.system.empty()) input.whole_graph_for = "--system";
  if (input.whole_graph_for.empty() && o.adapt == "on") input.whole_graph_for = "--adapt on";
  input.explore_first = explore_first_options(o.explore, input);  // small models play as their graph
  return input;
}

void write_comparison(const SimulateCliOptions& o, const GameGraph& g, const StrategyComparison& c, bool on_the_fly,
                      InputFormat format, const std::string& on_the_fly_reason) {
  if (!o.report.empty()) {
    Output out(o.report);
    report::Report rep{.title = "playtest simulate " + o.input.path, .tool_version = PLAYTEST_VERSION};
    rep.model = g.explored();  // on the fly there is no picture of the model
    rep.model_name = o.input.path;
    rep.simulation = &c;
    report::write_html_report(out.stream(), rep);
    out.close();
  }
  if (o.json) {
    nlohmann::json j = comparison_json(c);
    if (on_the_fly) j["on_the_fly"] = true;
    if (format == InputFormat::model || format == InputFormat::graphwalker)
      j["exploration"] = on_the_fly ? "on_the_fly" : "whole";
    if (on_the_fly) j["on_the_fly_reason"] = on_the_fly_reason;
    print_json(j);
  } else {
    write_comparison_text(std::cout, c);
    if (on_the_fly)
      std::cout << "(the model was played on the fly: " << on_the_fly_reason
                << "; each run explored it as far as it went: its size is unknown)\n";
  }
}

}  // namespace playtest::cli
