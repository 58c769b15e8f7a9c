#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/sure_winning.hpp"

using namespace playtest;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// Seed 000 §4: the diamond. s chooses between a direct, expensive edge to the goal and an edge to
// a choice point cp whose two branches a and b both lead to the goal g. A second choice point cp2
// has one branch into a dead end x, so it (and d, which can only go there) is not winnable.
struct Diamond {
  TestGraph g;
  VertexId s, cp, a, b, goal, d, cp2, x;
  EdgeId s_cp, s_g, a_g, b_g;
};

Diamond diamond() {
  GraphBuilder bld;
  Diamond D;
  D.s = bld.add_vertex("s", VertexKind::active);
  D.cp = bld.add_vertex("cp", VertexKind::passive);
  D.a = bld.add_vertex("a", VertexKind::active);
  D.b = bld.add_vertex("b", VertexKind::active);
  D.goal = bld.add_vertex("g", VertexKind::active, true);
  D.d = bld.add_vertex("d", VertexKind::active);
  D.cp2 = bld.add_vertex("cp2", VertexKind::passive);
  D.x = bld.add_vertex("x", VertexKind::active);
  std::vector<std::uint32_t> ins;
  ins.push_back(bld.add_edge({.from = D.s, .to = D.cp, .label = "go", .cost = 1}));
  ins.push_back(bld.add_edge({.from = D.s, .to = D.goal, .label = "direct", .cost = 10}));
  bld.add_edge({.from = D.cp, .to = D.a, .label = "?a", .cost = 1, .prob = 0.5});
  bld.add_edge({.from = D.cp, .to = D.b, .label = "?b", .cost = 1, .prob = 0.5});
  ins.push_back(bld.add_edge({.from = D.a, .to = D.goal, .label = "fin", .cost = 2}));
  ins.push_back(bld.add_edge({.from = D.b, .to = D.goal, .label = "fin", .cost = 5}));
  bld.add_edge({.from = D.d, .to = D.cp2, .label = "go", .cost = 1});
  bld.add_edge({.from = D.cp2, .to = D.goal, .label = "?g", .cost = 1, .prob = 0.9});
  bld.add_edge({.from = D.cp2, .to = D.x, .label = "?x", .cost = 1, .prob = 0.1});
  bld.set_initial(D.s);
  std::vector<EdgeId> map;
  D.g = bld.build({}, &map);
  D.s_cp = map[ins[0]];
  D.s_g = map[ins[1]];
  D.a_g = map[ins[2]];
  D.b_g = map[ins[3]];
  return D;
}

TEST(SureWinning, DiamondOfSection4) {
  Diamond D = diamond();
  const VertexId goals[] = {D.goal};
  SureWinResult r = solve_sure_winning(D.g, goals);
  EXPECT_EQ(r.cost[D.goal.index()], 0.0);
  EXPECT_EQ(r.cost[D.a.index()], 2.0);
  EXPECT_EQ(r.cost[D.b.index()], 5.0);
  EXPECT_EQ(r.cost[D.cp.index()], 6.0);  // worst case: the branch through b
  EXPECT_EQ(r.cost[D.s.index()], 7.0);   // 1 + 6 beats the direct edge of cost 10
  EXPECT_EQ(r.strategy[D.s.index()], D.s_cp);
  EXPECT_EQ(r.strategy[D.a.index()], D.a_g);
  EXPECT_EQ(r.strategy[D.b.index()], D.b_g);
  EXPECT_TRUE(r.strategy[D.cp.index()].is_none());
  EXPECT_TRUE(r.strategy[D.goal.index()].is_none());
  for (VertexId v : {D.d, D.cp2, D.x}) {
    EXPECT_FALSE(r.winnable[v.index()]);
    EXPECT_EQ(r.cost[v.index()], inf);
    EXPECT_TRUE(r.strategy[v.index()].is_none());
  }
  EXPECT_EQ(r.num_winnable, 5u);
}

TEST(SureWinning, WithoutChoicePointsItIsDijkstra) {
  GraphBuilder b;
  auto u = b.add_vertex("u", VertexKind::active);
  auto v = b.add_vertex("v", VertexKind::active);
  auto w = b.add_vertex("w", VertexKind::active);
  auto g = b.add_vertex("g", VertexKind::active, true);
  b.add_edge({.from = u, .to = v, .label = "x", .cost = 1});
  b.add_edge({.from = v, .to = w, .label = "x", .cost = 1});
  b.add_edge({.from = w, .to = g, .label = "x", .cost = 1});
  b.add_edge({.from = u, .to = g, .label = "x", .cost = 5});
  b.add_edge({.from = v, .to = u, .label = "x", .cost = 0});
  b.set_initial(u);
  TestGraph G = b.build();
  const VertexId goals[] = {g};
  SureWinResult r = solve_sure_winning(G, goals);
  EXPECT_EQ(r.cost[u.index()], 3.0);
  EXPECT_EQ(r.cost[v.index()], 2.0);
  EXPECT_EQ(r.cost[w.index()], 1.0);
  EXPECT_EQ(r.num_winnable, 4u);
}

TEST(SureWinning, ChoicePointWithSelfLoopIsNotWinnable) {
  // The system may stay at c forever (each round with probability 1/2): no bound on the moves.
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::passive);
  auto g = b.add_vertex("g", VertexKind::active, true);
  b.add_edge({.from = s, .to = c, .label = "x", .cost = 1});
  b.add_edge({.from = c, .to = c, .label = "x", .cost = 0, .prob = 0.5});
  b.add_edge({.from = c, .to = g, .label = "x", .cost = 0, .prob = 0.5});
  b.set_initial(s);
  TestGraph G = b.build();
  const VertexId goals[] = {g};
  SureWinResult r = solve_sure_winning(G, goals);
  EXPECT_FALSE(r.winnable[s.index()]);
  EXPECT_FALSE(r.winnable[c.index()]);
  EXPECT_EQ(r.num_winnable, 1u);
}

TEST(SureWinning, ParallelEdgesOfAChoicePointAreCountedOnce) {
  // c has two edges to a and one to the dead end x: a settled must not make c look complete.
  GraphBuilder b;
  auto c = b.add_vertex("c", VertexKind::passive);
  auto a = b.add_vertex("a", VertexKind::active, true);
  auto x = b.add_vertex("x", VertexKind::active);
  b.add_edge({.from = c, .to = a, .label = "p", .cost = 1, .prob = 0.25});
  b.add_edge({.from = c, .to = a, .label = "q", .cost = 3, .prob = 0.25});
  b.add_edge({.from = c, .to = x, .label = "r", .cost = 1, .prob = 0.5});
  b.set_initial(c);
  TestGraph G = b.build();
  const VertexId goals[] = {a};
  SureWinResult r = solve_sure_winning(G, goals);
  EXPECT_FALSE(r.winnable[c.index()]);
  const VertexId goals2[] = {a, x};
  SureWinResult r2 = solve_sure_winning(G, goals2);
  EXPECT_TRUE(r2.winnable[c.index()]);
  EXPECT_EQ(r2.cost[c.index()], 3.0);
}

TEST(SureWinning, NoGoalsNothingWinnableAndBadIdsRejected) {
  Diamond D = diamond();
  SureWinResult r = solve_sure_winning(D.g, {});
  EXPECT_EQ(r.num_winnable, 0u);
  const VertexId bad[] = {VertexId{100}};
  EXPECT_THROW(solve_sure_winning(D.g, bad), UsageError);
}

}  // namespace
