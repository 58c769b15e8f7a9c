// The language's time and values (docs/language.md "Time", "Outputs at any time", "Values the system
// chooses"): state-dependent timeout durations, delay actions, anytime outputs and their companion
// vertices, slot types, free values and run-time guards, as the explorer, the lazy state space and
// ModelValues see them.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/explore/model_values.hpp"
#include "playtest/lang/model_program.hpp"
#include "test_paths.hpp"

using namespace playtest;

namespace {

std::string error_of(const std::string& text) {
  try {
    auto m = compile_model(text, "t.ptm");
    explore(*m);
  } catch (const Error& e) {
    return format_diagnostic(e.diagnostic(), text);
  }
  return "no error";
}

VertexId vertex(const TestGraph& g, const std::string& name) {
  auto v = g.find_vertex(name);
  EXPECT_TRUE(v) << name;
  return v.value_or(VertexId{0});
}

}  // namespace

TEST(LanguageTime, TimeoutDurationsDependOnTheState) {
  auto m = compile_model(R"(
    var x: 0..2 = 0;
    controllable Go(k: 1..2) require x == 0 { x := k; }
    controllable Poke require x > 0 { }
    observable Done require x > 0 { x := 0; }
    timeout after 100 * x + 50;
  )",
                         "t.ptm");
  ExploreResult r = explore(*m, {.naming = VertexNaming::numbered});
  const TestGraph& g = r.graph;
  std::map<std::string, std::uint32_t> ms;
  for (VertexId v : g.vertices()) ms[std::string(g.name(v))] = g.timeout_ms(v);
  // s1 (x=0) active: none; s2 (x=1) and s3 (x=2) passive: 150 and 250; their twins active: none.
  EXPECT_EQ(ms.at("s1"), 0u);
  EXPECT_EQ(ms.at("s2"), 150u);
  EXPECT_EQ(ms.at("s3"), 250u);
  EXPECT_EQ(ms.at("s2'"), 0u);
  EXPECT_TRUE(g.has_timing());
  // On the fly, the same durations.
  ModelGraph mg(*m);
  for (std::uint32_t i = 0; i < mg.num_vertices(); ++i) mg.expand(VertexId{i});  // discovers them all
  ExploreResult named = explore(*m);
  for (VertexId v : named.graph.vertices()) {
    bool found = false;
    for (std::uint32_t i = 0; i < mg.num_vertices(); ++i)
      if (mg.name(VertexId{i}) == named.graph.name(v)) {
        EXPECT_EQ(mg.timeout_ms(VertexId{i}), named.graph.timeout_ms(v)) << named.graph.name(v);
        found = true;
      }
    EXPECT_TRUE(found) << named.graph.name(v);
  }
}

TEST(LanguageTime, TimeoutDurationErrors) {
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A { x := 1; } observable B require x == 1 { x := 0; }\n"
                     "timeout after x - 1;")
                .find("timeout duration 0 ms is not a positive number of milliseconds"),
            std::string::npos);
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A { x := 1; } timeout after true;").find("type mismatch"),
            std::string::npos);
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A { x := 1; } timeout after 5 after 6;").find("expected"),
            std::string::npos);
}

TEST(LanguageTime, DelayActions) {
  auto m = compile_model(R"(
    param D: 1..10000 = 300;
    var armed: bool = false;
    controllable Arm require not armed { armed := true; }
    controllable Wait(k: 1..2) delay D * k cost 7 require armed { armed := false; }
  )",
                         "t.ptm");
  ExploreResult r = explore(*m);
  std::map<std::string, std::uint32_t> delays;
  for (EdgeId e : r.graph.edges()) {
    delays[std::string(r.graph.label(e))] = r.graph.delay_ms(e);
    if (r.graph.label(e).starts_with("Wait")) {
      EXPECT_EQ(r.graph.cost(e), 7.0);
    }
  }
  EXPECT_EQ(delays.at("Arm"), 0u);
  EXPECT_EQ(delays.at("Wait(1)"), 300u);
  EXPECT_EQ(delays.at("Wait(2)"), 600u);
  ModelGraph mg(*m);
  EdgeId arm = mg.out_edges(mg.initial())[0];
  const VertexId armed = mg.target(arm);
  for (EdgeId e : mg.out_edges(armed)) EXPECT_EQ(mg.delay_ms(e), mg.label(e) == "Wait(1)" ? 300u : 600u);
}

