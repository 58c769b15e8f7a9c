// The explorer, the lazy state space, the state store and the C++ model API.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "../../../examples/cpp-api/model/chat_model.hpp"
#include "playtest/base/error.hpp"
#include "playtest/explore/cpp_model.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/explore/state_store.hpp"
#include "playtest/graph/random.hpp"

using namespace playtest;

namespace {

struct Counter {
  std::int32_t x = 0;
  std::int32_t y = 0;
  bool operator==(const Counter&) const = default;
};

CppModel<Counter> counter_model(int n) {
  CppModel<Counter> m{Counter{}, "Counter"};
  m.controllable(
      "IncX", [n](const Counter& s) { return s.x + 1 < n; }, [](Counter& s) { ++s.x; });
  m.controllable(
      "IncY", [n](const Counter& s) { return s.y + 1 < n; }, [](Counter& s) { ++s.y; });
  m.final([](const Counter& s) { return s.x == 0 && s.y == 0; });
  m.describe([](const Counter& s) { return "(" + std::to_string(s.x) + "," + std::to_string(s.y) + ")"; });
  return m;
}

// Edges of a graph as (source name, label, target name, cost, probability, timeout).
using EdgeTuple = std::tuple<std::string, std::string, std::string, double, double, bool>;
std::multiset<EdgeTuple> edge_set(const TestGraph& g) {
  std::multiset<EdgeTuple> out;
  for (EdgeId e : g.edges())
    out.emplace(std::string(g.name(g.source(e))), std::string(g.label(e)), std::string(g.name(g.target(e))), g.cost(e),
                g.probability(e), g.is_timeout(e));
  return out;
}

// Looks a vertex up by name by scanning (independent of TestGraph's own name index).
std::optional<VertexId> vertex_by_name(const TestGraph& g, std::string_view name) {
  for (VertexId v : g.vertices())
    if (g.name(v) == name) return v;
  return std::nullopt;
}

}  // namespace

TEST(StateStore, InsertFindAgreeWithStdSet) {
  Rng rng(7);
  for (std::size_t size : {0u, 1u, 3u, 8u, 13u}) {
    StateStore store(size);
    std::map<std::string, std::uint32_t> ref;
    for (int i = 0; i < 5000; ++i) {
      std::vector<std::byte> k(size);
      for (auto& b : k) b = static_cast<std::byte>(rng.below(3));
      auto [id, added] = store.insert(k);
      const std::string ks(reinterpret_cast<const char*>(k.data()), k.size());
      auto it = ref.find(ks);
      if (it == ref.end()) {
        ASSERT_TRUE(added);
        ASSERT_EQ(id, ref.size());
        ref.emplace(ks, id);
      } else {
        ASSERT_FALSE(added);
        ASSERT_EQ(id, it->second);
      }
      for (std::size_t j = 0; j < size; ++j) ASSERT_EQ(k[j], store.key(id)[j]);
    }
    EXPECT_EQ(store.size(), ref.size());
    for (auto& [ks, id] : ref) EXPECT_EQ(store.find(std::as_bytes(std::span<const char>(ks.data(), ks.size()))), id);
    std::vector<std::byte> absent(size, std::byte{7});
    if (size > 0) {
      EXPECT_EQ(store.find(absent), UINT32_MAX);
    }
  }
}

TEST(Explorer, CounterGridCountsAndGoal) {
  auto m = counter_model(5);
  ExploreResult r = explore(m);
  EXPECT_EQ(r.status, ExploreStatus::complete);
  EXPECT_TRUE(r.message.empty());
  EXPECT_EQ(r.graph.num_vertices(), 25u);
  EXPECT_EQ(r.graph.num_edges(), 2u * 5 * 4);
  EXPECT_EQ(r.graph.num_passive(), 0u);
  EXPECT_EQ(r.graph.num_goals(), 1u);
  EXPECT_TRUE(r.graph.is_goal(r.graph.initial()));
  EXPECT_EQ(r.graph.name(r.graph.initial()), "(0,0)");
  EXPECT_EQ(r.depth, 8u);
  EXPECT_EQ(r.states, 25u);
  EXPECT_FALSE(r.graph.is_resettable());
}

