// The game loop: passive vertices follow the observed output, timeouts follow the timeout edge,
// output at active vertices and silence without a timeout edge are FAILs, resets, budgets, verdicts.
#include <gtest/gtest.h>

#include <deque>

#include "playtest/base/error.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/anti_ant_policy.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "playtest/strategy/table_policy.hpp"

namespace playtest {
namespace {

// An adapter that replays a script of events and records what the runner sent.
class ScriptedAdapter final : public Adapter {
 public:
  std::deque<AdapterEvent> events;       // answers to next_event (nothing when empty)
  std::deque<AdapterEvent> early;        // answers to stimulate
  std::vector<std::string> stimuli;
  int resets = 0, starts = 0, finishes = 0;
  int throw_on_stimulus = -1;            // throw AdapterError on this stimulus index
  bool deliver_on_poll = false;          // answer polls (deadline already passed) from `events` too
  bool hold_until_stimulus = false;      // `events` start only after the first stimulus

  void start() override { ++starts; }
  AdapterEvent stimulate(std::string_view label) override {
    if (static_cast<int>(stimuli.size()) == throw_on_stimulus) throw AdapterError("adapter died");
    stimuli.emplace_back(label);
    if (early.empty()) return AdapterEvent::nothing();
    AdapterEvent e = early.front();
    early.pop_front();
    return e;
  }
  AdapterEvent next_event(Clock::time_point deadline) override {
    if (events.empty() || (deadline <= Clock::now() && !deliver_on_poll) || (hold_until_stimulus && stimuli.empty()))
      return AdapterEvent::nothing();
    AdapterEvent e = events.front();
    events.pop_front();
    return e;
  }
  void reset() override { ++resets; }
  void finish() noexcept override { ++finishes; }
};

// ping -> (passive) pong back to idle, or "err" to a goal; a timeout edge to "slow".
const char* ping_graph = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle", "kind": "active"}, {"id": "wait", "kind": "passive"},
               {"id": "slow", "kind": "active"}, {"id": "done", "kind": "active", "goal": true}],
  "edges": [{"id": "ping", "from": "idle", "to": "wait", "label": "ping"},
            {"id": "pong", "from": "wait", "to": "idle", "label": "pong", "prob": 0.5},
            {"id": "fin", "from": "wait", "to": "done", "label": "fin", "prob": 0.3},
            {"id": "to", "from": "wait", "to": "slow", "label": "tick", "prob": 0.2, "timeout": true},
            {"id": "back", "from": "slow", "to": "idle", "label": "back"}]})";

// Like ping_graph, but "wait" has no timeout edge and the graph is resettable with a dead end.
const char* strict_graph = R"({"playtest": "graph/1", "initial": "idle", "reset": {"cost": 1},
  "vertices": [{"id": "idle", "kind": "active"}, {"id": "wait", "kind": "passive"},
               {"id": "dead", "kind": "active"}],
  "edges": [{"id": "ping", "from": "idle", "to": "wait", "label": "ping"},
            {"id": "stop", "from": "idle", "to": "dead", "label": "stop"},
            {"id": "pong", "from": "wait", "to": "idle", "label": "pong", "prob": 1}]})";

RunOptions reach_options() {
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::reach;
  o.max_steps = 100;
  return o;
}

TEST(Runner, FollowsObservedOutputsToTheGoal) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  a.events = {AdapterEvent::output("pong"), AdapterEvent::output("fin")};
  RandomWalkPolicy p;
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_TRUE(r.purpose_met);
  EXPECT_EQ(a.stimuli, (std::vector<std::string>{"ping", "ping"}));
  ASSERT_EQ(r.trace.size(), 4u);
  EXPECT_EQ(r.trace[0].kind, StepKind::stimulus);
  EXPECT_EQ(r.trace[1].kind, StepKind::observation);
  EXPECT_EQ(r.trace[1].edge, *g.find_edge("pong"));
  EXPECT_EQ(r.trace[3].to, *g.find_vertex("done"));
  EXPECT_EQ(r.steps, 4u);
  EXPECT_EQ(a.starts, 1);
  EXPECT_EQ(a.finishes, 1);
  EXPECT_EQ(r.coverage.edges_covered, 3u);
  EXPECT_EQ(r.coverage.edges_total, 5u);
}

