// The example models of examples/models/ explored into test graphs, and the C++ model API giving
// the same graph as the language for the same model.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "../../../examples/cpp-api/model/chat_model.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/graph/transforms.hpp"
#include "playtest/lang/model_program.hpp"
#include "test_paths.hpp"

using namespace playtest;

namespace {

std::string example(const std::string& name) { return playtest::testing::source_dir() + "/examples/models/" + name; }

using EdgeTuple = std::tuple<std::string, std::string, std::string, double, double, bool>;
std::multiset<EdgeTuple> edge_set(const TestGraph& g) {
  std::multiset<EdgeTuple> out;
  for (EdgeId e : g.edges())
    out.emplace(std::string(g.name(g.source(e))), std::string(g.label(e)), std::string(g.name(g.target(e))), g.cost(e),
                g.probability(e), g.is_timeout(e));
  return out;
}

std::multiset<std::tuple<std::string, int, bool>> vertex_set(const TestGraph& g) {
  std::multiset<std::tuple<std::string, int, bool>> out;
  for (VertexId v : g.vertices()) out.emplace(std::string(g.name(v)), static_cast<int>(g.kind(v)), g.is_goal(v));
  return out;
}

}  // namespace

TEST(Examples, ChatGivesFigure1) {
  auto m = load_model(example("chat.ptm"));
  ExploreResult r = explore(*m, {.naming = VertexNaming::numbered});
  const TestGraph& g = r.graph;
  ASSERT_EQ(r.status, ExploreStatus::complete);
  EXPECT_EQ(g.num_vertices(), 7u);
  EXPECT_EQ(g.num_passive(), 4u);
  EXPECT_EQ(g.num_edges(), 10u);
  EXPECT_EQ(g.num_goals(), 1u);
  EXPECT_TRUE(g.is_goal(g.initial()));
  std::multiset<EdgeTuple> want{
      {"s1", "Post(0, \"hi\")", "s2", 1, 0, false},
      {"s1", "Post(1, \"bye\")", "s3", 1, 0, false},
      {"s2", "?Deliver((0, \"hi\"), 1)", "s1", 1, 0.5, false},
      {"s2", "?timeout", "s2'", 1, 0.5, true},
      {"s3", "?Deliver((1, \"bye\"), 0)", "s1", 1, 0.5, false},
      {"s3", "?timeout", "s3'", 1, 0.5, true},
      {"s2'", "Post(1, \"bye\")", "s4", 1, 0, false},
      {"s3'", "Post(0, \"hi\")", "s5", 1, 0, false},
      {"s4", "?Deliver((0, \"hi\"), 1)", "s3", 1, 1, false},
      {"s5", "?Deliver((1, \"bye\"), 0)", "s2", 1, 1, false},
  };
  EXPECT_EQ(edge_set(g), want);
}

TEST(Examples, ChatLanguageAndCppApiGiveTheSameGraph) {
  auto lang_model = load_model(example("chat.ptm"));
  auto cpp_model = chat_example::make_chat_model();
  for (VertexNaming naming : {VertexNaming::numbered, VertexNaming::state}) {
    ExploreResult a = explore(*lang_model, {.naming = naming});
    ExploreResult b = explore(cpp_model, {.naming = naming});
    EXPECT_EQ(vertex_set(a.graph), vertex_set(b.graph));
    EXPECT_EQ(edge_set(a.graph), edge_set(b.graph));
    EXPECT_EQ(a.graph.name(a.graph.initial()), b.graph.name(b.graph.initial()));
  }
}

namespace {
std::optional<VertexId> by_name(const TestGraph& g, std::string_view name) {
  for (VertexId v : g.vertices())
    if (g.name(v) == name) return v;
  return std::nullopt;
}
}  // namespace