TEST(LanguageTime, DelayErrors) {
  EXPECT_NE(error_of("var x: 0..1 = 0; observable A delay 5 require x == 1 { x := 0; }")
                .find("only controllable actions have a delay"),
            std::string::npos);
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A delay 0 { x := 1; }").find("delay 0 ms is not a positive"),
            std::string::npos);
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A delay 5 delay 6 { x := 1; }").find("delay is given twice"),
            std::string::npos);
  // `delay` is no keyword: a variable may be called so.
  EXPECT_EQ(error_of("var delay: 0..1 = 0; controllable A require delay == 0 { delay := 1; }"), "no error");
}

TEST(LanguageTime, AnytimeOutputsGiveActiveStatesAnObserveEdge) {
  // A job may come back at any time while it is out; the tester can put another meanwhile.
  auto m = compile_model(R"(
    var out: bool = false;
    var n: 0..1 = 0;
    controllable Take require not out { out := true; }
    controllable Put require n == 0 { n := 1; }
    observable Back anytime require out { out := false; }
    timeout after 200;
  )",
                         "t.ptm");
  ExploreResult r = explore(*m, {.naming = VertexNaming::numbered});
  const TestGraph& g = r.graph;
  // (out=true, n=0): active, with Put and an observe edge to its passive companion "!", whose
  // output Back leads on and whose timeout comes back.
  const VertexId taken = g.target(g.out_edges(g.initial())[0]);
  ASSERT_TRUE(g.is_active(taken));
  const EdgeId obs = g.observe_edge(taken);
  ASSERT_FALSE(obs.is_none());
  EXPECT_EQ(g.label(obs), "observe");
  EXPECT_EQ(g.cost(obs), 0.0);
  const VertexId comp = g.target(obs);
  EXPECT_TRUE(g.is_passive(comp));
  EXPECT_EQ(std::string(g.name(comp)), std::string(g.name(taken)) + "!");
  EXPECT_EQ(g.timeout_ms(comp), 200u);
  std::set<std::string> comp_labels;
  for (EdgeId e : g.out_edges(comp)) {
    comp_labels.emplace(g.label(e));
    if (g.is_timeout(e)) {
      EXPECT_EQ(g.target(e), taken);
    }
  }
  EXPECT_EQ(comp_labels, (std::set<std::string>{"?Back", "?timeout"}));
  // The graph drives a run: one observe edge per active vertex, labels distinct.
  std::uint32_t observes = 0;
  for (EdgeId e : g.edges()) observes += g.is_observe(e);
  EXPECT_EQ(observes, 1u);  // (out, n=0); at (out, n=1) the tester has nothing to do: simply passive
  {
    const ExploreResult by_state = explore(*m);
    const auto both = by_state.graph.find_vertex("(out=true, n=1)");
    ASSERT_TRUE(both);
    EXPECT_TRUE(by_state.graph.is_passive(*both));
  }
  // On the fly: the same vertices and edges.
  ExploreResult named = explore(*m);
  ModelGraph mg(*m);
  std::set<std::string> fly;
  std::vector<VertexId> todo{mg.initial()};
  std::set<std::uint32_t> seen;
  while (!todo.empty()) {
    const VertexId v = todo.back();
    todo.pop_back();
    if (!seen.insert(v.value).second) continue;
    for (EdgeId e : mg.out_edges(v)) {
      fly.insert(mg.name(v) + " -" + std::string(mg.label(e)) + "-> " + mg.name(mg.target(e)) +
                 (mg.is_observe(e) ? " observe" : ""));
      todo.push_back(mg.target(e));
    }
  }
  std::set<std::string> explored;
  for (EdgeId e : named.graph.edges())
    explored.insert(std::string(named.graph.name(named.graph.source(e))) + " -" + std::string(named.graph.label(e)) +
                    "-> " + std::string(named.graph.name(named.graph.target(e))) +
                    (named.graph.is_observe(e) ? " observe" : ""));
  EXPECT_EQ(fly, explored);
}