// ping at 'idle', back at 'slow'.
std::vector<EdgeId> by_vertex(const TestGraph& g) {
  std::vector<EdgeId> t(g.num_vertices(), EdgeId::none());
  t[g.find_vertex("idle")->index()] = *g.find_edge("ping");
  t[g.find_vertex("slow")->index()] = *g.find_edge("back");
  return t;
}

// `done` (docs/adapter-protocol.md, "Outputs that may or may not come"): silence now at a passive
// vertex; an output after it is judged late, and the FAIL names the stimulus it answers.
TEST(Runner, DoneIsSilenceAndALateOutputNamesItsStimulus) {
  TestGraph g = parse_graph(ping_graph);
  RunOptions o;
  o.timeout = std::chrono::milliseconds(60000);  // `done` must end the wait, not the timeout
  o.max_steps = 10;
  {
    ScriptedAdapter a;
    a.events = {AdapterEvent::outputs_done(), AdapterEvent::output("pong")};
    a.deliver_on_poll = true;
    a.hold_until_stimulus = true;  // the answers to 'ping', not to the poll before it
    TablePolicy p("table", by_vertex(g));
    const auto t0 = Clock::now();
    RunResult r = Runner(g, o).run(p, a);
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(10));
    EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
    ASSERT_GE(r.trace.size(), 2u);
    EXPECT_EQ(r.trace[1].kind, StepKind::timeout);  // `done` at 'wait': the timeout edge
    EXPECT_EQ(r.fail_vertex, *g.find_vertex("slow"));
    EXPECT_NE(r.message.find("at active vertex 'slow'"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("it came after the outputs of the stimulus 'ping' (step 1) were judged complete (the "
                             "adapter said 'done': the outputs of 'ping' were complete): a late answer to 'ping'?"),
              std::string::npos)
        << r.message;
  }
  {
    // After a timeout, too: the silence and its step are named.
    ScriptedAdapter a;
    a.events = {AdapterEvent::nothing(), AdapterEvent::output("pong")};
    a.deliver_on_poll = true;
    a.hold_until_stimulus = true;
    o.timeout = std::chrono::milliseconds(1);
    TablePolicy p("table", by_vertex(g));
    RunResult r = Runner(g, o).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
    EXPECT_NE(r.message.find("the stimulus 'ping' (step 1) were judged complete (silence within 1 ms at step 2)"),
              std::string::npos)
        << r.message;
  }
  {
    // An output that is not late: no such note.
    ScriptedAdapter a;
    a.events = {AdapterEvent::output("boom")};
    TablePolicy p("table", by_vertex(g));
    RunResult r = Runner(g, o).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::fail);
    EXPECT_EQ(r.message.find("late answer"), std::string::npos) << r.message;
  }
}

TEST(Runner, UnexpectedOutputAtPassiveVertexFails) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  a.events = {AdapterEvent::output("boom")};
  RandomWalkPolicy p;
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.fail_vertex, *g.find_vertex("wait"));
  EXPECT_EQ(r.observed, "boom");
  EXPECT_EQ(r.allowed, (std::vector<std::string>{"pong", "fin"}));  // the timeout edge is not an output
  ASSERT_FALSE(r.trace.empty());
  EXPECT_EQ(r.trace.back().kind, StepKind::unexpected);
  EXPECT_EQ(r.trace.back().label, "boom");
  EXPECT_NE(r.message.find("'boom'"), std::string::npos);
  EXPECT_NE(r.message.find("'wait'"), std::string::npos);
}

TEST(Runner, SilenceFollowsTheTimeoutEdge) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  // nothing (the wait ran out), then the adapter's own quiescence, then the goal.
  a.events = {AdapterEvent::nothing(), AdapterEvent::quiescence(), AdapterEvent::output("fin")};
  RandomWalkPolicy p;
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  std::vector<StepKind> kinds;
  for (auto& s : r.trace) kinds.push_back(s.kind);
  EXPECT_EQ(kinds, (std::vector<StepKind>{StepKind::stimulus, StepKind::timeout, StepKind::stimulus,
                                          StepKind::stimulus, StepKind::timeout, StepKind::stimulus,
                                          StepKind::stimulus, StepKind::observation}));
  EXPECT_EQ(r.trace[1].edge, *g.find_edge("to"));
  EXPECT_EQ(a.stimuli, (std::vector<std::string>{"ping", "back", "ping", "back", "ping"}));
}

