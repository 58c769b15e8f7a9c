// A test run as a report shows it: verdict, seed, replay command and the steps, by the names the
// model gives its vertices and edges. Read back from a JSON-lines trace (docs/testing.md, "Reports")
// or made from a RunResult right after the run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/run/runner.hpp"

namespace playtest::report {

struct StepRecord {
  std::uint64_t step = 0;  // 1-based
  double time_ms = 0;      // since the start of the run
  StepKind kind = StepKind::stimulus;
  std::string vertex;      // where the step starts
  std::string label;       // "" for reset and silence
  std::string edge;        // the edge's id; "" for reset, unexpected, silence
  std::string to;          // "" for unexpected and silence
  std::uint32_t line = 0;  // line of the trace file (0: not read from a file)
};

struct RunRecord {
  std::string source;      // the trace file it was read from ("" when made from a RunResult)
  std::uint32_t line = 0;  // line of its "begin" event in `source`
  std::uint32_t run = 1;   // its number in the campaign (1-based)
  std::uint64_t seed = 0;
  std::string strategy;
  std::string model;   // the model file, when recorded
  std::string replay;  // the command that replays this run, when recorded
  // Empty when the trace has no "end" event: playtest or the machine died during the run.
  std::optional<Verdict> verdict;
  std::string message;
  std::uint64_t steps = 0, resets = 0;
  double elapsed_ms = 0;  // the last step's time when the trace does not say
  // FAIL: where, what the model allowed there, and what came (nullopt: silence).
  std::string fail_vertex;
  std::vector<std::string> allowed;
  std::optional<std::string> observed;
  std::vector<StepRecord> trace;
  std::vector<std::string> notes;  // what the reader noticed (a cut-off last line, ...)
};

// What the trace writer records beside the steps (JsonlTraceWriter::begin_run).
struct RunContext {
  std::string strategy;
  std::string model;   // the model file as the user gave it
  std::string replay;  // a shell command that replays the run
};

// The runs of one JSON-lines trace (the format of JsonlTraceWriter). `source` names the input in
// messages. Throws ParseError (located: source:line:column) on a line that is not a trace event;
// a last line cut off in the middle (the writer was killed) is dropped with a note on the run.
// A trace without any event is a ParseError too.
std::vector<RunRecord> read_trace(std::istream& in, std::string_view source);

// The record of a run that just ended.
RunRecord run_record(const TestGraph& g, const RunResult& r, std::uint32_t run, const RunContext& context);

std::optional<Verdict> parse_verdict(std::string_view s);     // "PASS" ...
std::optional<StepKind> parse_step_kind(std::string_view s);  // "stimulus" ...

}  // namespace playtest::report
