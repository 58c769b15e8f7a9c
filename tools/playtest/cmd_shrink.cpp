// playtest shrink TRACE --sut COMMAND -o MIN.jsonl: a shortest stimulus sequence that still fails
// as often as a threshold asks (delta debugging over the stimuli the model can play, each candidate
// tried up to K times; docs/diagnosis.md). Writes the minimal run's trace and prints how to replay it.
#include <fmt/format.h>

#include <cstdio>

#include "command.hpp"
#include "common.hpp"
#include "diagnose_options.hpp"
#include "option_checks.hpp"
#include "playtest/diagnose/render.hpp"
#include "playtest/diagnose/shrink.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::string trace, model, output, match = "symptom";
  SutCliOptions sut;
  std::uint32_t run = 0, attempts = 10;
  double threshold = 0, budget_s = 0, confidence = 0.95;
  bool json = false;
};

int run(const Options& o) {
  const RecordedTrace trace = load_trace(o.trace);
  const RecordedRun& recorded = select_run(trace, o.run);
  const std::string model = model_path(o.model, recorded);
  const TestGraph g = load_input(InputOptions{.path = model});
  const ReplayTarget target = replay_target(g, recorded, trace.source);
  ShrinkOptions so{
      .replay = {.attempts = o.attempts, .confidence = o.confidence, .match = parse_failure_match(o.match)},
      .threshold = o.threshold,
      .budget = std::chrono::milliseconds(static_cast<std::int64_t>(o.budget_s * 1000))};
  so.replay.run.max_steps = 2 * recorded.steps.size() + 100;
  apply_timeouts(g, o.sut, so.replay.run);
  Output out(o.output);  // opened first: a bad path is an error before minutes of shrinking
  SubprocessAdapter adapter(subprocess_options(o.sut));
  const ShrinkResult r = shrink(g, target, adapter, so);
  ShrinkContext c{.trace = o.trace, .model = model};
  if (r.witness) {
    write_trace(out.stream(), g, r.witness->result, {.seed = recorded.seed, .model = model});
    c.output = o.output;
    c.replay_command = fmt::format("playtest replay {} --model {}{} --attempts {}", shell_quote(o.output),
                                   shell_quote(model), sut_arguments(o.sut), o.attempts);
  }
  out.close();
  if (!r.witness && o.output != "-") std::remove(o.output.c_str());  // nothing failed: no trace to keep
  if (o.json)
    fmt::print("{}\n", shrink_json(r, c).dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  else
    fmt::print("{}", shrink_text(r, c));
  return r.reproduced && r.minimal_rate.successes > 0 ? exit_fail : exit_inconclusive;
}

const Registration reg{
    "shrink", 71, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "shrink",
          "Shrink a failing run to a shortest stimulus sequence that still fails (delta debugging over sequences the "
          "model can play; each candidate tried up to K times).\n"
          "Exit codes: 1 the minimal sequence fails (FAIL), 4 the failure did not come back (INCONCLUSIVE).");
      sub->add_option("TRACE", o->trace, "JSONL trace with a FAIL run (run --trace)")->required();
      sub->add_option("-o,--output", o->output, "Write the minimal run's trace here")->required();
      sub->add_option("--model", o->model, "The model the trace was recorded with (default: the one the trace names)");
      sub->add_option("--run", o->run, "Which run of the trace (default: the first FAIL)")->check(positive_integer());
      add_sut_options(sub, o->sut);
      sub->add_option("--attempts", o->attempts, "K: tries per candidate")->default_val(10)->check(positive_integer());
      sub->add_option("--threshold", o->threshold,
                      "Keep a candidate failing in at least this fraction of its K tries (default: half the original's "
                      "rate)")
          ->check(CLI::Range(0.0, 1.0));
      sub->add_option("--budget", o->budget_s, "Wall-clock seconds for the search (0: none); the best so far is kept")
          ->default_val(0)
          ->check(non_negative_finite());
      sub->add_option("--confidence", o->confidence, "Level of the rates' Wilson intervals")->default_val(0.95);
      sub->add_option("--match", o->match, "When a failure is the same: symptom, vertex or verdict (see replay --help)")
          ->check(CLI::IsMember({"symptom", "vertex", "verdict"}))
          ->default_val("symptom");
      sub->add_flag("--json", o->json, "Print the result as JSON");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