TEST(Explorer, ChatGivesFigure1) {
  auto m = chat_example::make_chat_model();
  ExploreResult r = explore(m, {.naming = VertexNaming::numbered});
  const TestGraph& g = r.graph;
  ASSERT_EQ(r.status, ExploreStatus::complete);
  // s1 (active, final); four passive states; two active twins reached by timeouts (s2', s3').
  EXPECT_EQ(g.num_vertices(), 7u);
  EXPECT_EQ(g.num_passive(), 4u);
  EXPECT_EQ(g.num_edges(), 10u);
  EXPECT_EQ(g.num_goals(), 1u);
  EXPECT_EQ(g.name(g.initial()), "s1");
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

TEST(Explorer, ChatStateNames) {
  auto m = chat_example::make_chat_model();
  ExploreResult r = explore(m);
  EXPECT_EQ(r.graph.name(r.graph.initial()), "(clients={0, 1}, queue=[], recipients={})");
  EXPECT_TRUE(vertex_by_name(r.graph, "(clients={0, 1}, queue=[(0, \"hi\")], recipients={1})'").has_value());
}

TEST(Explorer, StateLimitStopsWithMessage) {
  auto m = counter_model(100);
  ExploreResult r = explore(m, {.max_states = 50});
  EXPECT_EQ(r.status, ExploreStatus::state_limit);
  EXPECT_GE(r.graph.num_vertices(), 50u);
  EXPECT_LE(r.graph.num_vertices(), 52u);
  EXPECT_GT(r.frontier, 0u);
  EXPECT_NE(r.message.find("state limit (50 vertices)"), std::string::npos) << r.message;
  // Frontier vertices are active dead ends.
  std::uint32_t dead = 0;
  for (VertexId v : r.graph.vertices()) dead += r.graph.out_degree(v) == 0;
  EXPECT_EQ(dead, r.frontier);
}

// Without partial_graph, a stopped exploration reports the same status, counts and message but
// builds no graph; a complete one still returns its graph.
TEST(Explorer, NoPartialGraphWhenRefused) {
  const ExploreResult with = explore(counter_model(100), {.max_states = 50});
  const ExploreResult without = explore(counter_model(100), {.max_states = 50, .partial_graph = false});
  EXPECT_EQ(without.status, ExploreStatus::state_limit);
  EXPECT_EQ(without.graph.num_vertices(), 0u);
  EXPECT_TRUE(without.node_of_vertex.empty());
  EXPECT_EQ(without.frontier, with.frontier);
  EXPECT_EQ(without.depth, with.depth);
  EXPECT_EQ(without.message, with.message);
  const ExploreResult timed = explore(counter_model(2000), {.max_seconds = 0.05, .partial_graph = false});
  EXPECT_EQ(timed.status, ExploreStatus::time_limit);
  EXPECT_EQ(timed.graph.num_vertices(), 0u);
  EXPECT_NE(timed.message.find("after "), std::string::npos) << timed.message;
  const ExploreResult complete = explore(counter_model(3), {.partial_graph = false});
  EXPECT_EQ(complete.status, ExploreStatus::complete);
  EXPECT_EQ(complete.graph.num_vertices(), 9u);
}

TEST(Explorer, DepthLimit) {
  auto m = counter_model(100);
  ExploreResult r = explore(m, {.max_depth = 3});
  EXPECT_EQ(r.status, ExploreStatus::depth_limit);
  EXPECT_EQ(r.graph.num_vertices(), 10u);  // x + y <= 3
  EXPECT_EQ(r.frontier, 4u);               // x + y == 3
  EXPECT_EQ(r.depth, 3u);
  EXPECT_NE(r.message.find("depth limit (3 steps"), std::string::npos) << r.message;
  // A depth limit beyond the model's depth changes nothing.
  ExploreResult full = explore(counter_model(3), {.max_depth = 4});
  EXPECT_EQ(full.status, ExploreStatus::complete);
  EXPECT_EQ(full.graph.num_vertices(), 9u);
}

TEST(Explorer, ProjectionMergesStates) {
  auto m = counter_model(10);
  Projection p{.size = 1, .project = [](std::span<const std::byte> s, std::span<std::byte> key) {
                 std::int32_t x;
                 std::memcpy(&x, s.data(), 4);
                 key[0] = static_cast<std::byte>(x % 3);
               }};
  ExploreResult r = explore(m, {.projection = &p});
  EXPECT_EQ(r.status, ExploreStatus::complete);
  EXPECT_EQ(r.graph.num_vertices(), 3u);
  EXPECT_EQ(r.states, 3u);
  // From (0,0): IncX -> x=1 (key 1), IncY -> (0,1) has key 0 = the initial vertex itself.
  VertexId s = r.graph.initial();
  std::set<std::string> targets;
  for (EdgeId e : r.graph.out_edges(s)) targets.insert(std::string(r.graph.name(r.graph.target(e))));
  EXPECT_EQ(targets, (std::set<std::string>{"(0,0)", "(1,0)"}));
}

TEST(Explorer, InitialPassiveStateBecomesActiveTwin) {
  struct S {
    std::int32_t v = 0;
    bool operator==(const S&) const = default;
  };
  CppModel<S> m{S{}};
  m.observable(
      "Out", [](const S& s) { return s.v == 0; }, [](S& s) { s.v = 1; }, {.weight = 3});
  m.controllable(
      "In", [](const S& s) { return s.v == 0; }, [](S& s) { s.v = 2; });
  ExploreResult r = explore(m, {.naming = VertexNaming::numbered});
  const TestGraph& g = r.graph;
  EXPECT_TRUE(g.is_active(g.initial()));
  EXPECT_EQ(g.name(g.initial()), "s1'");
  // s1' -In-> s2 ; s2, s3 (v=1) are active dead ends; s1 (passive) is not reachable from s1'.
  EXPECT_EQ(g.num_vertices(), 2u);
  EXPECT_EQ(g.num_passive(), 0u);
}

TEST(Explorer, TimeoutWeightsAndCosts) {
  struct S {
    std::int32_t v = 0;
    bool operator==(const S&) const = default;
  };
  CppModel<S> m{S{}};
  m.controllable(
      "Go", [](const S& s) { return s.v == 0; }, [](S& s) { s.v = 1; });
  m.observable(
      "A", [](const S& s) { return s.v == 1; }, [](S& s) { s.v = 0; }, {.cost = 2, .weight = 3});
  m.controllable(
      "Cancel", [](const S& s) { return s.v == 1; }, [](S& s) { s.v = 0; });
  m.timeout([](const S&) { return std::optional<TimeoutSpec>(TimeoutSpec{.cost = 5, .weight = 1}); });
  m.resettable(7);
  ExploreResult r = explore(m, {.naming = VertexNaming::numbered});
  std::multiset<EdgeTuple> want{
      {"s1", "Go", "s2", 1, 0, false},
      {"s2", "?A", "s1", 2, 0.75, false},
      {"s2", "?timeout", "s2'", 5, 0.25, true},
      {"s2'", "Cancel", "s1", 1, 0, false},
  };
  EXPECT_EQ(edge_set(r.graph), want);
  EXPECT_EQ(r.graph.reset_cost(), 7.0);
}

TEST(Explorer, NoTimeoutWhereTheTwinWouldBeADeadEnd) {
  struct S {
    std::int32_t v = 0;
    bool operator==(const S&) const = default;
  };
  CppModel<S> m{S{}};
  m.controllable(
      "Go", [](const S& s) { return s.v == 0; }, [](S& s) { s.v = 1; });
  m.observable(
      "A", [](const S& s) { return s.v == 1; }, [](S& s) { s.v = 0; });
  ExploreResult r = explore(m);
  EXPECT_EQ(r.graph.num_vertices(), 2u);
  EXPECT_EQ(r.graph.num_edges(), 2u);
  for (EdgeId e : r.graph.edges()) EXPECT_FALSE(r.graph.is_timeout(e));
}

TEST(Explorer, BadCostNamesStateAndAction) {
  struct S {
    std::int32_t v = 0;
    bool operator==(const S&) const = default;
  };
  CppModel<S> m{S{}};
  m.controllable(
      "Go", [](const S&) { return true; }, [](S&) {}, {.cost = -1});
  m.describe([](const S& s) { return "v=" + std::to_string(s.v); });
  try {
    explore(m);
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "error: action Go in state v=0 has cost -1; costs must be finite and >= 0");
  }
}