TEST(Runner, SilenceWithoutTimeoutEdgeFails) {
  TestGraph g = parse_graph(strict_graph);
  ScriptedAdapter a;
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::cover;
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[g.find_vertex("idle")->index()] = *g.find_edge("ping");
  TablePolicy p("t", strategy);
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.observed, "");
  EXPECT_EQ(r.allowed, (std::vector<std::string>{"pong"}));
  EXPECT_EQ(r.trace.back().kind, StepKind::silence);
}

TEST(Runner, OutputAtActiveVertexIsJudgedNotLost) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  a.events = {AdapterEvent::output("pong")};  // already there before the first stimulus
  a.deliver_on_poll = true;
  RandomWalkPolicy p;
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_TRUE(a.stimuli.empty());
  EXPECT_EQ(r.fail_vertex, *g.find_vertex("idle"));
  EXPECT_EQ(r.observed, "pong");
  EXPECT_TRUE(r.allowed.empty());
  EXPECT_NE(r.message.find("active vertex 'idle'"), std::string::npos);
}

TEST(Runner, OutputBeforeTheStimulusWasAcceptedFails) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  a.early = {AdapterEvent::output("pong")};
  RandomWalkPolicy p;
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.fail_vertex, *g.find_vertex("idle"));
  EXPECT_EQ(r.observed, "pong");
  EXPECT_EQ(r.steps, 1u);
}

TEST(Runner, QuiescenceAtActiveVertexIsIgnored) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  a.events = {AdapterEvent::quiescence(), AdapterEvent::output("fin")};
  a.deliver_on_poll = true;  // the poll at idle gets the quiescence (ignored there), the wait gets fin
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[g.find_vertex("idle")->index()] = *g.find_edge("ping");
  TablePolicy p("t", strategy);
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
}

TEST(Runner, ResetsAfterDeadEndsWhenResettable) {
  TestGraph g = parse_graph(strict_graph);
  ScriptedAdapter a;
  RunOptions o;
  o.max_steps = 6;  // stop, reset, stop, reset, stop, reset
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[g.find_vertex("idle")->index()] = *g.find_edge("stop");
  TablePolicy p("t", strategy);
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_EQ(a.resets, 3);
  EXPECT_EQ(r.resets, 3u);
  EXPECT_EQ(a.stimuli, (std::vector<std::string>{"stop", "stop", "stop"}));
  ASSERT_EQ(r.trace.size(), 6u);
  EXPECT_EQ(r.trace[1].kind, StepKind::reset);
  EXPECT_EQ(r.trace[1].from, *g.find_vertex("dead"));
  EXPECT_EQ(r.trace[1].to, g.initial());
}

TEST(Runner, DeadEndWithoutResetIsInconclusive) {
  TestGraph g = parse_graph(strict_graph);
  ScriptedAdapter a;
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::cover;
  o.reset_on_dead_end = false;
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[g.find_vertex("idle")->index()] = *g.find_edge("stop");
  TablePolicy p("t", strategy);
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(a.resets, 0);
  EXPECT_NE(r.message.find("dead end"), std::string::npos);
}

TEST(Runner, PolicyAskedResetReturnsToInitial) {
  TestGraph g = parse_graph(strict_graph);
  struct ResetOnce final : Policy {
    int calls = 0;
    std::string_view name() const override { return "reset-once"; }
    Decision choose(const RunView& v, Rng&) override {
      if (calls++ == 0) return Decision::reset();
      return Decision::take(*v.graph.explored()->find_edge("stop"));
    }
  } p;
  ScriptedAdapter a;
  RunOptions o;
  o.max_steps = 2;
  o.reset_on_dead_end = false;
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(a.resets, 1);
  EXPECT_EQ(r.trace[0].kind, StepKind::reset);
  EXPECT_EQ(r.verdict, Verdict::pass);  // no purpose: the budget ran out without failure
}

