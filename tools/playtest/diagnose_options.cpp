#include "diagnose_options.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/base/error.hpp"
#include "playtest/campaign/trace_writer.hpp"

namespace playtest::cli {

void add_sut_options(CLI::App* sub, SutCliOptions& o) {
  sub->add_option("--sut", o.sut, "Adapter command, run with /bin/sh -c (docs/adapter-protocol.md)")->required();
  sub->add_option("--sut-stderr", o.sut_stderr,
                  "The adapter's stderr: inherit (default), discard, or a FILE (appended)");
  // At least 1 ms: a wait of 0 would see silence at every passive vertex, a false FAIL of a correct system.
  sub->add_option("--timeout-ms", o.timeout_ms, "Wait for an output at a passive vertex")
      ->default_val(1000)
      ->check(positive_integer());
  sub->add_option("--vertex-timeout", o.vertex_timeouts, "VERTEX=MS: the wait at one passive vertex (repeatable)");
  sub->add_option("--ack-timeout-ms", o.ack_timeout_ms, "Wait for the adapter's ack of a stimulus")
      ->default_val(5000)
      ->check(positive_integer());
  sub->add_option("--ready-timeout-ms", o.ready_timeout_ms, "Wait for the adapter's ready (start, reset)")
      ->default_val(5000)
      ->check(positive_integer());
}

std::string sut_arguments(const SutCliOptions& o) {
  std::string s = " --sut " + shell_quote(o.sut);
  if (o.timeout_ms != 1000) s += fmt::format(" --timeout-ms {}", o.timeout_ms);
  for (const std::string& vt : o.vertex_timeouts) s += " --vertex-timeout " + shell_quote(vt);
  if (o.ack_timeout_ms != 5000) s += fmt::format(" --ack-timeout-ms {}", o.ack_timeout_ms);
  if (o.ready_timeout_ms != 5000) s += fmt::format(" --ready-timeout-ms {}", o.ready_timeout_ms);
  if (!o.sut_stderr.empty()) s += " --sut-stderr " + shell_quote(o.sut_stderr);
  return s;
}

std::string model_path(const std::string& model, const RunRecord& run) {
  if (!model.empty()) return model;
  if (!run.model.empty()) return run.model;
  throw UsageError("model", "the trace does not name the model it was recorded with; give it");
}

void add_recorded_model_options(CLI::App* sub, RecordedModelOptions& o, const std::string& model_help) {
  sub->add_option("--model", o.model, model_help);
  sub->add_option("--param", o.params,
                  "Model programs: NAME=VALUE sets a 'param' (default: the parameters the trace recorded)");
  sub->add_option("--max-states", o.max_states, "Model programs: stop exploring after this many vertices")
      ->default_val(10'000'000)
      ->check(positive_integer());
}

InputOptions recorded_model_input(const RecordedModelOptions& o, const RunRecord& run) {
  InputOptions in;
  in.path = model_path(o.model, run);
  if (o.model.empty()) check_recorded_model(run);  // the trace's word for it: checked before it is read
  in.params = o.params.empty() ? run.params : o.params;
  in.max_states = o.max_states;
  return in;
}

RecordedPlay load_recorded_play(const std::string& trace_file, const RecordedModelOptions& model, std::uint32_t run) {
  RecordedPlay p;
  p.trace = load_trace(trace_file);
  const RunRecord& recorded = select_run(p.trace, run);
  p.run_index = static_cast<std::size_t>(&recorded - p.trace.runs.data());
  InputOptions input = recorded_model_input(model, recorded);
  p.model = input.path;
  p.params = input.params;
  input.values = true;
  p.loaded = load_input(input);
  p.graph = std::move(*p.loaded.graph);
  p.loaded.graph.reset();
  p.target = replay_target(p.graph, recorded, p.trace.source);
  return p;
}

void add_shrink_options(CLI::App* sub, ShrinkCliOptions& o, const std::string& prefix) {
  sub->add_option("--" + prefix + "attempts", o.attempts, "K: tries per candidate")
      ->default_val(10)
      ->check(positive_integer());
  // 0 is not "the default": a candidate that never fails is never kept, so 0 would mean nothing.
  sub->add_option("--" + prefix + "threshold", o.threshold,
                  "Keep a candidate failing in at least this fraction of its K tries (default: half the original's "
                  "rate)")
      ->check(number_check([](double v) { return v > 0 && v <= 1; },
                           "a fraction above 0 and at most 1 (leave the option out for half the original's rate)",
                           "FRACTION"));
  sub->add_option("--" + prefix + "budget", o.budget_s,
                  "Wall-clock seconds for the search (0: none); the best so far is kept")
      ->default_val(0)
      ->check(non_negative_finite());
  sub->add_option("--" + prefix + "confidence", o.confidence, "Level of the rates' Wilson intervals")
      ->default_val(0.95);
  sub->add_option("--" + prefix + "match", o.match,
                  "When a failure is the same: symptom (same output where the same outputs are allowed), vertex "
                  "(at the same vertex too), verdict (any FAIL)")
      ->check(CLI::IsMember({"symptom", "vertex", "verdict"}))
      ->default_val("symptom");
}

ShrinkToFileOptions shrink_to_file_options(const ShrinkCliOptions& o, const SutCliOptions& sut,
                                           const std::string& trace, const std::string& model,
                                           const std::vector<std::string>& params) {
  ShrinkToFileOptions out{
      .output = o.output,
      .shrink = {.replay = {.attempts = o.attempts, .confidence = o.confidence, .match = parse_failure_match(o.match)},
                 .threshold = o.threshold,
                 .budget = std::chrono::milliseconds(static_cast<std::int64_t>(o.budget_s * 1000))},
      .trace = trace,
      .model = model,
      .params = params};
  out.replay = [model, sut, attempts = o.attempts](const std::string& output) {
    return fmt::format("{} replay {} --model {}{} --attempts {}", program_name(), shell_quote(output),
                       shell_quote(model), sut_arguments(sut), attempts);
  };
  return out;
}

}  // namespace playtest::cli
