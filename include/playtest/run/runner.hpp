// The online test runner: plays a Policy (the tester) against a system under test through an
// Adapter, following the model (seed 001 §1, seed 000 §3): at an active vertex the policy picks an
// edge and its label goes to the SUT as a stimulus; at a passive vertex the SUT's next output picks
// the edge with that label, and silence until the timeout follows the timeout edge. Every observation
// is judged; one the model does not allow is a FAIL.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/game_graph.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/run/adapter.hpp"
#include "playtest/run/stop_signal.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/evidence.hpp"
#include "playtest/strategy/policy.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

struct ValueContext;  // run/run_values.hpp

enum class Verdict : std::uint8_t {
  pass,          // no failure, the test purpose was met
  fail,          // the SUT did something the model does not allow
  inconclusive,  // no failure, the purpose was not met within the budget
  error,         // the adapter died, spoke garbage or hung
};
std::string_view to_string(Verdict v);  // "PASS", "FAIL", "INCONCLUSIVE", "ERROR"
// The verdict of several runs: FAIL over ERROR over INCONCLUSIVE over PASS.
Verdict combine(Verdict a, Verdict b);

struct RunOptions {
  TestPurpose purpose;
  std::uint64_t max_steps = 1000;            // steps (stimuli, observations, resets); 0: no limit
  std::chrono::milliseconds time_budget{0};  // wall clock for one run; 0: no limit
  // The wait for an output at a passive vertex: vertex_timeouts[v] when given (> 0), else the
  // graph's own (TestGraph::timeout_ms: graph/1 "timeout_ms", a model's `timeout after`), else `timeout`.
  std::chrono::milliseconds timeout{1000};
  std::vector<std::chrono::milliseconds> vertex_timeouts;  // per VertexId; empty or 0: none
  std::uint64_t seed = 0;                                  // the policy's random choices
  bool reset_on_dead_end = true;  // at an active vertex without out-edges, reset if the graph allows it
  bool keep_trace = true;         // keep every step in RunResult::trace
  // What the system shows (RunResult::evidence, strategy/evidence.hpp) is recorded per passive
  // vertex and per history of up to this many edges (at most Evidence::max_context_limit).
  std::uint32_t evidence_context = 3;
  // Adaptive runs (issue 31, strategy/claims.hpp): when what the purpose still wants is left only
  // behind outcomes the system never chose, each ruled out above claims.rare_rate at claims.
  // confidence at its vertex and in every history of the last edges the run can offer there, the
  // run stops INCONCLUSIVE and names them (continuing would be futile). false: never stop so.
  bool stop_when_futile = false;
  ClaimOptions claims;
  // Checked between steps (and by adapters that wait): once requested, the run ends with the
  // verdict ERROR and RunResult::interrupted set. nullptr: runs cannot be stopped from outside.
  const StopSignal* stop = nullptr;
  // A model whose labels hold values (slots, free values, run-time guards): outputs are matched by
  // value and stimuli sent with their concrete values (run/run_values.hpp). Null (or a model
  // without values): labels are matched as they are.
  std::shared_ptr<const ValueContext> values;
};

enum class StepKind : std::uint8_t {
  stimulus,     // the tester took an edge out of an active vertex
  observation,  // the SUT produced an output the model allows
  timeout,      // silence at a passive vertex: its timeout edge was followed
  reset,        // the SUT was reset to the initial vertex
  unexpected,   // an output the model does not allow here (the failing step)
  silence,      // silence at a passive vertex without a timeout edge (the failing step)
  wait,         // the tester waited, sending nothing: an "observe" edge (it waits for an output, ioco graphs
                // and `anytime` outputs) or a delay edge (it waited the edge's delay_ms)
};
std::string_view to_string(StepKind k);

struct TraceStep {
  std::uint64_t step = 0;  // 1-based
  double time_ms = 0;      // since the start of the run
  StepKind kind = StepKind::stimulus;
  VertexId from;
  EdgeId edge;  // none for reset, unexpected, silence
  VertexId to;  // == from for unexpected and silence
  std::string label;
  // With a model whose labels hold values (docs/language.md "Values the system chooses"): the label
  // as the system saw or wrote it, with the concrete values ("Delete(17)" for "Delete(Job#0)");
  // empty when it is `label` itself.
  std::string concrete;
};

struct Coverage {
  std::uint32_t edges_covered = 0, edges_total = 0;
  std::uint32_t labels_covered = 0, labels_total = 0;
};
// Over the graph's coverable edges (GameGraph::is_coverable): every edge of an explored graph; on the
// fly what has been discovered (the reached vertices' edges and their labels), the totals unknown.
Coverage coverage_of(const GameGraph& g, std::span<const std::uint32_t> edge_visits);

