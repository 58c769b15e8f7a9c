// playtest run MODEL --sut COMMAND --strategy NAME: play a strategy against a live system under test
// through the subprocess adapter (docs/adapter-protocol.md); judge every observation; report a
// verdict (exit code 0 PASS, 1 FAIL, 4 INCONCLUSIVE, 3 ERROR, 128 + N when signal N stopped it), a
// trace, JUnit XML and coverage. The model is loaded by input/load.hpp, the files are written by
// session/files.hpp, the first FAIL is shrunk by session/shrink_after_run.hpp.
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "graphwalker_options.hpp"
#include "interrupt.hpp"
#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/campaign_output.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/session/files.hpp"
#include "playtest/session/plan.hpp"
#include "progress.hpp"
#include "run_options.hpp"

namespace playtest::cli {
namespace {

// The campaign on `g`: a TestGraph, or a model explored on the fly (ModelGraph, docs/testing.md
// "Models too big to explore"); one code path for both.
int play(const RunCliOptions& o, const GameGraph& g, const ModelGraph* on_the_fly, const LoadedInput& loaded,
         const ModelPlay& model_play) {
  const auto replay = run_replay(on_the_fly != nullptr);
  const std::string& name = o.strategy.strategies.front();
  StopSignal stop;
  const CampaignPlan p = plan_campaign(loaded, g, on_the_fly, campaign_request(o), model_play, stop);
  const Runner& runner = p.runner;
  CampaignWorkers workers{.policy = p.policy, .adapter = subprocess_adapters(p.adapter)};
  ProgressLine progress("run", "runs");
  CampaignFiles outputs({.model = o.input.path,
                         .params = o.input.params,
                         .strategy = name,
                         .trace = o.trace,
                         .trace_dir = o.trace_dir,
                         .report = o.report,
                         .junit = o.junit,
                         .tool_version = PLAYTEST_VERSION,
                         .replay = replay,
                         .on_progress = [&](std::uint32_t done, std::uint32_t runs) { progress.update(done, runs); }},
                        o.runs);

  // From here on a signal stops the campaign; what was observed is written all the same.
  const InterruptScope interrupts(stop);
  const CampaignResult c = run_campaign(runner, workers, p.campaign, outputs.observer());
  progress.finish();
  outputs.finish(g, c);
  std::optional<ShrinkDone> shrunk;
  if (!on_the_fly)
    shrunk = shrink_first_failure(*g.explored(), c, runner.options(), p.adapter,
                                  shrink_to_file_options(o.shrink, o.sut, o.trace, o.input.path, o.input.params));
  const bool interrupted = c.interrupted || (shrunk && shrunk->result.interrupted);
  const RunResult* model_failed = failed_model_run(c);
  int code = interrupted    ? interrupted_exit_code(stop)
             : model_failed ? exit_code(ErrorKind::input)
                            : exit_code_of(c.verdict);
  const RunOutputOptions out{
      .per_run = !o.quiet,
      .replay = replay,
      .default_purpose = o.strategy.purpose == "auto" ? describe_purpose(g, runner.options().purpose) : ""};
  print_campaign(o, runner, c, out, code, shrunk ? &*shrunk : nullptr);
  // The report last: its pictures may take minutes, and a signal meanwhile stops them.
  outputs.write_report(g, c, &stop);
  if (stop.requested() && !interrupted) {  // the signal came after the runs
    fmt::print(stderr, "playtest: interrupted by {} after the runs{}\n", signal_name(stop.signal()),
               o.report.empty() ? "" : "; the report was written without the pictures left to draw");
    code = interrupted_exit_code(stop);
  }
  return code;
}

int run(const RunCliOptions& given) {
  RunCliOptions o = given;
  const bool strategy_given = o.command != nullptr && o.command->count("--strategy") > 0;
  const GeneratorChoice generator =
      generator_before_load(o.generator, o.strategy, o.input, o.steps, &o.time_s, strategy_given, false);
  const LoadedInput in = load_input(run_input(o));
  generator_after_load(generator, in, o.strategy);
  refuse_on_the_fly_for(o.explore, in.format);
  if (in.graph) return play(o, *in.graph, nullptr, in, {.model_program = in.model != nullptr});
  const ModelGraph g(*in.model);
  return play(o, g, &g, in, {.model_program = true, .on_the_fly_reason = in.on_the_fly_reason});
}

const Registration reg{"run", 60, [](CLI::App& app) {
                         auto o = std::make_shared<RunCliOptions>();
                         add_run_command(app, *o);
                         return [o] { return run(*o); };
                       }};

}  // namespace
}  // namespace playtest::cli
