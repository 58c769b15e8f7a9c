// playtest simulate MODEL --strategy A,B --runs R [--mutants]: compare strategies against a simulated
// system that plays the model's own probabilities (seeded), and against mutants of the model.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "command.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "torx_option.hpp"
#include "traps_option.hpp"
#include "playtest/error.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/report/text.hpp"
#include "playtest/run/mutation.hpp"
#include "playtest/run/policy_factory.hpp"
#include "playtest/run/simulation.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::vector<std::string> strategies{"random"};
  std::string purpose = "auto";
  std::vector<std::string> goals, edges, traps;
  std::uint64_t steps = 1000;
  std::uint32_t runs = 100, mutant_count = 20, mutant_runs = 10, bound = 0;
  bool mutants = false, json = false;
  std::uint64_t seed = 0;
  std::string impl;  // --impl: the simulated SUT plays this model instead
  std::string report;
  TorxCliOptions torx;
  bool planner_exact = false;
};

int run(const Options& o) {
  TestGraph g = load_input(o.input);
  std::optional<TestGraph> impl;
  const bool ioco_input = is_lts_file(o.input.path);
  if (!o.impl.empty()) {
    InputOptions in = o.input;
    in.path = o.impl;
    if (!(in.path.size() > 4 && in.path.ends_with(".tra"))) in.reward.clear(), in.goal_label.clear();
    impl = load_input(in);
  }
  const ioco::TorxOptions torx = resolve_torx_options(o.torx);
  std::vector<Mutant> mutants;
  if (o.mutants) mutants = make_mutants(g, o.mutant_count, o.seed);
  nlohmann::json out = nlohmann::json::array();
  report::StrategyComparison comparison{.seed = o.seed, .max_steps = o.steps};
  if (!o.json)
    fmt::print("{:<10} {:>6} {:>9} {:>10} {:>9} {:>5} {:>5} {:>5} {:>5}{}   {}\n", "strategy", "runs", "success", "mean",
               "sd", "pass", "fail", "inc", "err", o.mutants ? "   mutants detected   steps to detect" : "", "purpose");
  for (const std::string& name : o.strategies) {
    const StrategySpec spec{.kind = parse_strategy_kind(name),
                            .purpose = parse_purpose_choice(o.purpose),
                            .goals = o.goals,
                            .edges = o.edges,
                            .traps = o.traps};
    const TestPurpose::Kind kind = spec.purpose_kind();
    SimulationOptions so;
    so.run.purpose = spec.resolve(g, declared_traps(g));
    require_something_to_test(g, so.run.purpose);
    so.run.max_steps = o.steps;
    so.runs = o.runs;
    so.mutant_runs = o.mutant_runs;
    so.seed = o.seed;
    if (impl) {
      so.implementation = &*impl;
      so.sut.ioco_implementation = ioco_input;  // refuses inputs it lacks; outputs only when observed
    }
    PolicySetup setup{.goals = so.run.purpose.goals, .edges = so.run.purpose.edges, .bound = o.bound, .torx = torx};
    if (o.planner_exact) setup.planner.horizon = setup.planner.tail_traps = 0;
    auto policy = make_policy(spec.kind, g, setup);
    ProgressLine progress("simulate " + name, "runs");
    so.on_progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    SimulationStats s = simulate(g, *policy, so, mutants);
    progress.finish();
    const std::string purpose = report::describe_purpose(g, so.run.purpose);
    if (o.json) {
      nlohmann::json j = {{"strategy", name},          {"purpose", std::string(to_string(kind))},
                          {"purpose_text", purpose},
                          {"runs", s.runs},            {"passed", s.passed},
                          {"failed", s.failed},        {"inconclusive", s.inconclusive},
                          {"errors", s.errors},        {"success_rate", s.success_rate},
                          {"mean_steps", s.mean_steps}, {"sd_steps", s.sd_steps}};
      if (o.mutants)
        j["mutants"] = {{"count", s.mutants},
                        {"detected", s.mutants_detected},
                        {"detected_fraction", s.detected_fraction()},
                        {"runs", s.mutant_runs},
                        {"runs_failed", s.mutant_runs_failed},
                        {"mean_steps_to_detect", s.mean_steps_to_detect}};
      out.push_back(std::move(j));
    } else {
      std::string m = o.mutants ? fmt::format("   {:>3}/{:<3} {:>6.1f}%   {:>10.1f}", s.mutants_detected, s.mutants,
                                              100.0 * s.detected_fraction(), s.mean_steps_to_detect)
                                : "";
      fmt::print("{:<10} {:>6} {:>8.1f}% {:>10.2f} {:>9.2f} {:>5} {:>5} {:>5} {:>5}{}   {}\n", name, s.runs,
                 100.0 * s.success_rate, s.mean_steps, s.sd_steps, s.passed, s.failed, s.inconclusive, s.errors, m,
                 purpose);
    }
    comparison.strategies.push_back({std::move(s), purpose});
  }
  if (!o.report.empty()) {
    for (const Mutant& m : mutants) comparison.mutants.push_back(m.description);
    report::Report rep{.title = "playtest simulate " + o.input.path, .tool_version = PLAYTEST_VERSION, .model = &g,
                       .model_name = o.input.path, .simulation = std::move(comparison)};
    Output file(o.report);
    report::write_html_report(file.stream(), rep);
    file.close();
    if (!o.json) fmt::print("report: {}\n", o.report);
  }
  if (o.json) {
    nlohmann::json j = {{"model", o.input.path}, {"seed", o.seed}, {"steps", o.steps}, {"strategies", out}};
    if (impl) j["implementation"] = o.impl;
    if (o.mutants) {
      j["mutants"] = nlohmann::json::array();
      for (const Mutant& m : mutants)
        j["mutants"].push_back({{"kind", std::string(to_string(m.kind))}, {"description", m.description}});
    }
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return exit_ok;
}

const Registration reg{"simulate", 61, [](CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand(
      "simulate",
      "Compare strategies against a simulated system that plays the model's probabilities (seeded): mean and sd "
      "of the steps to meet the purpose, success rate and, with --mutants, the fraction of faulty mutants detected; "
      "with --impl, against another model (a faulty implementation)");
  add_input_options(sub, o->input);
  sub->add_option("--strategy", o->strategies, "Strategies, comma-separated: " + strategy_list())
      ->delimiter(',')
      ->default_str("random");
  sub->add_option("--purpose", o->purpose, "reach, cover, none or auto")
      ->check(CLI::IsMember({"auto", "reach", "cover", "none"}))
      ->default_val("auto");
  sub->add_option("--goal", o->goals, "Goal vertex (repeatable; default: the graph's goals)");
  sub->add_option("--traps", o->traps,
                  "Test purpose as traps, comma-separated: all, model (meta.traps), edge ids, labels, globs (* ?), "
                  "id:/label: prefixes; the run covers them (docs/planning.md)")
      ->delimiter(',');
  sub->add_option("--edge", o->edges, "Edge id or label to cover (repeatable; default: every edge)");
  sub->add_option("--runs", o->runs, "Runs per strategy against the model")->default_val(100);
  sub->add_option("--steps", o->steps, "Step budget per run (0: none)")->default_val(1000);
  sub->add_option("--bound", o->bound, "reach: the game bound n (default: 2 * vertices + 2; restarted when spent)");
  sub->add_option("--impl", o->impl,
                  "The simulated system plays this model (same kinds as FILE, e.g. a faulty .aut implementation) "
                  "instead of FILE; for ioco models (.aut, lts/1) it refuses inputs it has no transition for (the run ends "
                  "without a verdict on them) and gives outputs only when the tester observes");
  add_torx_options(sub, o->torx);
  sub->add_flag("--planner-exact", o->planner_exact,
                "planner: the paper's exact gain at any size (no planning horizon; slow on large graphs, "
                "docs/planning.md)");
  sub->add_flag("--mutants", o->mutants, "Also run against mutants of the model and report how many are detected");
  sub->add_option("--mutant-count", o->mutant_count, "Number of mutants")->default_val(20);
  sub->add_option("--mutant-runs", o->mutant_runs, "Runs per mutant and strategy")->default_val(10);
  sub->add_option("--seed", o->seed, "Seed of every random choice (tester, simulated system, mutants)")->default_val(0);
  sub->add_flag("--json", o->json, "Print the results as JSON");
  sub->add_option("--report", o->report,
                  "Write a self-contained HTML report here: the strategies side by side with the distribution of "
                  "the steps to the purpose, and the mutants each one killed");
  return [o] { return run(*o); };
}};

}  // namespace
}  // namespace playtest::cli