// Figure 2.a: Start(3) leads into a cascade of passive states, one per set of clients entered so
// far, ending in the active state s1 where posting starts; Figure 2.b: compression leaves a single
// passive vertex between s0 and s1.
TEST(Examples, ChatStartGivesFigure2AndCompressesToOnePassiveVertex) {
  auto m = load_model(example("chat_start.ptm"));
  ExploreResult r = explore(*m);
  const TestGraph& g = r.graph;
  ASSERT_EQ(r.status, ExploreStatus::complete);
  const VertexId s0 = g.initial();
  EXPECT_EQ(g.name(s0), "(nClients=0, clients={}, queue=[], recipients={})");
  ASSERT_EQ(g.out_degree(s0), 1u);
  const EdgeId start = g.out_edges(s0)[0];
  EXPECT_EQ(g.label(start), "Start(3)");
  const auto s1 = by_name(g, "(nClients=3, clients={0, 1, 2}, queue=[], recipients={})");
  ASSERT_TRUE(s1.has_value());
  EXPECT_TRUE(g.is_active(*s1));
  EXPECT_TRUE(g.is_goal(*s1));
  // The entering phase: 7 passive states (subsets of size 0, 1, 2), 12 Enter edges, no timeouts.
  std::uint32_t entering = 0, enters = 0;
  for (VertexId v : g.vertices()) {
    const std::string name(g.name(v));
    if (name.rfind("(nClients=3, clients=", 0) == 0 && name.find("queue=[]") != std::string::npos && v != *s1) {
      ++entering;
      EXPECT_TRUE(g.is_passive(v)) << name;
      for (EdgeId e : g.out_edges(v)) {
        EXPECT_EQ(g.label(e).substr(0, 7), "?Enter(");
        EXPECT_FALSE(g.is_timeout(e));
        ++enters;
      }
    }
  }
  EXPECT_EQ(entering, 7u);
  EXPECT_EQ(enters, 12u);
  // Compression (seed 001 §2.4).
  CompressResult c = compress_passive(g);
  const TestGraph& h = c.graph;
  const VertexId h0 = h.initial();
  ASSERT_EQ(h.out_degree(h0), 1u);
  const VertexId p = h.target(h.out_edges(h0)[0]);
  EXPECT_TRUE(h.is_passive(p));
  ASSERT_EQ(h.out_degree(p), 1u);
  const EdgeId pe = h.out_edges(p)[0];
  EXPECT_DOUBLE_EQ(h.probability(pe), 1.0);
  EXPECT_DOUBLE_EQ(h.cost(pe), 3.0);  // three Enter events
  EXPECT_EQ(h.name(h.target(pe)), g.name(*s1));
}

TEST(Examples, CandyMachine) {
  auto m = load_model(example("candy.ptm"));
  ExploreResult r = explore(*m, {.naming = VertexNaming::state});
  const TestGraph& g = r.graph;
  EXPECT_EQ(g.num_vertices(), 6u);
  EXPECT_EQ(g.num_passive(), 2u);
  EXPECT_EQ(g.num_edges(), 7u);
  EXPECT_EQ(g.num_goals(), 2u);
  EXPECT_EQ(g.reset_cost(), 1.0);
  // After one press: liquorice or nothing, half and half; no timeout edge (quiescence is Quiet).
  const auto p1 = by_name(g, "(pressed=1, quiet=false, given=none)");
  ASSERT_TRUE(p1.has_value());
  std::set<std::string> out;
  for (EdgeId e : g.out_edges(*p1)) {
    out.emplace(g.label(e));
    EXPECT_DOUBLE_EQ(g.probability(e), 0.5);
  }
  EXPECT_EQ(out, (std::set<std::string>{"?Liquorice", "?Quiet"}));
  // Nothing first, then pressed again: only chocolate.
  const auto p2 = by_name(g, "(pressed=2, quiet=true, given=none)");
  ASSERT_TRUE(p2.has_value());
  ASSERT_EQ(g.out_degree(*p2), 1u);
  EXPECT_EQ(g.label(g.out_edges(*p2)[0]), "?Chocolate");
}

TEST(Examples, EfsmWithGuardsAndTraps) {
  auto m = load_model(example("efsm.ptm"));
  ExploreResult r = explore(*m);
  const TestGraph& g = r.graph;
  EXPECT_EQ(r.status, ExploreStatus::complete);
  EXPECT_EQ(g.num_vertices(), 17u);
  EXPECT_EQ(g.num_passive(), 6u);
  EXPECT_EQ(g.reset_cost(), 5.0);
  ASSERT_EQ(r.trap_names, (std::vector<std::string>{"t0", "t1", "t2", "t3", "t4", "t5"}));
  for (std::size_t t = 0; t < r.trap_edges.size(); ++t) {
    EXPECT_FALSE(r.trap_edges[t].empty()) << r.trap_names[t];
    for (EdgeId e : r.trap_edges[t]) {
      const std::string l(g.label(e));
      const std::string action = r.trap_names[t] == "t2" ? "a2" : r.trap_names[t] == "t5" ? "a5" : "?o" + r.trap_names[t].substr(1);
      EXPECT_EQ(l, action);
    }
  }
  // Guards: a2 only while n < MAX; o0 twice as likely as o1.
  for (EdgeId e : g.edges()) {
    if (g.label(e) == "?o0") {
      EXPECT_NEAR(g.probability(e), 2.0 / 3.0, 1e-12);
    }
    if (g.label(e) == "a5") {
      EXPECT_EQ(g.cost(e), 3.0);
    }
  }
  // A larger bound gives more states.
  auto big = load_model(example("efsm.ptm"), {{"MAX", "5"}});
  EXPECT_GT(explore(*big).graph.num_vertices(), g.num_vertices());
}
