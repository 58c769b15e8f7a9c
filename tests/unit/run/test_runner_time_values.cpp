// The runner and time, values and labels (issue 26): a vertex's own timeout ("timeout_ms", a model's
// `timeout after`) and --vertex-timeout over it, delay edges (the tester waits, sends nothing, a
// `wait` step; a simulated system waits no time), outputs matched by value (slots bound to the
// system's ids, stimuli sent with them, guards and types named in the FAIL, both labels in the
// trace), outputs that are no label of the model at all, stimuli refused on every try.
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <sstream>
#include <thread>

#include "playtest/base/error.hpp"
#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/campaign_output.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/run/label_check.hpp"
#include "playtest/run/run_values.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "playtest/strategy/table_policy.hpp"

namespace playtest {
namespace {

using std::chrono::milliseconds;

// Answers from a script; a wait with nothing scripted lasts until its deadline (as a silent system).
class WaitingAdapter final : public Adapter {
 public:
  std::deque<AdapterEvent> events;
  std::deque<AdapterEvent> answers;  // to stimulate
  std::vector<std::string> stimuli;
  void start() override {}
  AdapterEvent stimulate(std::string_view label) override {
    stimuli.emplace_back(label);
    if (answers.empty()) return AdapterEvent::nothing();
    AdapterEvent e = answers.front();
    answers.pop_front();
    return e;
  }
  // Polls get nothing; a wait gets the next scripted event, or nothing once its deadline passed.
  AdapterEvent next_event(Clock::time_point deadline) override {
    if (deadline == poll_only) return AdapterEvent::nothing();
    if (!events.empty()) {
      AdapterEvent e = events.front();
      events.pop_front();
      return e;
    }
    std::this_thread::sleep_until(deadline);
    return AdapterEvent::nothing();
  }
  void reset() override {}
  void finish() noexcept override {}
};

double ms_of(const RunResult& r) { return r.elapsed_ms; }

// go -> (passive, its own timeout) pong; no timeout edge: silence is a FAIL.
const char* timed_graph = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive", "timeout_ms": 100}],
  "edges": [{"from": "idle", "to": "wait", "label": "go"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]})";

TEST(RunnerTime, AVertexTimeoutIsTheWaitWhateverTheRunnerDefault) {
  TestGraph g = parse_graph(timed_graph);
  EXPECT_EQ(g.timeout_ms(*g.find_vertex("wait")), 100u);
  RunOptions o;
  o.timeout = milliseconds(5000);
  o.max_steps = 10;
  WaitingAdapter a;
  RandomWalkPolicy p;
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
  EXPECT_NE(r.message.find("within 100 ms"), std::string::npos) << r.message;
  EXPECT_GE(ms_of(r), 95.0);
  EXPECT_LT(ms_of(r), 4000.0);  // not the 5000 ms default
}

TEST(RunnerTime, VertexTimeoutOptionWinsOverTheGraph) {
  TestGraph g = parse_graph(timed_graph);
  RunOptions o;
  o.timeout = milliseconds(5000);
  o.vertex_timeouts = vertex_timeouts_from_specs(g, std::vector<std::string>{"wait=300"});
  WaitingAdapter a;
  RandomWalkPolicy p;
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.message.find("within 300 ms"), std::string::npos) << r.message;
  EXPECT_GE(ms_of(r), 295.0);
}

// idle --sleep (delay 150)--> later --go--> idle.
const char* delay_graph = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "later"}, {"id": "end", "goal": true}],
  "edges": [{"from": "idle", "to": "later", "label": "sleep", "delay_ms": 150, "cost": 9},
            {"from": "later", "to": "end", "label": "go"}]})";

TEST(RunnerTime, ADelayEdgeIsWaitedNotSent) {
  TestGraph g = parse_graph(delay_graph);
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::reach;
  WaitingAdapter a;
  RandomWalkPolicy p;
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_EQ(a.stimuli, (std::vector<std::string>{"go"}));
  ASSERT_EQ(r.trace.size(), 2u);
  EXPECT_EQ(r.trace[0].kind, StepKind::wait);
  EXPECT_EQ(r.trace[0].label, "sleep");
  EXPECT_GE(r.trace[1].time_ms - r.trace[0].time_ms, 0.0);
  EXPECT_GE(r.trace[0].time_ms, 145.0);  // recorded once waited
  // A simulated system takes no time to wait.
  const TestGraph slow = parse_graph(R"({"playtest": "graph/1", "initial": "idle",
    "vertices": [{"id": "idle"}, {"id": "end", "goal": true}],
    "edges": [{"from": "idle", "to": "end", "label": "sleep", "delay_ms": 60000}]})");
  SimulatedSut sut(slow, 1);
  RandomWalkPolicy q;
  RunResult s = Runner(slow, o).run(q, sut);
  EXPECT_EQ(s.verdict, Verdict::pass);
  EXPECT_LT(s.elapsed_ms, 5000.0);
  EXPECT_EQ(sut.state(), *slow.find_vertex("end"));
}

