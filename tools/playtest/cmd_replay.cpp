// playtest replay TRACE --sut COMMAND [--attempts K]: play a recorded run's stimuli again and report
// how often the same verdict (the same failure) came back, with a confidence interval
// (docs/diagnosis.md). Exit code: the recorded verdict's when it came back at least once.
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "diagnose_options.hpp"
#include "interrupt.hpp"
#include "option_checks.hpp"
#include "playtest/diagnose/render.hpp"
#include "playtest/diagnose/replay.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::string trace, match = "symptom";
  RecordedModelOptions model;
  SutCliOptions sut;
  std::uint32_t run = 0, attempts = 10;
  std::uint64_t steps = 0;
  double confidence = 0.95;
  bool json = false;
};

int run(const Options& o) {
  const RecordedPlay play = load_recorded_play(o.trace, o.model, o.run);
  const RunRecord& recorded = play.run();
  const TestGraph& g = play.graph;
  StopSignal stop;
  ReplayOptions ro{.attempts = o.attempts, .confidence = o.confidence, .match = parse_failure_match(o.match)};
  ro.run.max_steps = o.steps ? o.steps : 2 * recorded.trace.size() + 100;
  ro.run.stop = &stop;
  ro.run.values = play.loaded.values;
  apply_timeouts(g, o.sut, ro.run);
  SubprocessOptions so = job_options(subprocess_options(o.sut), 1);  // {job} and PLAYTEST_JOB as in run
  so.stop = &stop;
  const std::vector<std::string> params = param_environment(play.loaded.model.get());
  so.environment.insert(so.environment.end(), params.begin(), params.end());
  SubprocessAdapter adapter(so);
  const InterruptScope interrupts(stop);
  const ReplayResult r = replay(g, play.target, adapter, ro);
  const ReplayContext c{.trace = o.trace, .model = play.model, .run = recorded.run};
  if (o.json)
    print_json(replay_json(r, c));
  else
    write_replay_text(std::cout, r, c);
  return r.interrupted ? interrupted_exit_code(stop) : exit_code_of(r.outcome());
}

const Registration reg{
    "replay", 70, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "replay",
          "Play a recorded run's stimuli again, K times: how often the same verdict (failure) comes back, with a "
          "confidence interval; where the system chooses differently the model is followed and the divergence shown.\n"
          "Exit code: the recorded verdict's when it came back at least once (1 FAIL), else the attempts' (a PASS "
          "counting as 4 INCONCLUSIVE).");
      sub->add_option("TRACE", o->trace, "JSONL trace written by run --trace (or shrink)")->required();
      add_recorded_model_options(sub, o->model,
                                 "The model the trace was recorded with (default: the one the trace names)");
      sub->add_option("--run", o->run, "Which run of the trace (default: the first FAIL, else the first)")
          ->check(positive_integer());
      add_sut_options(sub, o->sut);
      sub->add_option("--attempts", o->attempts, "K: how many times to replay")
          ->default_val(10)
          ->check(positive_integer());
      sub->add_option("--confidence", o->confidence, "Level of the rate's Wilson interval")->default_val(0.95);
      sub->add_option("--match", o->match,
                      "When a failure is the same: symptom (same output where the same outputs are allowed), vertex "
                      "(at the same vertex too), verdict (any FAIL)")
          ->check(CLI::IsMember({"symptom", "vertex", "verdict"}))
          ->default_val("symptom");
      sub->add_option("--steps", o->steps, "Step budget per attempt (default: twice the recorded steps + 100)")
          ->check(non_negative_integer());
      sub->add_flag("--json", o->json, "Print the result as JSON");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