TEST(Runner, StepBudgetGivesInconclusiveWithPurposeAndPassWithout) {
  TestGraph g = parse_graph(strict_graph);
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[g.find_vertex("idle")->index()] = *g.find_edge("ping");
  for (auto kind : {TestPurpose::Kind::cover, TestPurpose::Kind::none}) {
    ScriptedAdapter a;
    for (int i = 0; i < 10; ++i) a.events.push_back(AdapterEvent::output("pong"));
    TablePolicy p("t", strategy);
    RunOptions o;
    o.purpose.kind = kind;
    o.max_steps = 6;
    // Interleave: the poll at idle must see nothing, so give it a fresh adapter with only pongs at waits.
    struct Alternating final : Adapter {
      bool at_wait = false;
      void start() override {}
      AdapterEvent stimulate(std::string_view) override { at_wait = true; return {}; }
      AdapterEvent next_event(Clock::time_point) override {
        if (!at_wait) return {};
        at_wait = false;
        return AdapterEvent::output("pong");
      }
      void reset() override {}
      void finish() noexcept override {}
    } alt;
    RunResult r = Runner(g, o).run(p, alt);
    EXPECT_EQ(r.steps, 6u);
    EXPECT_EQ(r.verdict, kind == TestPurpose::Kind::none ? Verdict::pass : Verdict::inconclusive) << r.message;
  }
}

TEST(Runner, TimeBudgetCutsALongWait) {
  TestGraph g = parse_graph(strict_graph);
  struct Sleepy final : Adapter {
    void start() override {}
    AdapterEvent stimulate(std::string_view) override { return {}; }
    AdapterEvent next_event(Clock::time_point deadline) override {
      if (deadline > Clock::now()) std::this_thread::sleep_until(deadline);
      return {};
    }
    void reset() override {}
    void finish() noexcept override {}
  } a;
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[g.find_vertex("idle")->index()] = *g.find_edge("ping");
  TablePolicy p("t", strategy);
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::cover;
  o.timeout = std::chrono::milliseconds(60000);
  o.time_budget = std::chrono::milliseconds(30);
  RunResult r = Runner(g, o).run(p, a);
  // The wait for "pong" is cut by the budget: not a silence FAIL but INCONCLUSIVE.
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
  EXPECT_NE(r.message.find("time budget"), std::string::npos);
}

TEST(Runner, AdapterErrorsBecomeErrorAndTheAdapterIsFinished) {
  TestGraph g = parse_graph(ping_graph);
  ScriptedAdapter a;
  a.throw_on_stimulus = 0;
  RandomWalkPolicy p;
  RunResult r = Runner(g, reach_options()).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_EQ(r.message, "adapter died");
  EXPECT_EQ(a.finishes, 1);
}

TEST(Runner, RefusesPassiveVertexWithDuplicateLabels) {
  TestGraph g = parse_graph(R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "p", "kind": "passive"}, {"id": "b", "kind": "active"}],
    "edges": [{"from": "a", "to": "p", "label": "go"},
              {"from": "p", "to": "a", "label": "x", "prob": 0.5},
              {"from": "p", "to": "b", "label": "x", "prob": 0.5}]})");
  try {
    Runner r(g, {});
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    EXPECT_NE(std::string(e.what()).find("passive vertex 'p' has two outputs labelled 'x'"), std::string::npos)
        << e.what();
  }
}

TEST(Runner, RefusesActiveVertexWithAmbiguousStimuli) {
  TestGraph g = parse_graph(R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "b", "kind": "active"}, {"id": "c", "kind": "active"}],
    "edges": [{"from": "a", "to": "b", "label": "go"}, {"from": "a", "to": "c", "label": "go"}]})");
  EXPECT_THROW(Runner(g, {}), GraphError);
}

TEST(Runner, ReachPurposeNeedsGoals) {
  TestGraph g = parse_graph(strict_graph);
  EXPECT_THROW(Runner(g, reach_options()), GraphError);
}