TEST(RunnerTime, ATimeBudgetCutsADelay) {
  TestGraph g = parse_graph(delay_graph);
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::reach;
  o.time_budget = milliseconds(50);
  WaitingAdapter a;
  RandomWalkPolicy p;
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_NE(r.message.find("time budget"), std::string::npos);
  EXPECT_LT(r.elapsed_ms, 140.0);
}

// A queue whose server invents ids: Put -> ?Inserted(id), id positive; Take(id) -> ?Took.
const char* queue_model = R"(
  type Id = slot<int, 2>;
  var live: set<Id> = {};
  var putting: bool = false;
  var taking: bool = false;
  controllable Put require not putting and not taking and size(live) < 2 { putting := true; }
  observable Inserted(j: Id) require putting and not (j in live)
    require value(j) > 0
  { putting := false; live := live + {j}; }
  controllable Take(j: Id) require j in live and not putting and not taking { live := live - {j}; taking := true; }
  observable Took(n: int) require taking require n >= 0 { taking := false; }
  reset;
)";

struct Explored {
  std::shared_ptr<const Model> model;
  TestGraph graph;
  std::shared_ptr<const ValueContext> values;
};

Explored explore_with_values(const std::string& text) {
  Explored x;
  x.model = compile_model(text, "q.ptm");
  StateSpace space(*x.model);
  ExploreResult r = explore(space);
  auto ctx = std::make_shared<ValueContext>();
  ctx->model = x.model;
  ctx->state_size = x.model->state_size();
  for (NodeId n : r.node_of_vertex) {
    auto st = space.state(n);
    ctx->states.insert(ctx->states.end(), st.begin(), st.end());
  }
  x.graph = std::move(r.graph);
  x.values = ctx;
  return x;
}

// Plays Put, Put, Take(Id#0), Take(Id#1) (the first edge with that label at each active vertex).
class ScriptPolicy final : public Policy {
 public:
  explicit ScriptPolicy(std::vector<std::string> labels) : labels_(std::move(labels)) {}
  std::string_view name() const override { return "script"; }
  Decision choose(const RunView& v, Rng&) override {
    if (next_ >= labels_.size()) return Decision::stop();
    for (EdgeId e : v.graph.out_edges(v.current))
      if (v.graph.label(e) == labels_[next_]) {
        ++next_;
        return Decision::take(e);
      }
    return Decision::stop();
  }

 private:
  std::vector<std::string> labels_;
  std::size_t next_ = 0;
};

TEST(RunnerValues, IdsFlowFromOutputsToStimuli) {
  Explored x = explore_with_values(queue_model);
  RunOptions o;
  o.values = x.values;
  WaitingAdapter a;
  a.events = {AdapterEvent::output("?Inserted(17)"), AdapterEvent::output("?Inserted(5)"),
              AdapterEvent::output("?Took(0)"), AdapterEvent::output("?Took(3)")};
  ScriptPolicy p({"Put", "Put", "Take(Id#1)", "Take(Id#0)"});
  RunResult r = Runner(x.graph, o).run(p, a);
  EXPECT_NE(r.verdict, Verdict::fail) << r.message;
  EXPECT_EQ(a.stimuli, (std::vector<std::string>{"Put", "Put", "Take(5)", "Take(17)"}));
  ASSERT_EQ(r.trace.size(), 8u);
  EXPECT_EQ(r.trace[1].label, "?Inserted(Id#0)");  // the first id seen is slot 0
  EXPECT_EQ(r.trace[1].concrete, "?Inserted(17)");
  EXPECT_EQ(r.trace[3].label, "?Inserted(Id#1)");
  EXPECT_EQ(r.trace[3].concrete, "?Inserted(5)");
  EXPECT_EQ(r.trace[4].label, "Take(Id#1)");
  EXPECT_EQ(r.trace[4].concrete, "Take(5)");
  EXPECT_EQ(r.trace[5].label, "?Took(_)");
  EXPECT_EQ(r.trace[5].concrete, "?Took(0)");
  EXPECT_EQ(r.trace[0].concrete, "");  // "Put" is its own concrete text
}

TEST(RunnerValues, ANegativeIdBreaksTheGuardAndTheFailNamesIt) {
  Explored x = explore_with_values(queue_model);
  RunOptions o;
  o.values = x.values;
  WaitingAdapter a;
  a.events = {AdapterEvent::output("?Inserted(-1)")};
  ScriptPolicy p({"Put"});
  RunResult r = Runner(x.graph, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.observed, "?Inserted(-1)");
  EXPECT_NE(r.message.find("the guard 'require value(j) > 0' (q.ptm:8:5) of Inserted does not hold"), std::string::npos)
      << r.message;
}

