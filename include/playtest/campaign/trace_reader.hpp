// Reading a run trace back: the JSON lines JsonlTraceWriter writes (campaign/trace_writer.hpp,
// docs/testing.md "Traces"). One reader for every consumer: the HTML report, replay, shrink and
// learn. Steps keep the names the model gives their vertices and edges and the line they came from,
// so a consumer can resolve them against a model and point at the offending line.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/campaign/shard.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/evidence.hpp"

namespace playtest {

struct StepRecord {
  std::uint64_t step = 0;  // 1-based within the run
  double time_ms = 0;      // since the start of the run
  StepKind kind = StepKind::stimulus;
  std::string vertex;      // where the step starts
  std::string label;       // "" for reset and silence
  std::string edge;        // the edge's id; "" for reset, unexpected, silence
  std::string to;          // "" for unexpected and silence
  std::string concrete;    // the label with the system's values, when it differs (TraceStep::concrete)
  std::uint32_t line = 0;  // line of the trace file (0: not read from a file)
};

// A claim about the system a run stopped on (RunResult::stopped_by, strategy/claims.hpp), by the
// model's names, with its sentence as written.
struct ClaimRecord {
  std::string vertex, label, edge;
  std::uint64_t visits = 0;
  std::uint32_t histories = 0;
  double rate = 1;  // rate_ruled_out_above
  double confidence = 0;
  std::uint32_t edges_behind = 0;
  std::string text;
};

struct RunRecord {
  std::string source;      // the trace file it was read from ("" when made from a RunResult)
  std::uint32_t line = 0;  // line of its "begin" event (or of its first line) in `source`
  std::uint32_t run = 1;   // its number in the campaign (1-based)
  std::uint64_t seed = 0;
  std::string strategy;
  std::string model;                // the model file, when recorded (a run without a begin line inherits it)
  std::vector<std::string> params;  // the model program's parameters (NAME=VALUE), as recorded
  std::string replay;               // the command that replays this run, when recorded
  // Empty when the trace has no "end" event: playtest or the machine died during the run.
  std::optional<Verdict> verdict;
  bool interrupted = false;  // the end says a stop request ended it (a signal, or --fail-fast: no signal)
  std::string signal;        // the signal that did ("SIGTERM"), "" for none
  std::string message;
  std::uint64_t steps = 0, resets = 0;
  double elapsed_ms = 0;  // the last step's time when the trace does not say
  // FAIL: where, what the model allowed there, and what came (nullopt: silence).
  std::string fail_vertex;
  std::vector<std::string> allowed;
  std::optional<std::string> observed;
  std::vector<StepRecord> trace;
  std::vector<std::string> notes;  // what the reader noticed (a cut-off last line, ...)
  // The run stopped because continuing was futile (the end's "stopped_by" and
  // "untestable_edges", RunResult::stopped_by).
  std::vector<ClaimRecord> stopped_by;
  std::uint32_t untestable_edges = 0;
};

// A trace's campaign line (JsonlTraceWriter::write_campaign): how many runs the campaign had and
// which of them this trace should hold.
struct RecordedCampaign {
  std::uint32_t runs = 0;
  std::uint64_t seed = 0;
  Shard shard;
  bool fail_fast = false;
  std::uint32_t line = 0;
  std::string identity;  // the line without its shard: equal for every file of one campaign
};

struct RecordedTrace {
  std::string source;   // the file name, for messages ("-": standard input)
  std::string file_id;  // load_trace: the file's device and inode ("" for standard input, a stream)
  std::optional<RecordedCampaign> campaign;  // when the trace starts with its campaign line
  std::vector<RunRecord> runs;
};

// The runs the trace's campaign line promises that it does not hold for any stated reason (the
// campaign was not stopped by a signal or --fail-fast before them): a trace cut short (playtest
// killed with SIGKILL between runs) or edited. None without a campaign line.
MissingRuns missing_runs(const RecordedTrace& t);

// Reads a JSON-lines trace. Throws ParseError, located at source:line and the JSON pointer of the
// offending field, for a line that is not a JSON object, lacks "event", has an unknown event, step
// kind or verdict, mistyped fields, or a step without the fields its kind needs ("to" for a step
// that moves, "label" for stimulus, observation and wait); and for a trace without any run. A last
// line cut off in the middle (the writer was killed) is dropped with a note on its run. The
// campaign's own line (run count, seed, shard) is skipped.
RecordedTrace read_trace(std::istream& in, std::string_view source);
// Reads the file at `path` ("-": standard input); InputError when it cannot be opened or read.
RecordedTrace load_trace(const std::string& path);

// A recorded run's steps resolved against a model: per step the vertex it starts at, the edge it
// followed and the vertex it led to (none where the step has none), and the failing vertex.
struct ResolvedRun {
  std::vector<VertexId> from, to;
  std::vector<EdgeId> edge;
  VertexId fail_vertex = VertexId::none();
};
// Checks every step of `run` against `g` as the runner would have made it, and resolves it: the one
// check behind report, learn and replay, so that none accepts a trace another refuses. Throws
// GraphError located at the step's line (with the note "is the model the one the trace was
// recorded with?") for a vertex or edge the model does not have; an edge that leaves another
// vertex, leads elsewhere or has another label; a stimulus the model does not offer there, an
// output it does not allow there (observation) or one it allows (unexpected), a timeout where there
// is no timeout edge or silence where there is one, a wait without an observe edge, a reset
// without "reset" or that does not lead to the initial vertex. Steps without an edge id (a model
// played on the fly) are resolved by their labels.
ResolvedRun resolve_run(const TestGraph& g, const RunRecord& run);

// Adds what the system showed in a resolved run to `into` as the runner records it
// (strategy/evidence.hpp): every outcome at a passive vertex with its history, every edge on the
// path, a cut at each reset and at the run's start. Claims made from a trace (report) rest on
// exactly what the trace holds.
void add_evidence(Evidence& into, const TestGraph& g, const RunRecord& run, const ResolvedRun& resolved);

// Refuses (InputError) traces that would count a run twice: the same file given twice (under any
// name), or a copy of a run in two files (one run of one campaign, equal campaign lines but for the
// shard, with the same times measured to the microsecond).
void refuse_repeated_runs(std::span<const RecordedTrace> traces);

// Checks the model file a recorded run names (its begin line's "model") before anything reads it:
// a trace may come from anywhere, and its "model" may name any file ("/etc/passwd", "/dev/zero"),
// whose lines an error message would quote. Throws InputError, located at the run's begin line
// with a note to give the model explicitly, unless the path is a regular file with a model's
// extension (.json, .ptm, .aut, .tra) whose beginning looks like one (JSON: an object that has a
// "playtest" key near its start; .aut: "des ("; .tra: a line of numbers).
void check_recorded_model(const RunRecord& run);

// The run to work on: number `run` (1-based as written) when given, else the first FAIL run, else
// the first run. Throws UsageError("run") when `run` is not in the trace.
const RunRecord& select_run(const RecordedTrace& t, std::uint32_t run = 0);

std::optional<Verdict> parse_verdict(std::string_view s);     // "PASS" ...
std::optional<StepKind> parse_step_kind(std::string_view s);  // "stimulus" ...

}  // namespace playtest