TEST(LanguageTime, AnytimeWhenAndOrdinaryOutputs) {
  // `anytime when` makes the output anytime only where the condition holds; with an ordinary
  // output enabled the state is passive as always, and its twin gets the companion.
  auto m = compile_model(R"(
    var a: bool = false;
    var b: bool = false;
    controllable SetA require not a { a := true; }
    controllable SetB require not b { b := true; }
    controllable Tick { }
    observable Ping anytime when not b require a { a := false; }
    observable Pong require b { b := false; }
  )",
                         "t.ptm");
  ExploreResult r = explore(*m);
  const TestGraph& g = r.graph;
  // (a=true, b=false): Ping is anytime: active with an observe edge.
  const VertexId a_only = vertex(g, "(a=true, b=false)");
  EXPECT_TRUE(g.is_active(a_only));
  EXPECT_FALSE(g.observe_edge(a_only).is_none());
  // (a=true, b=true): Ping is not anytime there (b) and Pong is ordinary: passive with both; its
  // twin has an observe edge? No: Ping is no anytime output there, so no companion.
  const VertexId both = vertex(g, "(a=true, b=true)");
  EXPECT_TRUE(g.is_passive(both));
  std::set<std::string> outs;
  for (EdgeId e : g.out_edges(both)) outs.emplace(g.label(e));
  EXPECT_EQ(outs, (std::set<std::string>{"?Ping", "?Pong", "?timeout"}));
  EXPECT_TRUE(g.observe_edge(vertex(g, "(a=true, b=true)'")).is_none());
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A anytime { x := 1; }").find("only observable actions can be"),
            std::string::npos);
}

TEST(LanguageTime, AnytimeWithOrdinaryOutputsGivesTheTwinACompanion) {
  auto m = compile_model(R"(
    var a: bool = false;
    var b: bool = false;
    controllable SetA require not a { a := true; }
    controllable SetB require not b { b := true; }
    controllable Tick { }
    observable Ping anytime require a { a := false; }
    observable Pong require b { b := false; }
  )",
                         "t.ptm");
  ExploreResult r = explore(*m);
  const TestGraph& g = r.graph;
  const VertexId both = vertex(g, "(a=true, b=true)");
  EXPECT_TRUE(g.is_passive(both));
  const VertexId twin = vertex(g, "(a=true, b=true)'");
  const EdgeId obs = g.observe_edge(twin);
  ASSERT_FALSE(obs.is_none());
  const VertexId comp = g.target(obs);
  EXPECT_EQ(g.name(comp), "(a=true, b=true)!");
  std::set<std::string> outs;  // only the anytime output, and the timeout back to the twin
  for (EdgeId e : g.out_edges(comp)) {
    outs.emplace(g.label(e));
    if (g.is_timeout(e)) {
      EXPECT_EQ(g.target(e), twin);
    }
  }
  EXPECT_EQ(outs, (std::set<std::string>{"?Ping", "?timeout"}));
}

TEST(LanguageValues, SlotsInLabelsAndStates) {
  auto m = compile_model(R"(
    type Job = slot<int, 2>;
    var live: set<Job> = {};
    var put: bool = false;
    controllable Put require not put and size(live) < 2 { put := true; }
    observable Inserted(j: Job) require put and not (j in live) { put := false; live := live + {j}; }
    controllable Delete(j: Job) require j in live and not put { live := live - {j}; }
  )",
                         "t.ptm");
  ExploreResult r = explore(*m);
  std::set<std::string> ls;
  for (EdgeId e : r.graph.edges()) ls.emplace(r.graph.label(e));
  EXPECT_TRUE(ls.count("?Inserted(Job#0)"));
  EXPECT_TRUE(ls.count("?Inserted(Job#1)"));
  EXPECT_TRUE(ls.count("Delete(Job#1)"));
  EXPECT_TRUE(r.graph.find_vertex("(live={Job#0, Job#1}, put=false)"));
  const ModelValues* mv = m->values();
  ASSERT_NE(mv, nullptr);
  EXPECT_TRUE(mv->has_values());
  ASSERT_EQ(mv->slot_types().size(), 1u);
  EXPECT_EQ(mv->slot_types()[0].name, "Job");
  EXPECT_EQ(mv->slot_types()[0].count, 2u);
  EXPECT_FALSE(mv->slot_types()[0].is_string);
  EXPECT_TRUE(mv->is_label("?Inserted(Job#1)"));
  EXPECT_FALSE(mv->is_label("?Inserted(Job#2)"));
  EXPECT_FALSE(mv->is_label("Inserted(Job#1)"));  // an output, not a stimulus
  // Live slots: those the state holds.
  StateSpace space(*m);
  ExploreResult rs = explore(space);
  for (VertexId v : rs.graph.vertices()) {
    std::uint64_t live = 0;
    mv->live_slots(space.state(rs.node_of_vertex[v.index()]), std::span<std::uint64_t>(&live, 1));
    const std::string name(rs.graph.name(v));
    const std::uint64_t want =
        (name.find("Job#0") != std::string::npos ? 1u : 0u) | (name.find("Job#1") != std::string::npos ? 2u : 0u);
    EXPECT_EQ(live, want) << name;
  }
}

