// playtest simulate MODEL --strategy A,B --runs R [--mutants]: compare strategies against a simulated
// system that plays the model's own probabilities (seeded), and against mutants of the model. The
// model is loaded by input/load.hpp; the options and the rendering are simulate_options.hpp.
#include "command.hpp"
#include "common.hpp"
#include "graphwalker_options.hpp"
#include "playtest/campaign/mutation.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/mutant_analysis.hpp"
#include "playtest/strategy/traps.hpp"
#include "progress.hpp"
#include "simulate_options.hpp"

namespace playtest::cli {
namespace {

// The comparison on `g`: a TestGraph, or a model explored on the fly (each thread of each strategy
// explores it anew in a ModelGraph of its own; `g` checks that there is something to test).
int compare(const SimulateCliOptions& o, const GameGraph& g, const ModelGraph* on_the_fly, const Model* model,
            InputFormat format, const std::string& on_the_fly_reason = {}) {
  std::optional<TestGraph> impl;
  StrategyComparison c{.seed = o.seed,
                       .max_steps = o.steps,
                       .runs = o.runs,
                       .mutant_runs = o.mutant_runs,
                       .shard = parse_shard(o.shard),
                       .model = o.input.path,
                       .implementation = o.impl};
  std::vector<Mutant> mutants;
  const Adaptation adapt = o.adapt == "on" ? Adaptation::on : Adaptation::off;
  if (!on_the_fly) {
    if (!o.impl.empty()) impl = load_test_graph(o.input.with_path(o.impl));
    if (!o.system.empty()) impl = system_graph(*g.explored(), load_test_graph(o.input.with_path(o.system)), o.system);
    if (o.mutants) mutants = make_mutants(*g.explored(), o.mutant_count, o.seed);
  }
  // Each mutant classified by the product game of model and mutant (mutant_classification.hpp).
  for (const Mutant& m : mutants) {
    std::optional<MutantAnalysis> analysis;
    if (!on_the_fly) analysis = analyze_mutant(*g.explored(), m.graph);
    c.mutants.push_back({std::string(to_string(m.kind)), m.description, std::move(analysis)});
  }
  for (const std::string& name : o.strategy.strategies) {
    const StrategySpec spec = strategy_spec(o.strategy, name);
    SimulationOptions so{
        .runs = o.runs, .mutant_runs = o.mutant_runs, .seed = o.seed, .threads = o.threads, .shard = c.shard};
    so.run.max_steps = o.steps;
    so.run.stop_when_futile = adapt == Adaptation::on && spec.strategy->replanning != Replanning::none;
    so.run.claims = claim_options(o.strategy);
    if (o.system_choice == "incoming-edge") so.sut.choice = SimulatedSutOptions::Choice::incoming_edge;
    ProgressLine progress("simulate " + name, "runs");
    so.on_progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    if (on_the_fly) {
      so.run.purpose = on_the_fly_purpose(spec, strategy_table());
      require_something_to_test(*on_the_fly, so.run.purpose);
      c.rows.push_back({name, so.run.purpose,
                        simulate(*model, prepare_policy(o.strategy, spec, g, so.run.purpose, adapt), so),
                        describe_purpose(g, so.run.purpose)});
    } else {
      const TestGraph& whole = *g.explored();
      so.run.purpose = spec.resolve(whole, declared_traps(whole));
      require_something_to_test(whole, so.run.purpose,
                                spec.strategy && spec.strategy->needs_goals ? spec.strategy->name : "");
      refuse_unreachable(o.strategy, whole, so.run.purpose);
      if (impl) {
        so.implementation = &*impl;
        // ioco implementations refuse inputs they lack and give outputs only when observed.
        so.sut.ioco_implementation = o.system.empty() && (format == InputFormat::aut || format == InputFormat::lts);
      }
      const PolicyMaker policies = prepare_policy(o.strategy, spec, g, so.run.purpose, adapt);
      c.rows.push_back(
          {name, so.run.purpose, simulate(whole, policies, so, mutants), describe_purpose(g, so.run.purpose)});
    }
  }
  write_comparison(o, g, c, on_the_fly != nullptr, format, on_the_fly_reason);
  return exit_code(Outcome::done);
}

int run(const SimulateCliOptions& given) {
  SimulateCliOptions o = given;
  const bool strategy_given = o.command != nullptr && o.command->count("--strategy") > 0;
  const GeneratorChoice generator =
      generator_before_load(o.generator, o.strategy, o.input, o.steps, nullptr, strategy_given, strategy_given);
  const LoadedInput in = load_input(simulate_input(o));
  generator_after_load(generator, in, o.strategy);
  refuse_on_the_fly_for(o.explore, in.format);
  if (in.graph) return compare(o, *in.graph, nullptr, nullptr, in.format);
  const ModelGraph g(*in.model);
  return compare(o, g, &g, in.model.get(), in.format, in.on_the_fly_reason);
}

const Registration reg{"simulate", 61, [](CLI::App& app) {
                         auto o = std::make_shared<SimulateCliOptions>();
                         add_simulate_command(app, *o);
                         return [o] { return run(*o); };
                       }};

}  // namespace
}  // namespace playtest::cli
