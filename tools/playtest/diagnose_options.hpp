// Options shared by the diagnosis commands (replay, shrink, learn; run --shrink): the system under
// test and its timeouts, the model a trace was recorded with, and turning them back into the
// command line that reproduces a run. Only glue; the work is in include/playtest/diagnose/.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "playtest/diagnose/trace_file.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/subprocess_adapter.hpp"

namespace playtest::cli {

struct SutCliOptions {
  std::string sut;
  std::string sut_stderr;
  std::uint32_t timeout_ms = 1000, ack_timeout_ms = 5000, ready_timeout_ms = 5000;
  std::vector<std::string> vertex_timeouts;  // VERTEX=MS
};

// --sut (required), --sut-stderr, --timeout-ms, --vertex-timeout, --ack-timeout-ms, --ready-timeout-ms.
void add_sut_options(CLI::App* sub, SutCliOptions& o);
// The subprocess adapter's options; UsageError("sut_stderr") when the stderr file cannot be opened.
SubprocessOptions subprocess_options(const SutCliOptions& o);
// The timeouts into `ro` (vertex timeouts resolved in `g`; UsageError("vertex_timeout") when malformed).
void apply_timeouts(const TestGraph& g, const SutCliOptions& o, RunOptions& ro);
// " --sut 'CMD' --timeout-ms N ..." as the user would type them (only what differs from the defaults).
std::string sut_arguments(const SutCliOptions& o);

// The word quoted for /bin/sh when it needs quoting.
std::string shell_quote(const std::string& word);

// The model to follow: `model` when given, else the one the trace's run names; UsageError("model")
// when neither.
std::string model_path(const std::string& model, const RecordedRun& run);

// The exit code of a verdict (0 PASS, 1 FAIL, 4 INCONCLUSIVE, 3 ERROR).
int verdict_exit_code(Verdict v);

}  // namespace playtest::cli
