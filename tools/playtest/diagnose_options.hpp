// Options shared by the diagnosis commands (replay, shrink, learn; run --shrink): the system under
// test and its timeouts, the model a trace was recorded with, and turning them back into the
// command line that reproduces a run. Only glue; the work is in include/playtest/diagnose/.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"  // shell_quote
#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/trace_reader.hpp"
#include "playtest/diagnose/render.hpp"
#include "playtest/diagnose/shrink.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/subprocess_adapter.hpp"
#include "playtest/session/plan.hpp"
#include "playtest/session/shrink_after_run.hpp"

namespace playtest::cli {

// The system-under-test options are the library's request (session/plan.hpp).
using SutCliOptions = SutRequest;

// --sut (required), --sut-stderr, --timeout-ms, --vertex-timeout, --ack-timeout-ms, --ready-timeout-ms.
void add_sut_options(CLI::App* sub, SutCliOptions& o);
// " --sut 'CMD' --timeout-ms N ..." as the user would type them (only what differs from the defaults).
std::string sut_arguments(const SutCliOptions& o);

// The model to follow: `model` when given, else the one the trace's run names; UsageError("model")
// when neither.
std::string model_path(const std::string& model, const RunRecord& run);

// The model a recorded run is judged against: --model (default: the trace's), --param (default: the
// parameters the trace recorded, so a run of `--param N=3` is read against N=3) and --max-states.
struct RecordedModelOptions {
  std::string model;
  std::vector<std::string> params;
  std::uint64_t max_states = 10'000'000;
};
// --model (with `model_help`), --param, --max-states.
void add_recorded_model_options(CLI::App* sub, RecordedModelOptions& o, const std::string& model_help);
// The input to load for `run` (model_path; the recorded parameters unless --param was given).
InputOptions recorded_model_input(const RecordedModelOptions& o, const RunRecord& run);

// A recorded run ready to be played again: the trace file read, its run number `run` chosen, the
// model loaded (model_path) and what a replay must reproduce (replay_target).
struct RecordedPlay {
  RecordedTrace trace;
  std::size_t run_index = 0;
  std::string model;
  std::vector<std::string> params;  // the model program's parameters it was loaded with
  TestGraph graph;
  LoadedInput loaded;  // the model program behind `graph` (its values and parameters), if any; graph moved out
  ReplayTarget target;

  const RunRecord& run() const { return trace.runs[run_index]; }
};
RecordedPlay load_recorded_play(const std::string& trace_file, const RecordedModelOptions& model, std::uint32_t run);

// What shrink (and run --shrink) are asked: where the minimal trace goes, K, the threshold, the
// budget and when a failure counts as the same.
struct ShrinkCliOptions {
  std::string output;
  std::uint32_t attempts = 10;
  double threshold = 0, budget_s = 0, confidence = 0.95;
  std::string match = "symptom";
};
// --attempts, --threshold, --budget, --confidence, --match with `prefix` ("" or "shrink-").
void add_shrink_options(CLI::App* sub, ShrinkCliOptions& o, const std::string& prefix);

// The library's shrink-after-run options (session/shrink_after_run.hpp) from shrink's and run --shrink's:
// the replay command it prints runs `playtest replay` on the written trace with the --sut options.
// `trace` and `model` are the files as the user named them; `params` the model program's NAME=VALUE.
ShrinkToFileOptions shrink_to_file_options(const ShrinkCliOptions& o, const SutCliOptions& sut,
                                           const std::string& trace, const std::string& model,
                                           const std::vector<std::string>& params);

}  // namespace playtest::cli
