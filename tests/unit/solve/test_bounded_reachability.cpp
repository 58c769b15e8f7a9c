#include <gtest/gtest.h>

#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/bounded_reachability.hpp"

using namespace playtest;

namespace {

// The diamond of seed 000 §4 as a bounded game: s can take an expensive direct edge to the goal
// (1 move, cost 10) or go through the choice point cp (3 moves, worst-case cost 7).
struct Diamond {
  TestGraph g;
  VertexId s, cp, a, b, goal;
  EdgeId s_cp, s_g;
};

Diamond diamond() {
  GraphBuilder bld;
  Diamond D;
  D.s = bld.add_vertex("s", VertexKind::active);
  D.cp = bld.add_vertex("cp", VertexKind::passive);
  D.a = bld.add_vertex("a", VertexKind::active);
  D.b = bld.add_vertex("b", VertexKind::active);
  D.goal = bld.add_vertex("g", VertexKind::active, true);
  auto i0 = bld.add_edge({.from = D.s, .to = D.cp, .label = "go", .cost = 1});
  auto i1 = bld.add_edge({.from = D.s, .to = D.goal, .label = "direct", .cost = 10});
  bld.add_edge({.from = D.cp, .to = D.a, .label = "?a", .cost = 1, .prob = 0.5});
  bld.add_edge({.from = D.cp, .to = D.b, .label = "?b", .cost = 1, .prob = 0.5});
  bld.add_edge({.from = D.a, .to = D.goal, .label = "fin", .cost = 2});
  bld.add_edge({.from = D.b, .to = D.goal, .label = "fin", .cost = 5});
  bld.set_initial(D.s);
  std::vector<EdgeId> map;
  D.g = bld.build({}, &map);
  D.s_cp = map[i0];
  D.s_g = map[i1];
  return D;
}

TEST(BoundedReachability, DiamondValuesAndChangePoints) {
  Diamond D = diamond();
  const VertexId goals[] = {D.goal};
  BoundedReachResult r = solve_bounded_reachability(D.g, goals, {.bound = 5, .record = {D.s, D.cp}});
  EXPECT_EQ(r.bound(), 5u);
  // k = 0: nothing is reachable but the goal itself.
  EXPECT_EQ(r.prob(D.s, 0), 0.0);
  EXPECT_TRUE(r.choice(D.s, 0).is_none());
  // k = 1, 2: only the direct edge wins.
  EXPECT_EQ(r.prob(D.s, 1), 1.0);
  EXPECT_EQ(r.cost(D.s, 1), 10.0);
  EXPECT_EQ(r.choice(D.s, 1), D.s_g);
  EXPECT_EQ(r.choice(D.s, 2), D.s_g);
  // cp: at k = 1 its branches have not reached the goal, but their cost counts (equation (3)).
  EXPECT_EQ(r.prob(D.cp, 1), 0.0);
  EXPECT_EQ(r.cost(D.cp, 1), 1.0);
  EXPECT_EQ(r.prob(D.cp, 2), 1.0);
  EXPECT_EQ(r.cost(D.cp, 2), 6.0);
  // k >= 3: through the choice point, same probability, lower worst-case cost.
  for (std::uint32_t k = 3; k <= 5; ++k) {
    EXPECT_EQ(r.choice(D.s, k), D.s_cp);
    EXPECT_EQ(r.prob(D.s, k), 1.0);
    EXPECT_EQ(r.cost(D.s, k), 7.0);
  }
  EXPECT_EQ(r.prob(D.s), 1.0);
  EXPECT_EQ(r.cost(D.s), 7.0);
  auto cps = r.change_points(D.s);
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].k, 1u);
  EXPECT_EQ(cps[0].edge, D.s_g);
  EXPECT_EQ(cps[1].k, 3u);
  EXPECT_EQ(cps[1].edge, D.s_cp);
  EXPECT_TRUE(r.choice(D.cp, 4).is_none());
  EXPECT_TRUE(r.choice(D.goal, 4).is_none());
  EXPECT_EQ(r.prob(D.goal), 1.0);
  EXPECT_EQ(r.cost(D.goal), 0.0);
  EXPECT_THROW(r.choice(D.s, 6), UsageError);
  EXPECT_THROW(r.prob(D.a, 1), UsageError);  // not recorded
  EXPECT_FALSE(r.is_recorded(D.a));
  EXPECT_TRUE(r.is_recorded(D.cp));
}

// A preorder that prefers *expensive* wins: acceptable (monotone, losing is worst), and the solver
// follows it: s keeps the direct edge of cost 10.
struct ExpensiveFirst {
  bool better(ReachValue a, ReachValue b) const {
    if (b.prob == 0.0) return a.prob > 0.0;
    return a.prob > b.prob || (a.prob == b.prob && a.cost > b.cost);
  }
};

TEST(BoundedReachability, PreorderIsAParameter) {
  Diamond D = diamond();
  const VertexId goals[] = {D.goal};
  BoundedReachResult r = solve_bounded_reachability(D.g, goals, {.bound = 5}, ExpensiveFirst{});
  EXPECT_EQ(r.choice(D.s, 5), D.s_g);
  EXPECT_EQ(r.cost(D.s), 10.0);
  // Probability only: ties are kept, so the first winning edge found (direct, at k = 1) stays.
  BoundedReachResult p = solve_bounded_reachability(D.g, goals, {.bound = 5, .order = ReachOrder::probability});
  EXPECT_EQ(p.choice(D.s, 5), D.s_g);
  EXPECT_EQ(p.prob(D.s), 1.0);
  EXPECT_EQ(p.num_change_points(), 3u);  // s at k = 1, a and b at k = 1
}

