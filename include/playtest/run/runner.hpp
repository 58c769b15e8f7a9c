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

#include "playtest/error.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/run/adapter.hpp"
#include "playtest/run/stop_signal.hpp"
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
  std::uint64_t max_steps = 1000;                          // steps (stimuli, observations, resets); 0: no limit
  std::chrono::milliseconds time_budget{0};                // wall clock for one run; 0: no limit
  // The wait for an output at a passive vertex: vertex_timeouts[v] when given (> 0), else the
  // graph's own (TestGraph::timeout_ms: graph/1 "timeout_ms", a model's `timeout after`), else `timeout`.
  std::chrono::milliseconds timeout{1000};
  std::vector<std::chrono::milliseconds> vertex_timeouts;  // per VertexId; empty or 0: none
  std::uint64_t seed = 0;                                  // the policy's random choices
  bool reset_on_dead_end = true;  // at an active vertex without out-edges, reset if the graph allows it
  bool keep_trace = true;         // keep every step in RunResult::trace
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
Coverage coverage_of(const TestGraph& g, std::span<const std::uint32_t> edge_visits);
// On the fly: over what has been discovered (the reached vertices' edges and their labels); the
// model's totals are unknown.
Coverage coverage_of(const ModelGraph& g, std::span<const std::uint32_t> edge_visits);

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
};

// Receives each step as it happens (to write a trace that survives a crash). `G` is the graph the
// run plays on (RunObserver: a TestGraph; ModelRunObserver: a model explored on the fly).
template <class G>
class BasicRunObserver {
 public:
  virtual ~BasicRunObserver() = default;
  virtual void on_step(const G& g, const TraceStep& step) {
    (void)g;
    (void)step;
  }
  virtual void on_end(const G& g, const RunResult& result) {
    (void)g;
    (void)result;
  }
};
using RunObserver = BasicRunObserver<TestGraph>;
using ModelRunObserver = BasicRunObserver<ModelGraph>;

// Per-vertex waits from "VERTEX=MS" specs, as RunOptions::vertex_timeouts (one entry per vertex, 0
// where none was given; empty when `specs` is). Throws UsageError("vertex_timeout") for a
// malformed spec and GraphError for an unknown vertex.
std::vector<std::chrono::milliseconds> vertex_timeouts_from_specs(const TestGraph& g,
                                                                  std::span<const std::string> specs);

// Throws GraphError when `g` cannot drive an online test: two outputs of a passive vertex (or two
// stimuli of an active vertex) share a label, so an observation would not tell the edge; or a
// label contains a line break (it could not cross the adapter protocol).
void check_online_testable(const TestGraph& g);

// The runner of one graph type: Runner plays on a TestGraph, ModelRunner on a model explored on the
// fly (ModelGraph: vertices are expanded when a run reaches them). Both share the one game loop
// (runner.cpp's RunSession, a template over the graph).
template <class G>
class BasicRunner {
 public:
  // Checks the graph (check_online_testable) and the options; throws GraphError / UsageError.
  // On a ModelGraph (checked vertex by vertex as it is expanded) the purpose's goals are the model's
  // final states and its edges every edge the runs discover: RunOptions::purpose must name none
  // (UsageError("goals") / ("edges")), and there are no per-vertex timeouts.
  BasicRunner(const G& g, RunOptions options);

  // One test run: adapter.start(), the game loop, adapter.finish(). Adapter failures become ERROR.
  // `seed` overrides RunOptions::seed for this run.
  RunResult run(BasicPolicy<G>& policy, Adapter& adapter, BasicRunObserver<G>* observer = nullptr,
                std::optional<std::uint64_t> seed = std::nullopt) const;

  const RunOptions& options() const { return options_; }
  const G& graph() const { return g_; }
  // The purpose's edges as per-edge flags (empty when every edge counts), as RunView shows them.
  std::span<const std::uint8_t> purpose_edges() const { return purpose_edges_; }
  std::span<const VertexId> goals() const { return goals_; }
  // How many edges the cover purpose asks for (every edge when purpose_edges() is empty); 0 otherwise.
  // On the fly: the edges discovered so far.
  std::uint32_t purpose_edge_count() const;

 private:
  const G& g_;
  RunOptions options_;
  std::vector<std::uint8_t> purpose_edges_;
  std::vector<std::uint8_t> is_goal_;
  std::vector<VertexId> goals_;
  std::uint32_t purpose_edge_count_ = 0;
};

extern template class BasicRunner<TestGraph>;
extern template class BasicRunner<ModelGraph>;
using Runner = BasicRunner<TestGraph>;
using ModelRunner = BasicRunner<ModelGraph>;
using ModelPolicy = BasicPolicy<ModelGraph>;
using ModelRunView = BasicRunView<ModelGraph>;

}  // namespace playtest
