// Reading the run trace back (the JSON lines of run/trace_writer.hpp, docs/testing.md): one typed
// record per run with its steps by name, each with the line it came from, so that replay, shrink and
// learn can resolve it against a model and point at the offending line when it does not fit.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/run/runner.hpp"

namespace playtest {

struct RecordedStep {
  std::uint64_t step = 0;  // as written (1-based within the run)
  double time_ms = 0;
  StepKind kind = StepKind::stimulus;
  std::string vertex;      // where the step started
  std::string label;       // "" for resets and silence
  std::string edge;        // "" when the line has none (reset, unexpected, silence)
  std::string to;          // "" when the line has none (unexpected, silence)
  std::uint32_t line = 0;  // line of the trace file
};

struct RecordedRun {
  std::uint32_t run = 1;
  std::uint64_t seed = 0;
  std::string strategy;
  std::string model;  // the model file the run was recorded with, when the trace names it; else ""
  std::vector<RecordedStep> steps;
  bool ended = false;                       // an "end" line was read (a run cut short by a crash has none)
  Verdict verdict = Verdict::inconclusive;  // from the "end" line
  std::string message;
  std::uint32_t line = 0;  // line of the "begin" event (or of the run's first line)
};

struct RecordedTrace {
  std::string source;  // the file name, for messages
  std::vector<RecordedRun> runs;
};

// Reads a JSONL trace. Throws ParseError located at file:line for a line that is not a JSON object,
// lacks "event", has an unknown step kind or verdict, or mistyped fields; and for a trace with no
// run. Lines with other "event" values are skipped (later versions may add events).
RecordedTrace read_trace(std::istream& in, const std::string& source_name);
// Reads the file at `path` ("-": standard input); ParseError when it cannot be opened.
RecordedTrace load_trace(const std::string& path);

// The run to work on: number `run` (1-based as written) when given, else the first FAIL run, else
// the first run. Throws UsageError("run") when `run` is not in the trace.
const RecordedRun& select_run(const RecordedTrace& t, std::uint32_t run = 0);

// "StepKind" and "Verdict" from their trace spellings; false when unknown.
bool parse_step_kind(std::string_view s, StepKind& out);
bool parse_verdict(std::string_view s, Verdict& out);

struct TraceHeader {
  std::uint32_t run = 1;
  std::uint64_t seed = 0;
  std::string strategy = "replay";
  std::string model;  // written as "model" in the begin line when not empty
};
// Writes one run (r.trace must be kept) as a JSONL trace that read_trace reads back.
void write_trace(std::ostream& out, const TestGraph& g, const RunResult& r, const TraceHeader& header);

}  // namespace playtest