TEST(Explorer, TrapsListTheirEdges) {
  auto m = counter_model(3);
  CppModel<Counter> t{Counter{}};
  t.controllable(
      "IncX", [](const Counter& s) { return s.x < 2; }, [](Counter& s) { ++s.x; }, {.traps = {"x"}});
  t.controllable(
      "IncY", [](const Counter& s) { return s.y < 2; }, [](Counter& s) { ++s.y; }, {.traps = {"y", "x"}});
  ExploreResult r = explore(t);
  ASSERT_EQ(r.trap_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(r.trap_edges[0].size(), 12u);
  EXPECT_EQ(r.trap_edges[1].size(), 6u);
  for (EdgeId e : r.trap_edges[1]) EXPECT_EQ(r.graph.label(e), "IncY");
}

// The lazy interface gives, for every state, the same successors as the full exploration, in
// whatever order its nodes are expanded.
TEST(StateSpace, LazySuccessorsMatchFullExploration) {
  for (int which = 0; which < 2; ++which) {
    std::unique_ptr<Model> model;
    if (which == 0)
      model = std::make_unique<CppModel<chat_example::ChatState>>(chat_example::make_chat_model());
    else
      model = std::make_unique<CppModel<Counter>>(counter_model(6));
    ExploreResult full = explore(*model);
    std::map<std::string, std::multiset<std::tuple<std::string, std::string, double>>> want;
    for (VertexId v : full.graph.vertices()) {
      want[std::string(full.graph.name(v))];
      for (EdgeId e : full.graph.out_edges(v))
        want[std::string(full.graph.name(v))].emplace(std::string(full.graph.label(e)),
                                                      std::string(full.graph.name(full.graph.target(e))),
                                                      full.graph.probability(e));
    }
    Rng rng(42 + which);
    StateSpace lazy(*model);
    std::vector<NodeId> todo{lazy.initial()};
    std::set<std::uint32_t> seen{todo[0].value};
    std::size_t checked = 0;
    while (!todo.empty()) {
      // Expand in random order, not breadth-first.
      std::swap(todo[rng.below(todo.size())], todo.back());
      NodeId n = todo.back();
      todo.pop_back();
      auto name = [&](NodeId x) { return lazy.state_text(x) + (lazy.is_twin(x) ? "'" : ""); };
      std::multiset<std::tuple<std::string, std::string, double>> got;
      for (const SpaceEdge& e : lazy.successors(n)) {
        got.emplace(lazy.edge_label(e), name(e.target), e.probability);
        if (seen.insert(e.target.value).second) todo.push_back(e.target);
      }
      ASSERT_TRUE(want.count(name(n))) << name(n);
      EXPECT_EQ(got, want[name(n)]) << name(n);
      auto v = vertex_by_name(full.graph, name(n));
      ASSERT_TRUE(v.has_value());
      EXPECT_EQ(lazy.kind(n), full.graph.kind(*v));
      ++checked;
    }
    EXPECT_EQ(checked, full.graph.num_vertices());
  }
}

TEST(StateSpace, ExpandsOnlyWhatIsAsked) {
  auto m = counter_model(1000);
  StateSpace space(m);
  NodeId n = space.initial();
  for (int i = 0; i < 10; ++i) n = space.successors(n)[0].target;
  EXPECT_LE(space.num_nodes(), 22u);
  EXPECT_EQ(m.decode(space.state(n)).x, 10);
  EXPECT_TRUE(space.find(space.state(n)).has_value());
}

TEST(CppModel, LabelArgs) {
  EXPECT_EQ(label_arg(3), "3");
  EXPECT_EQ(label_arg(true), "true");
  EXPECT_EQ(label_arg(std::string("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(label_arg(std::tuple<int, std::string>{1, "x"}), "(1, \"x\")");
  EXPECT_EQ(label_arg(std::vector<int>{1, 2}), "[1, 2]");
  EXPECT_EQ(label_arg(std::pair<int, bool>{1, false}), "(1, false)");
}
