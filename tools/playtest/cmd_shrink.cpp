// playtest shrink TRACE --sut COMMAND -o MIN.jsonl: a shortest stimulus sequence that still fails
// as often as a threshold asks (delta debugging over the stimuli the model can play, each candidate
// tried up to K times; docs/diagnosis.md). Writes the minimal run's trace and prints how to replay it.
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "diagnose_options.hpp"
#include "interrupt.hpp"
#include "option_checks.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::string trace;
  RecordedModelOptions model;
  SutCliOptions sut;
  ShrinkCliOptions shrink;
  std::uint32_t run = 0;
  bool json = false;
};

int run(const Options& o) {
  const RecordedPlay play = load_recorded_play(o.trace, o.model, o.run);
  const TestGraph& g = play.graph;
  StopSignal stop;
  RunOptions ro{.stop = &stop, .values = play.loaded.values};
  apply_timeouts(g, o.sut, ro);
  SubprocessOptions so = job_options(subprocess_options(o.sut), 1);  // {job} and PLAYTEST_JOB as in run
  so.stop = &stop;
  const std::vector<std::string> params = param_environment(play.loaded.model.get());
  so.environment.insert(so.environment.end(), params.begin(), params.end());
  SubprocessAdapter adapter(so);
  const InterruptScope interrupts(stop);
  const ShrinkDone d =
      shrink_to_file(g, play.target, adapter, ro,
                     shrink_to_file_options(o.shrink, o.sut, o.trace, play.model, play.params), play.run().seed);
  if (o.json)
    print_json(shrink_json(d.result, d.context));
  else
    write_shrink_text(std::cout, d.result, d.context);
  if (d.result.interrupted) return interrupted_exit_code(stop);
  return exit_code(d.result.reproduced && d.result.minimal_rate.successes > 0 ? Outcome::reproduced
                                                                              : Outcome::not_reproduced);
}

const Registration reg{
    "shrink", 71, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "shrink",
          "Shrink a failing run to a shortest stimulus sequence that still fails (delta debugging over sequences the "
          "model can play; each candidate tried up to K times).\n"
          "Exit codes: 1 the minimal sequence fails (FAIL), 4 the failure did not come back (INCONCLUSIVE), 128+N "
          "stopped by signal N (the best so far is written).");
      sub->add_option("TRACE", o->trace, "JSONL trace with a FAIL run (run --trace)")->required();
      sub->add_option("-o,--output", o->shrink.output, "Write the minimal run's trace here")->required();
      add_recorded_model_options(sub, o->model,
                                 "The model the trace was recorded with (default: the one the trace names)");
      sub->add_option("--run", o->run, "Which run of the trace (default: the first FAIL)")->check(positive_integer());
      add_sut_options(sub, o->sut);
      add_shrink_options(sub, o->shrink, "");
      sub->add_flag("--json", o->json, "Print the result as JSON");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