TEST(LanguageValues, RunTimeGuardsAndFreeValues) {
  auto m = compile_model(R"(
    type Job = slot<int, 1>;
    type Name = slot<string, 1>;
    var live: set<Job> = {};
    var names: set<Name> = {};
    var asked: bool = false;
    controllable Ask require not asked { asked := true; }
    observable Got(j: Job, n: int, s: string) require asked and not (j in live)
      require value(j) > 0
      require n == 2 * value(j) and s != ""
    { asked := false; live := live + {j}; }
    observable Named(x: Name) require asked and size(names) == 0 require value(x) != "nobody" { names := {x}; }
  )",
                         "t.ptm");
  ExploreResult r = explore(*m);
  std::set<std::string> ls;
  for (EdgeId e : r.graph.edges()) ls.emplace(r.graph.label(e));
  EXPECT_TRUE(ls.count("?Got(Job#0, _, _)"));
  const ModelValues* mv = m->values();
  const ActionShape* got = mv->action("Got");
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->params, (std::vector<ParamKind>{ParamKind::fixed, ParamKind::free_int, ParamKind::free_string}));
  EXPECT_TRUE(got->runtime_guards);
  EXPECT_FALSE(mv->action("Ask")->runtime_guards);
  // Check the guards in the state after Ask.
  StateSpace space(*m);
  const NodeId init = space.initial();
  NodeId after_ask = NodeId::none();
  for (const SpaceEdge& e : space.successors(init))
    if (space.edge_label(e) == "Ask") after_ask = e.target;
  ASSERT_FALSE(after_ask.is_none());
  const auto st = space.state(after_ask);
  ConcreteValue job;
  job.number = 17;
  const std::vector<ConcreteValue> ok{{.number = 34}, {.is_string = true, .text = "x"}};
  auto slot17 = [&](std::uint32_t, std::uint32_t) { return &job; };
  EXPECT_FALSE(mv->check_guards(st, "?Got(Job#0, _, _)", ok, slot17));
  const std::vector<ConcreteValue> wrong_n{{.number = 35}, {.is_string = true, .text = "x"}};
  auto f = mv->check_guards(st, "?Got(Job#0, _, _)", wrong_n, slot17);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->guard, "require n == 2 * value(j) and s != \"\"");
  EXPECT_EQ(f->where, "t.ptm:10:7");
  ConcreteValue minus;
  minus.number = -1;
  f = mv->check_guards(st, "?Got(Job#0, _, _)", ok, [&](std::uint32_t, std::uint32_t) { return &minus; });
  ASSERT_TRUE(f);
  EXPECT_EQ(f->guard, "require value(j) > 0");
  // A string slot compared with a literal of the model, and with a string the model never wrote.
  ConcreteValue nobody{.is_string = true, .text = "nobody"}, alice{.is_string = true, .text = "alice"};
  EXPECT_TRUE(mv->check_guards(st, "?Named(Name#0)", {}, [&](std::uint32_t, std::uint32_t) { return &nobody; }));
  EXPECT_FALSE(mv->check_guards(st, "?Named(Name#0)", {}, [&](std::uint32_t, std::uint32_t) { return &alice; }));
  // value() of a slot without a value: the model's fault, located.
  try {
    (void)mv->check_guards(st, "?Got(Job#0, _, _)", ok, [](std::uint32_t, std::uint32_t) { return nullptr; });
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("value(Job#0): no output has given that slot a value yet"), std::string::npos);
  }
}

