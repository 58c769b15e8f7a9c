// The reactive planner's scalable online gain evaluation against the paper's construction (the
// stored reduced trees TR(e, G), kept as ReactivePlanner::gain_tree / tree_gain) on thousands of
// small random seeded graphs, both path lengths, random traps and bindings:
// (1) every stored tree is a shortest-paths tree (each node's d is the true distance, checked by
//     Bellman-Ford here) and its parents are trap ancestors;
// (2) tree_gain and the uncut online_gain both equal rules (3)/(4) applied to that tree by a
//     recursive evaluation written here;
// (3) the online gain cut at K unvisited traps equals the same rules on the tree cut at the
//     distance where K unvisited traps have been seen, is never above the full gain, and is positive
//     exactly when the full gain is (so the tester stops exactly when it did);
// (4) the policies built on the trees and on the uncut online search make the same decisions;
// (5) the backward field of the run's tail gives the horizon-1 online gain for every edge, and a
//     policy using it decides as one searching forward with horizon 1.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/plan/reactive_planner.hpp"

namespace playtest {
namespace {

TestGraph random_graph(Rng& rng, std::uint32_t min_cost = 0) {
  GraphBuilder b;
  const std::uint32_t n = 2 + static_cast<std::uint32_t>(rng.below(7));
  std::vector<VertexId> vs;
  std::vector<bool> passive;
  for (std::uint32_t i = 0; i < n; ++i) {
    passive.push_back(i > 0 && rng.below(100) < 35);
    vs.push_back(b.add_vertex(fmt::format("v{}", i), passive.back() ? VertexKind::passive : VertexKind::active));
  }
  static const char* labels[] = {"l0", "l1", "l2", "l3"};
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t deg = static_cast<std::uint32_t>(rng.below(4));
    if (passive[i] && deg == 0) deg = 1;
    for (std::uint32_t k = 0; k < deg; ++k) {
      EdgeSpec e{.from = vs[i], .to = vs[rng.below(n)], .label = labels[k], .cost = static_cast<double>(min_cost + rng.below(4))};
      if (passive[i]) e.weight = 1.0;
      b.add_edge(e);
    }
  }
  b.set_initial(vs[0]);
  if (rng.below(3) == 0) b.set_reset_cost(1.0);
  return b.build();
}

double len(const TestGraph& g, EdgeId e, PathLength m) { return m == PathLength::unit ? 1.0 : std::max(g.cost(e), 0.0); }

// Bellman-Ford distances from u.
std::vector<double> distances(const TestGraph& g, VertexId u, PathLength m) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> d(g.num_vertices(), inf);
  d[u.index()] = 0;
  for (std::uint32_t it = 0; it < g.num_vertices(); ++it)
    for (EdgeId e : g.edges())
      d[g.target(e).index()] = std::min(d[g.target(e).index()], d[g.source(e).index()] + len(g, e, m));
  return d;
}

// Rules (3)/(4) on TR(e, G) by recursion: g(nu) = not(t) * c / max(root_length + d, min) + max over
// children. Nodes whose source lies farther than `cut` from target(e) are left out.
double rules(const TestGraph& g, const GainTree& t, const std::vector<std::uint32_t>& visited, const PlannerOptions& o,
             PathLength m, double cut) {
  const double rl = len(g, t.root, m);
  std::vector<std::vector<std::uint32_t>> kids(t.nodes.size());
  for (std::uint32_t i = 1; i < t.nodes.size(); ++i) kids[t.nodes[i].parent].push_back(i);
  auto inside = [&](std::uint32_t i) { return t.nodes[i].d - len(g, t.nodes[i].edge, m) <= cut; };
  auto value = [&](auto&& self, std::uint32_t i) -> double {
    double best = 0;
    for (std::uint32_t k : kids[i])
      if (inside(k)) best = std::max(best, self(self, k));
    const bool term = i == 0 ? t.root_is_trap : true;  // tree nodes other than the root are traps
    const double w = term && visited[t.nodes[i].edge.index()] == 0 ? o.c / std::max(rl + t.nodes[i].d, o.min_length) : 0;
    return w + best;
  };
  return value(value, 0);
}

// The cut of online_gain(e, visited, k): the k-th smallest source distance of an unvisited trap node.
double cut_for(const TestGraph& g, const GainTree& t, const std::vector<std::uint32_t>& visited, PathLength m,
               std::uint32_t k) {
  std::vector<double> ds;
  for (std::size_t i = 1; i < t.nodes.size(); ++i)
    if (visited[t.nodes[i].edge.index()] == 0) ds.push_back(t.nodes[i].d - len(g, t.nodes[i].edge, m));
  if (k == 0 || ds.size() < k) return std::numeric_limits<double>::infinity();
  std::nth_element(ds.begin(), ds.begin() + (k - 1), ds.end());
  return ds[k - 1];
}