TEST(Runner, PurposeFromNames) {
  TestGraph g = parse_graph(ping_graph);
  std::vector<std::string> goals{"slow"}, edges{"pong", "back"};
  TestPurpose p = purpose_from_names(g, TestPurpose::Kind::cover, goals, edges);
  EXPECT_EQ(p.goals, (std::vector<VertexId>{*g.find_vertex("slow")}));
  EXPECT_EQ(p.edges, (std::vector<EdgeId>{*g.find_edge("pong"), *g.find_edge("back")}));
  std::vector<std::string> bad{"nope"};
  EXPECT_THROW(purpose_from_names(g, TestPurpose::Kind::reach, bad, {}), GraphError);
  EXPECT_THROW(purpose_from_names(g, TestPurpose::Kind::cover, {}, bad), GraphError);
}

TEST(Runner, CoverChosenEdgesOnly) {
  std::string text = ping_graph;
  text.replace(text.find("\"initial\""), 0, "\"reset\": {\"cost\": 1}, ");
  TestGraph g = parse_graph(text);
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::cover;
  o.purpose.edges = {*g.find_edge("pong")};
  o.max_steps = 10000;
  AntiAntPolicy p;
  SimulatedSut sut(g, 7);
  RunResult r = Runner(g, o).run(p, sut);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_GE(r.edge_visits[g.find_edge("pong")->index()], 1u);
  EXPECT_EQ(r.trace.back().edge, *g.find_edge("pong"));  // stops right when the purpose is met
}

TEST(Runner, SameSeedSameRunDifferentSeedDifferentRun) {
  TestGraph g = generate_random_graph({.vertices = 60, .passive_fraction = 0.4, .out_degree = 3, .goals = 1,
                                       .strongly_connected = true, .seed = 5});
  RunOptions o;
  o.max_steps = 300;
  auto trace_of = [&](std::uint64_t seed) {
    RandomWalkPolicy p;
    SimulatedSut sut(g, seed + 100);
    RunResult r = Runner(g, o).run(p, sut, nullptr, seed);
    EXPECT_EQ(r.verdict, Verdict::pass);
    std::vector<std::uint32_t> edges;
    for (auto& s : r.trace) edges.push_back(s.edge.value);
    return edges;
  };
  EXPECT_EQ(trace_of(1), trace_of(1));
  EXPECT_NE(trace_of(1), trace_of(2));
}

TEST(Runner, ModelNeverFailsAgainstItsOwnSimulation) {
  // Conformance of the simulator to its model, over many random graphs and strategies.
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    TestGraph g = generate_random_graph({.vertices = 2 + static_cast<std::uint32_t>(seed % 30),
                                         .passive_fraction = 0.5, .out_degree = 1 + static_cast<std::uint32_t>(seed % 4),
                                         .goals = 1, .strongly_connected = seed % 2 == 0, .seed = seed});
    RunOptions o;
    o.max_steps = 200;
    o.purpose.kind = TestPurpose::Kind::cover;
    RandomWalkPolicy rp;
    AntiAntPolicy ap;
    for (Policy* p : {static_cast<Policy*>(&rp), static_cast<Policy*>(&ap)}) {
      SimulatedSut sut(g, seed);
      RunResult r = Runner(g, o).run(*p, sut, nullptr, seed);
      ASSERT_NE(r.verdict, Verdict::fail) << "seed " << seed << ": " << r.message;
      ASSERT_NE(r.verdict, Verdict::error) << "seed " << seed << ": " << r.message;
      std::uint64_t sum = 0;
      for (auto v : r.edge_visits) sum += v;
      ASSERT_EQ(sum + r.resets, r.steps);
    }
  }
}

TEST(Verdict, NamesAndCombination) {
  EXPECT_EQ(to_string(Verdict::pass), "PASS");
  EXPECT_EQ(to_string(Verdict::fail), "FAIL");
  EXPECT_EQ(to_string(Verdict::inconclusive), "INCONCLUSIVE");
  EXPECT_EQ(to_string(Verdict::error), "ERROR");
  EXPECT_EQ(combine(Verdict::pass, Verdict::inconclusive), Verdict::inconclusive);
  EXPECT_EQ(combine(Verdict::error, Verdict::inconclusive), Verdict::error);
  EXPECT_EQ(combine(Verdict::error, Verdict::fail), Verdict::fail);
  EXPECT_EQ(combine(Verdict::fail, Verdict::pass), Verdict::fail);
  EXPECT_EQ(combine(Verdict::pass, Verdict::pass), Verdict::pass);
}

}  // namespace
}  // namespace playtest
