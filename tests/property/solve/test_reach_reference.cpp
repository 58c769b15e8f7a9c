// The bounded reachability solver against a plain reference implementation of seed 000 §3.3 (every
// vertex recomputed at every k, the full S(v, k) table kept) on random graphs of a few thousand
// vertices: values, every S(v, k) and the change points must be bit-identical, for every sweep mode.
// Guards the solver's performance work (prefetching, compressed change points) against drift; the
// optimality of the algorithm itself is checked against brute force in test_reach_win_bruteforce.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/bounded_reachability.hpp"

using namespace playtest;

namespace {

struct Reference {
  std::vector<ReachValue> value;               // at the bound
  std::vector<std::vector<EdgeId>> choice;     // [k][v]
};

Reference reference_solve(const TestGraph& g, std::span<const VertexId> goals, std::uint32_t n) {
  const LexicographicOrder order;
  const std::uint32_t V = g.num_vertices();
  std::vector<std::uint8_t> goal(V, 0);
  for (VertexId v : goals) goal[v.index()] = 1;
  std::vector<ReachValue> val(V), next(V);
  for (std::uint32_t v = 0; v < V; ++v)
    if (goal[v]) val[v].prob = 1.0;
  Reference ref;
  ref.choice.assign(n + 1, std::vector<EdgeId>(V, EdgeId::none()));
  for (std::uint32_t k = 1; k <= n; ++k) {
    for (VertexId u : g.vertices()) {
      const std::uint32_t i = u.value;
      if (goal[i]) {
        next[i] = val[i];
        continue;
      }
      if (g.is_passive(u)) {
        ReachValue x{};
        for (EdgeId e : g.out_edges(u)) {
          x.prob += g.probability(e) * val[g.target(e).index()].prob;
          x.cost = std::max(x.cost, g.cost(e) + val[g.target(e).index()].cost);
        }
        next[i] = x;
        continue;
      }
      EdgeId best_edge = ref.choice[k - 1][i];
      ReachValue best{};
      if (!best_edge.is_none())
        best = {val[g.target(best_edge).index()].prob, g.cost(best_edge) + val[g.target(best_edge).index()].cost};
      for (EdgeId e : g.out_edges(u)) {
        const ReachValue x{val[g.target(e).index()].prob, g.cost(e) + val[g.target(e).index()].cost};
        if (order.better(x, best)) {
          best = x;
          best_edge = e;
        }
      }
      if (!best_edge.is_none() && order.better(ReachValue{}, best)) {
        best = {};
        best_edge = EdgeId::none();
      }
      ref.choice[k][i] = best_edge;
      next[i] = best;
    }
    val.swap(next);
  }
  ref.value = val;
  return ref;
}

void expect_same(const TestGraph& g, std::span<const VertexId> goals, std::uint32_t n, ReachSweep sweep) {
  const Reference ref = reference_solve(g, goals, n);
  const BoundedReachResult r = solve_bounded_reachability(g, goals, {.bound = n, .sweep = sweep});
  std::size_t changes = 0;
  for (VertexId v : g.vertices()) {
    ASSERT_EQ(r.prob(v), ref.value[v.index()].prob) << "vertex " << v.value;
    ASSERT_EQ(r.cost(v), ref.value[v.index()].cost) << "vertex " << v.value;
    for (std::uint32_t k = 0; k <= n; ++k) ASSERT_EQ(r.choice(v, k), ref.choice[k][v.index()]) << v.value << " " << k;
    ASSERT_EQ(r.choice(v), ref.choice[n][v.index()]);
    // Change points: exactly the k where the reference's choice differs from the one at k - 1.
    std::vector<ReachChangePoint> expected;
    for (std::uint32_t k = 1; k <= n; ++k)
      if (ref.choice[k][v.index()] != ref.choice[k - 1][v.index()]) expected.push_back({k, ref.choice[k][v.index()]});
    const auto cps = r.change_points(v);
    ASSERT_EQ(cps.size(), expected.size()) << "vertex " << v.value;
    for (std::size_t i = 0; i < cps.size(); ++i) {
      EXPECT_EQ(cps[i].k, expected[i].k);
      EXPECT_EQ(cps[i].edge, expected[i].edge);
    }
    changes += cps.size();
  }
  EXPECT_EQ(r.num_change_points(), changes);
}

TEST(BoundedReachReference, RandomGraphsEverySweep) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed)
    for (bool strong : {false, true}) {
      const TestGraph g = generate_random_graph(
          {.vertices = 3000, .out_degree = 1 + static_cast<std::uint32_t>(seed % 4), .goals = 3,
           .strongly_connected = strong, .seed = seed});
      const auto goals = g.goals();
      for (ReachSweep sweep : {ReachSweep::automatic, ReachSweep::frontier, ReachSweep::dense})
        expect_same(g, goals, 60, sweep);
    }
}

// Change points far apart (multi-byte gaps) and vertices with hundreds of out-edges (multi-byte slots).
TEST(BoundedReachReference, LongGapsAndHighDegree) {
  GraphBuilder b;
  const std::uint32_t chain = 400, fan = 300;
  std::vector<VertexId> c;
  for (std::uint32_t i = 0; i <= chain; ++i) c.push_back(b.add_vertex("c" + std::to_string(i), VertexKind::active, i == 0));
  for (std::uint32_t i = 1; i <= chain; ++i) b.add_edge({.from = c[i], .to = c[i - 1], .label = "a", .cost = 1});
  // hub: a far edge along the chain (reaches the goal late, cheaply) and many expensive short cuts
  // that become reachable one after another, so the hub's choice changes at widely spaced k.
  const VertexId hub = b.add_vertex("hub", VertexKind::active);
  b.add_edge({.from = hub, .to = c[chain], .label = "far", .cost = 0});
  for (std::uint32_t j = 0; j < fan; ++j)
    b.add_edge({.from = hub, .to = c[(j * 7919) % chain], .label = "s", .cost = static_cast<double>(1 + j % 13)});
  const VertexId p = b.add_vertex("p", VertexKind::passive);
  for (std::uint32_t j = 0; j < 200; ++j)
    b.add_edge({.from = p, .to = j % 2 ? hub : c[(j * 31) % chain], .label = "o", .cost = 1, .prob = 1.0 / 200});
  b.add_edge({.from = hub, .to = p, .label = "p", .cost = 2});
  b.set_initial(hub);
  const TestGraph g = b.build();
  const auto goals = g.goals();
  expect_same(g, goals, 450, ReachSweep::automatic);
  expect_same(g, goals, 450, ReachSweep::frontier);
}

}  // namespace