TEST(RunnerValues, TypesAndReusedIdsAreNamed) {
  Explored x = explore_with_values(queue_model);
  RunOptions o;
  o.values = x.values;
  {
    WaitingAdapter a;
    a.events = {AdapterEvent::output("?Inserted(\"x\")")};
    ScriptPolicy p({"Put"});
    RunResult r = Runner(x.graph, o).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::fail);
    EXPECT_NE(r.message.find("\"x\" is not an integer, as the values of Id are"), std::string::npos) << r.message;
  }
  {
    // A second job with the id of the first one, still in use.
    WaitingAdapter a;
    a.events = {AdapterEvent::output("?Inserted(7)"), AdapterEvent::output("?Inserted(7)")};
    ScriptPolicy p({"Put", "Put"});
    RunResult r = Runner(x.graph, o).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::fail);
    EXPECT_NE(r.message.find("7 is the value of Id#0, still in use, not a new one"), std::string::npos) << r.message;
  }
  {
    WaitingAdapter a;
    a.events = {AdapterEvent::output("?Inserted(7)"), AdapterEvent::output("?Took(-2)")};
    ScriptPolicy p({"Put", "Take(Id#0)"});
    RunResult r = Runner(x.graph, o).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::fail);
    EXPECT_NE(r.message.find("the guard 'require n >= 0'"), std::string::npos) << r.message;
    EXPECT_EQ(a.stimuli.back(), "Take(7)");
  }
  {
    // After a reset the ids are forgotten: a stimulus cannot use a slot nothing gave a value.
    RunValues rv(*x.model->values());
    EXPECT_THROW((void)rv.concrete("Take(Id#0)"), ModelError);
    EXPECT_EQ(rv.concrete("Put"), "Put");
  }
}

TEST(RunnerLabels, AnOutputThatIsNoLabelOfTheModelSaysSo) {
  const char* g_text = R"json({"playtest": "graph/1", "initial": "idle",
    "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
    "edges": [{"from": "idle", "to": "wait", "label": "Reserve(0)"},
              {"from": "wait", "to": "idle", "label": "?Reserved(0, \"a\")", "prob": 0.5},
              {"from": "wait", "to": "idle", "label": "?Reserved(1, \"a\")", "prob": 0.5}]})json";
  TestGraph g = parse_graph(g_text);
  RunOptions o;
  WaitingAdapter a;
  a.events = {AdapterEvent::output("?Reserved(0,\"a\")")};
  RandomWalkPolicy p;
  RunResult r = Runner(g, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.message.find("'?Reserved(0,\"a\")' is not a label of the model at all (adapter and model disagree?); "
                           "the nearest labels of the model are '?Reserved(0, \"a\")', '?Reserved(1, \"a\")'"),
            std::string::npos)
      << r.message;
  // A label of the model that is merely not allowed here: the usual message.
  WaitingAdapter b;
  b.events = {AdapterEvent::output("Reserve(0)")};
  RandomWalkPolicy q;
  RunResult s = Runner(g, o).run(q, b);
  EXPECT_EQ(s.verdict, Verdict::fail);
  EXPECT_EQ(s.message.find("not a label of the model"), std::string::npos) << s.message;
  // Model programs: the action name decides when labels hold values; the whole label otherwise.
  Explored x = explore_with_values(queue_model);
  const ModelValues* mv = x.model->values();
  EXPECT_TRUE(foreign_label_note("?Inserte(3)", {}, false, mv));
  EXPECT_FALSE(foreign_label_note("?Inserted(3)", {}, false, mv));
  EXPECT_TRUE(foreign_label_note("?Put", {}, false, mv));  // a stimulus, not an output
  auto closed =
      compile_model("var x: 0..1 = 0; controllable A { x := 1; } observable B(k: 0..1) require x == 1 { x := 0; }");
  EXPECT_FALSE(foreign_label_note("?B(1)", {}, false, closed->values()));
  EXPECT_TRUE(foreign_label_note("?B(2)", {}, false, closed->values()));
  EXPECT_EQ(nearest_labels("?B(2)", std::vector<std::string_view>{"?B(0)", "?B(1)", "A", "?timeout"}),
            (std::vector<std::string>{"?B(0)", "?B(1)"}));
}

TEST(RunnerLabels, AStimulusRefusedOnEveryTryIsNamed) {
  const TestGraph g = parse_graph(R"json({"playtest": "graph/1", "initial": "idle", "reset": {"cost": 1},
    "vertices": [{"id": "idle"}, {"id": "b"}],
    "edges": [{"from": "idle", "to": "b", "label": "Delet(1)"}, {"from": "b", "to": "idle", "label": "Fine"}]})json");
  RunOptions o;
  o.max_steps = 5;
  WaitingAdapter a;
  a.answers = {AdapterEvent::refusal(), AdapterEvent::refusal(), AdapterEvent::refusal()};
  RandomWalkPolicy p;
  const Runner runner(g, o);
  CampaignResult c = run_campaign(runner, p, a, {.runs = 3});
  std::ostringstream text;
  write_campaign_text(text, runner, c);
  EXPECT_NE(text.str().find("the system refused the stimulus 'Delet(1)' every time it was sent (3 times) and never "
                            "accepted it: does the adapter know it? (adapter and model disagree?)"),
            std::string::npos)
      << text.str();
  const nlohmann::json j = campaign_json(runner, c, "random");
  EXPECT_EQ(j["never_accepted"], nlohmann::json::array({"Delet(1)"}));
}

}  // namespace
}  // namespace playtest