TEST(PlannerProperty, OnlineGainEqualsTheStoredTreesAndTheHorizonCutIsSound) {
  Rng rng(2007);
  int checked = 0, cut_differs = 0, positive = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const TestGraph g = random_graph(rng);
    std::vector<EdgeId> traps;
    for (EdgeId e : g.edges())
      if (rng.below(3) != 0) traps.push_back(e);
    if (traps.empty() && rng.below(2)) continue;  // empty list: every edge is a trap
    const PathLength m = rng.below(2) ? PathLength::unit : PathLength::cost;
    const PlannerOptions o{.c = rng.below(2) ? 1.0 : 3.0, .length = m, .evaluation = GainEvaluation::trees};
    ReactivePlanner p(g, traps, o);
    ASSERT_TRUE(p.uses_trees());
    for (int bind = 0; bind < 3; ++bind) {
      std::vector<std::uint32_t> visited(g.num_edges(), 0);
      for (auto& v : visited) v = rng.below(3) == 0;
      for (EdgeId e : g.edges()) {
        const GainTree t = p.gain_tree(e);
        if (bind == 0) {
          const std::vector<double> d = distances(g, g.target(e), m);
          for (std::size_t i = 1; i < t.nodes.size(); ++i) {
            const EdgeId x = t.nodes[i].edge;
            ASSERT_TRUE(p.is_trap(x));
            ASSERT_NE(x, e);
            ASSERT_LT(t.nodes[i].parent, i);
            ASSERT_DOUBLE_EQ(t.nodes[i].d, d[g.source(x).index()] + len(g, x, m)) << "node d is a shortest distance";
            const std::uint32_t par = t.nodes[i].parent;
            if (par != 0) {
              ASSERT_LE(t.nodes[par].d, d[g.source(x).index()]) << "a parent lies on the path before";
            }
          }
        }
        const double full = rules(g, t, visited, o, m, std::numeric_limits<double>::infinity());
        ASSERT_NEAR(p.tree_gain(e, visited), full, 1e-12);
        ASSERT_NEAR(p.online_gain(e, visited, 0), full, 1e-12);
        positive += full > 0;
        for (std::uint32_t k : {1u, 2u, 3u, 5u}) {
          const double want = rules(g, t, visited, o, m, cut_for(g, t, visited, m, k));
          const double got = p.online_gain(e, visited, k);
          ASSERT_NEAR(got, want, 1e-12) << "k " << k;
          ASSERT_LE(got, full + 1e-12);
          ASSERT_EQ(got > 0, full > 0);
          cut_differs += got < full - 1e-12;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40000);
  EXPECT_GT(positive, checked / 3);
  EXPECT_GT(cut_differs, 1000) << "the horizon cut must matter on some cases";
}

TEST(PlannerProperty, TreeAndOnlinePoliciesDecideAlike) {
  Rng rng(4242);
  int decisions = 0, stops = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    const TestGraph g = random_graph(rng);
    std::vector<EdgeId> traps;
    for (EdgeId e : g.edges())
      if (rng.below(2) != 0) traps.push_back(e);
    const PathLength m = rng.below(2) ? PathLength::unit : PathLength::cost;
    PlannerPolicy a(g, {.length = m, .evaluation = GainEvaluation::trees}, traps);
    PlannerPolicy b(g, {.length = m, .evaluation = GainEvaluation::online, .horizon = 0}, traps);
    std::vector<std::uint32_t> visits(g.num_edges(), 0);
    VertexId cur = g.initial();
    Rng ra(iter), rb(iter), sys(iter + 7);
    RunView v0{g, cur, 0, visits, {}};
    a.begin_run(v0, ra);
    b.begin_run(v0, rb);
    ASSERT_TRUE(a.planner()->uses_trees());
    ASSERT_FALSE(b.planner()->uses_trees());
    for (std::uint64_t step = 0; step < 40; ++step) {
      RunView view{g, cur, step, visits, {}};
      EdgeId next = EdgeId::none();
      if (g.is_active(cur)) {
        const Decision da = a.choose(view, ra), db = b.choose(view, rb);
        ASSERT_EQ(da.kind, db.kind) << "iter " << iter << " step " << step;
        ASSERT_EQ(da.edge, db.edge) << "iter " << iter << " step " << step;
        ++decisions;
        if (da.kind == Decision::Kind::stop) {
          ++stops;
          break;
        }
        if (da.kind == Decision::Kind::reset) {
          cur = g.initial();
          continue;
        }
        next = da.edge;
      } else {
        if (g.out_degree(cur) == 0) break;
        auto outs = g.out_edges(cur);
        next = *(outs.begin() + static_cast<std::ptrdiff_t>(sys.below(g.out_degree(cur))));
      }
      ++visits[next.index()];
      cur = g.target(next);
      RunView after{g, cur, step + 1, visits, {}};
      a.observe(next, after);
      b.observe(next, after);
    }
  }
  EXPECT_GT(decisions, 10000);
  EXPECT_GT(stops, 200);
}

TEST(PlannerProperty, TailFieldEqualsHorizonOneSearch) {
  Rng rng(77);
  int checked = 0, positive = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const PathLength m = rng.below(2) ? PathLength::unit : PathLength::cost;
    const TestGraph g = random_graph(rng, 1);
    std::vector<EdgeId> traps;
    for (EdgeId e : g.edges())
      if (rng.below(2) != 0) traps.push_back(e);
    ReactivePlanner p(g, traps, {.c = 2.0, .length = m, .evaluation = GainEvaluation::online});
    ASSERT_TRUE(p.has_field());
    for (int bind = 0; bind < 3; ++bind) {
      std::vector<std::uint32_t> visited(g.num_edges(), 0);
      for (auto& v : visited) v = rng.below(2) == 0;
      p.build_field(visited);
      for (EdgeId e : g.edges()) {
        const double want = p.online_gain(e, visited, 1);
        ASSERT_NEAR(p.field_gain(e, visited), want, 1e-12) << "iter " << iter << " edge " << e.index();
        positive += want > 0;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40000);
  EXPECT_GT(positive, checked / 4);
  // A zero cost breaks the field's premise (a tree path of length 0 may hold further traps).
  GraphBuilder b;
  VertexId a = b.add_vertex("a", VertexKind::active), c = b.add_vertex("b", VertexKind::active);
  b.add_edge({.from = a, .to = c, .label = "x", .cost = 0});
  b.add_edge({.from = c, .to = a, .label = "y", .cost = 1});
  b.set_initial(a);
  const TestGraph g = b.build();
  EXPECT_FALSE(ReactivePlanner(g, {}, {.length = PathLength::cost}).has_field());
  EXPECT_TRUE(ReactivePlanner(g, {}, {.length = PathLength::unit}).has_field());
}

TEST(PlannerProperty, TailPolicyDecidesAsHorizonOne) {
  Rng rng(31);
  int decisions = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    const PathLength m = rng.below(2) ? PathLength::unit : PathLength::cost;
    const TestGraph g = random_graph(rng, 1);
    PlannerPolicy a(g, {.length = m, .evaluation = GainEvaluation::online, .horizon = 1, .tail_traps = 0});
    PlannerPolicy b(g, {.length = m, .evaluation = GainEvaluation::online, .horizon = 1, .tail_traps = 1000});
    std::vector<std::uint32_t> visits(g.num_edges(), 0);
    VertexId cur = g.initial();
    Rng ra(iter), rb(iter), sys(iter + 3);
    RunView v0{g, cur, 0, visits, {}};
    a.begin_run(v0, ra);
    b.begin_run(v0, rb);
    for (std::uint64_t step = 0; step < 40; ++step) {
      RunView view{g, cur, step, visits, {}};
      EdgeId next = EdgeId::none();
      if (g.is_active(cur)) {
        const Decision da = a.choose(view, ra), db = b.choose(view, rb);
        ASSERT_EQ(da.kind, db.kind) << "iter " << iter << " step " << step;
        ASSERT_EQ(da.edge, db.edge) << "iter " << iter << " step " << step;
        ++decisions;
        if (da.kind == Decision::Kind::stop) break;
        if (da.kind == Decision::Kind::reset) {
          cur = g.initial();
          continue;
        }
        next = da.edge;
      } else {
        if (g.out_degree(cur) == 0) break;
        next = *(g.out_edges(cur).begin() + static_cast<std::ptrdiff_t>(sys.below(g.out_degree(cur))));
      }
      ++visits[next.index()];
      cur = g.target(next);
      RunView after{g, cur, step + 1, visits, {}};
      a.observe(next, after);
      b.observe(next, after);
    }
  }
  EXPECT_GT(decisions, 5000);
}

TEST(PlannerProperty, AutomaticEvaluationFollowsTheMemoryBudget) {
  Rng rng(99);
  const TestGraph g = random_graph(rng);
  const std::uint64_t all = std::uint64_t{g.num_vertices()} * g.num_edges();
  EXPECT_TRUE(ReactivePlanner(g, {}, {.max_tree_nodes = all}).uses_trees());
  EXPECT_FALSE(ReactivePlanner(g, {}, {.max_tree_nodes = all - 1}).uses_trees());
  EXPECT_TRUE(ReactivePlanner(g, {}, {.max_tree_nodes = 0, .evaluation = GainEvaluation::trees}).uses_trees());
  ReactivePlanner online(g, {}, {.evaluation = GainEvaluation::online});
  std::vector<std::uint32_t> visited(g.num_edges(), 0);
  for (EdgeId e : g.edges()) (void)online.gain(e, visited);
  EXPECT_EQ(online.trees_built(), 0u) << "the online evaluation stores no tree";
  EXPECT_EQ(online.stored_nodes(), 0u);
}

}  // namespace
}  // namespace playtest