TEST(BoundedReachability, HigherProbabilityBeatsLowerCost) {
  // s -> c1 (cost 1): reaches the goal with probability 1/2; s -> c2 (cost 100): with 3/4.
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto c1 = b.add_vertex("c1", VertexKind::passive);
  auto c2 = b.add_vertex("c2", VertexKind::passive);
  auto g = b.add_vertex("g", VertexKind::active, true);
  auto x = b.add_vertex("x", VertexKind::active);
  b.add_edge({.from = s, .to = c1, .label = "cheap", .cost = 1});
  b.add_edge({.from = s, .to = c2, .label = "dear", .cost = 100});
  b.add_edge({.from = c1, .to = g, .label = "?", .cost = 1, .prob = 0.5});
  b.add_edge({.from = c1, .to = x, .label = "?", .cost = 1, .prob = 0.5});
  b.add_edge({.from = c2, .to = g, .label = "?", .cost = 1, .prob = 0.75});
  b.add_edge({.from = c2, .to = x, .label = "?", .cost = 7, .prob = 0.25});
  b.set_initial(s);
  TestGraph G = b.build();
  const VertexId goals[] = {g};
  BoundedReachResult r = solve_bounded_reachability(G, goals, {.bound = 3});
  EXPECT_EQ(r.prob(s), 0.75);
  EXPECT_EQ(r.cost(s), 107.0);  // the worst path includes the losing branch into x
  EXPECT_EQ(G.target(r.choice(s, 3)), c2);
  EXPECT_EQ(G.target(r.choice(s, 2)), c2);
  EXPECT_TRUE(r.choice(s, 1).is_none());  // nothing wins in one move: give up (null)
  // x is a dead end that cannot win: it stays null with value (0, 0).
  EXPECT_EQ(r.prob(x), 0.0);
  EXPECT_EQ(r.cost(x), 0.0);
}

TEST(BoundedReachability, StepByStepSolver) {
  Diamond D = diamond();
  const VertexId goals[] = {D.goal};
  BoundedReachSolver<> solver(D.g, goals);
  EXPECT_EQ(solver.k(), 0u);
  ASSERT_EQ(solver.changed().size(), 1u);
  solver.step();
  EXPECT_EQ(solver.k(), 1u);
  EXPECT_EQ(solver.choice(D.s), D.s_g);
  solver.step();
  solver.step();
  EXPECT_EQ(solver.choice(D.s), D.s_cp);
  EXPECT_EQ(solver.cost(D.s), 7.0);
  // Nothing changes any more: the frontier is empty and further steps are free.
  solver.step();
  solver.step();
  EXPECT_TRUE(solver.changed().empty());
  BoundedReachResult r = solver.take_result();
  EXPECT_EQ(r.bound(), 5u);
  EXPECT_EQ(r.choice(D.s, 5), D.s_cp);
  EXPECT_EQ(r.frontier_sizes().back(), 0u);
  EXPECT_EQ(solver.k(), 0u);
}

TEST(BoundedReachability, BoundZeroAndBadArguments) {
  Diamond D = diamond();
  const VertexId goals[] = {D.goal};
  BoundedReachResult r = solve_bounded_reachability(D.g, goals, {.bound = 0});
  EXPECT_EQ(r.prob(D.goal), 1.0);
  EXPECT_EQ(r.prob(D.s), 0.0);
  EXPECT_TRUE(r.choice(D.s, 0).is_none());
  const VertexId bad[] = {VertexId{99}};
  EXPECT_THROW(solve_bounded_reachability(D.g, bad, {}), UsageError);
  EXPECT_THROW(solve_bounded_reachability(D.g, goals, {.record = {VertexId{99}}}), UsageError);
}

}  // namespace

TEST(BoundedReachability, ThreadCountDoesNotChangeAnything) {
  // Large enough for several threads (blocks of at least 2^15 vertices), dense steps throughout.
  const TestGraph g =
      generate_random_graph({.vertices = 140000, .passive_fraction = 0.3, .out_degree = 3, .goals = 140, .seed = 3});
  std::vector<VertexId> goals;
  for (VertexId v : g.vertices())
    if (g.is_goal(v)) goals.push_back(v);
  BoundedReachOptions o{.bound = 12, .sweep = ReachSweep::dense, .threads = 1, .frontier_statistics = true};
  const BoundedReachResult one = solve_bounded_reachability(g, goals, o);
  for (unsigned t : {2u, 3u, 4u}) {
    o.threads = t;
    const BoundedReachResult many = solve_bounded_reachability(g, goals, o);
    ASSERT_EQ(many.num_change_points(), one.num_change_points()) << t;
    ASSERT_EQ(many.frontier_sizes(), one.frontier_sizes()) << t;
    for (VertexId v : g.vertices()) {
      ASSERT_EQ(many.prob(v), one.prob(v)) << t;
      ASSERT_EQ(many.cost(v), one.cost(v)) << t;
      const auto a = one.change_points(v), b = many.change_points(v);
      ASSERT_EQ(a.size(), b.size()) << t;
      for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].k, b[i].k);
        ASSERT_EQ(a[i].edge, b[i].edge);
      }
    }
  }
  EXPECT_GT(one.num_change_points(), 100000u);
}