TEST(LanguageValues, Errors) {
  EXPECT_NE(error_of("var s: set<slot<int, 2>> = {}; controllable A { s := {}; }").find("a slot type needs a name"),
            std::string::npos);
  EXPECT_NE(error_of("type J = slot<int, 2>; var cur: J; controllable A { cur := cur; }")
                .find("variable 'cur' would always hold a slot of J"),
            std::string::npos);
  EXPECT_NE(error_of("type J = slot<int, 65>; var s: set<J> = {}; controllable A { s := {}; }")
                .find("slot type 'J' has 65 slots; give 1 to 64"),
            std::string::npos);
  EXPECT_NE(error_of("type J = slot<bool, 2>; var s: set<J> = {}; controllable A { s := {}; }")
                .find("the values of slot type 'J' must be int, a range lo..hi or string"),
            std::string::npos);
  // Free values: only observable actions have them, and only their guards read them.
  EXPECT_NE(error_of("var x: 0..1 = 0; controllable A(n: int) { x := 1; }").find("unbounded domain"),
            std::string::npos);
  EXPECT_NE(error_of("var x: 0..9 = 0; observable A(n: int) require x == 0 { x := n; }")
                .find("the free value 'n' is known only when the system produces its output"),
            std::string::npos);
  EXPECT_NE(
      error_of("type J = slot<int, 1>; var s: set<J> = {}; controllable A(j: J) require value(j) > 0 { s := {}; }")
          .find("value() is known only when the system produces its output"),
      std::string::npos);
  EXPECT_NE(error_of("var x: 0..1 = 0; observable A(n: int) cost n require x == 0 { x := 1; }")
                .find("the free value 'n' is known only"),
            std::string::npos);
  // Slots of different types do not mix.
  EXPECT_NE(error_of("type J = slot<int, 2>; type K = slot<int, 2>; var s: set<J> = {};\n"
                     "controllable A(k: K) { s := s + {k}; }")
                .find("type mismatch"),
            std::string::npos);
  // `slot` is no keyword.
  EXPECT_EQ(error_of("var slot: 0..1 = 0; controllable A { slot := 1; }"), "no error");
}

TEST(LanguageValues, JobQueueExample) {
  auto m = load_model(playtest::testing::source_dir() + "/examples/models/jobq.ptm");
  ExploreResult r = explore(*m);
  EXPECT_EQ(r.status, ExploreStatus::complete);
  const TestGraph& g = r.graph;
  EXPECT_GT(g.num_goals(), 0u);
  std::uint32_t observes = 0, delays = 0, timed = 0;
  for (EdgeId e : g.edges()) {
    observes += g.is_observe(e);
    if (g.delay_ms(e) != 0) {
      ++delays;
      EXPECT_EQ(g.delay_ms(e), 300u + 150u + 100u);
      EXPECT_EQ(g.cost(e), 20.0);
    }
  }
  for (VertexId v : g.vertices()) {
    if (g.is_passive(v)) {
      ++timed;
      EXPECT_TRUE(g.timeout_ms(v) == 500u || g.timeout_ms(v) == 600u) << g.name(v);
    }
    EXPECT_TRUE(g.timeout_edge(v).is_none()) << g.name(v);  // every output is due
  }
  EXPECT_GT(observes, 0u);
  EXPECT_GT(delays, 0u);
  EXPECT_GT(timed, 0u);
  EXPECT_EQ(m->parameters(), (std::vector<std::pair<std::string, std::string>>{{"TTR", "300"}, {"JOBS", "2"}}));
}

#include "playtest/explore/cpp_model.hpp"

TEST(LanguageTime, TheCppModelApiHasTheSameTime) {
  struct S {
    int out = 0;
    bool operator==(const S&) const = default;
  };
  CppModel<S> m{S{}};
  m.controllable(
      "Take", [](const S& s) { return s.out == 0; }, [](S& s) { s.out = 1; });
  m.controllable(
      "Wait", [](const S& s) { return s.out == 1; }, [](S& s) { s.out = 2; }, {.cost = 5, .delay_ms = 250});
  m.observable(
      "Back", [](const S& s) { return s.out == 1; }, [](S& s) { s.out = 0; }, {.anytime = true});
  m.observable(
      "Done", [](const S& s) { return s.out == 2; }, [](S& s) { s.out = 0; });
  m.timeout_ms([](const S& s) { return s.out == 2 ? 700u : 100u; });
  m.describe([](const S& s) { return "out" + std::to_string(s.out); });
  ExploreResult r = explore(m);
  const TestGraph& g = r.graph;
  const VertexId out1 = *g.find_vertex("out1");
  EXPECT_TRUE(g.is_active(out1));
  const EdgeId obs = g.observe_edge(out1);
  ASSERT_FALSE(obs.is_none());
  EXPECT_EQ(g.name(g.target(obs)), "out1!");
  EXPECT_EQ(g.timeout_ms(g.target(obs)), 100u);
  EXPECT_EQ(g.timeout_ms(*g.find_vertex("out2")), 700u);
  for (EdgeId e : g.out_edges(out1))
    if (g.label(e) == "Wait") {
      EXPECT_EQ(g.delay_ms(e), 250u);
      EXPECT_EQ(g.cost(e), 5.0);
    }
}