struct RunResult {
  Verdict verdict = Verdict::inconclusive;
  std::string message;    // why this verdict, one line
  std::uint32_t run = 0;  // the run's index (1-based) in its campaign (run_campaign); 0 for a lone run
  std::uint64_t seed = 0;
  std::uint64_t steps = 0, resets = 0;
  double elapsed_ms = 0;
  bool purpose_met = false;
  VertexId final_vertex;
  // For FAIL: where, what the model allowed there, and what came ("" for silence).
  VertexId fail_vertex;
  std::vector<std::string> allowed;
  std::string observed;
  // The stimulus the system refused, when the run ended so (its label in the model).
  std::string refused;
  std::vector<TraceStep> trace;            // empty unless RunOptions::keep_trace
  std::vector<std::uint32_t> edge_visits;  // per EdgeId
  Coverage coverage;
  // The run was stopped from outside (RunOptions::stop) before it ended on its own: verdict ERROR,
  // nothing is claimed about the system. `signal` is the signal that stopped it (0: none).
  bool interrupted = false;
  int signal = 0;
  // The model itself failed during the run (on the fly: a runtime error in a state reached only
  // now, e.g. a value out of its range): verdict ERROR, nothing is claimed about the system; the
  // located error is here. (On an explored graph such errors are found before any run.)
  std::optional<Diagnostic> model_error;
  // What the system showed in this run (its own counts, strategy/evidence.hpp): every outcome at a
  // passive vertex, per vertex and per history. Never null after Runner::run.
  std::shared_ptr<const Evidence> evidence;
  // The run stopped because its purpose was left only behind futile outcomes
  // (RunOptions::stop_when_futile): what it claims of them, and the wanted edges no run can reach.
  std::vector<OutcomeClaim> stopped_by;
  std::uint32_t untestable_edges = 0;
};

// Receives each step as it happens (to write a trace that survives a crash). `g` is the graph the
// run plays on.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void on_step(const GameGraph& g, const TraceStep& step) {
    (void)g;
    (void)step;
  }
  virtual void on_end(const GameGraph& g, const RunResult& result) {
    (void)g;
    (void)result;
  }
};

// Per-vertex waits from "VERTEX=MS" specs, as RunOptions::vertex_timeouts (one entry per vertex, 0
// where none was given; empty when `specs` is). Throws UsageError("vertex_timeout") for a
// malformed spec and GraphError for an unknown vertex.
std::vector<std::chrono::milliseconds> vertex_timeouts_from_specs(const TestGraph& g,
                                                                  std::span<const std::string> specs);

// Throws GraphError when `g` cannot drive an online test: two outputs of a passive vertex (or two
// stimuli of an active vertex) share a label, so an observation would not tell the edge; or a
// label contains a line break (it could not cross the adapter protocol).
void check_online_testable(const TestGraph& g);

// The runner: plays on any GameGraph, an explored TestGraph or a model explored on the fly (a
// ModelGraph: vertices are expanded when a run reaches them).
class Runner {
 public:
  // Checks the graph (check_online_testable) and the options; throws GraphError / UsageError. On
  // a graph explored on the fly (checked vertex by vertex as it is expanded) the purpose's goals are
  // the model's final states and its edges every edge the runs discover: RunOptions::purpose must
  // name none (UsageError("goals") / ("edges")), and there are no per-vertex timeouts. Keeps a
  // reference to `g`.
  Runner(const GameGraph& g, RunOptions options);

  // One test run: adapter.start(), the game loop, adapter.finish(). Adapter failures become ERROR.
  // `seed` overrides RunOptions::seed for this run. `prior`: what earlier runs of the campaign
  // showed (it must have RunOptions::evidence_context and outlive the run); the policy sees it and
  // this run's own evidence together (RunView::evidence).
  RunResult run(Policy& policy, Adapter& adapter, RunObserver* observer = nullptr,
                std::optional<std::uint64_t> seed = std::nullopt, const Evidence* prior = nullptr) const;

  const RunOptions& options() const { return options_; }
  const GameGraph& graph() const { return g_; }
  // The purpose's edges as per-edge flags (empty when every edge counts), as RunView shows them.
  std::span<const std::uint8_t> purpose_edges() const { return purpose_edges_; }
  std::span<const VertexId> goals() const { return goals_; }
  // How many edges the cover purpose asks for (every edge when purpose_edges() is empty); 0 otherwise.
  // On the fly: the edges discovered so far.
  std::uint32_t purpose_edge_count() const;
  // A cover purpose by label (TestPurpose::by_label): the labels it asks for, as per-label flags
  // (indexed by LabelId), and how many; empty and 0 otherwise.
  std::span<const std::uint8_t> purpose_labels() const { return purpose_labels_; }
  std::uint32_t purpose_label_count() const { return purpose_label_count_; }
  // How many edges (labels, by_label) meet the cover purpose: all of them, or its threshold's share.
  std::uint32_t purpose_needed() const { return purpose_needed_; }

 private:
  const GameGraph& g_;
  RunOptions options_;
  std::vector<std::uint8_t> purpose_edges_;
  std::vector<std::uint8_t> is_goal_;
  std::vector<VertexId> goals_;
  std::uint32_t purpose_edge_count_ = 0;
  std::vector<std::uint8_t> purpose_labels_;
  std::uint32_t purpose_label_count_ = 0;
  std::uint32_t purpose_needed_ = 0;
};

}  // namespace playtest
