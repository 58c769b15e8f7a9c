#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/graph/transforms.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/sure_winning.hpp"

using namespace playtest;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

EdgeId edge_named(const TestGraph& g, std::string_view name) {
  auto e = g.find_edge(name);
  EXPECT_TRUE(e.has_value()) << name;
  return e.value_or(EdgeId::none());
}

VertexId vertex_named(const TestGraph& g, std::string_view name) {
  auto v = g.find_vertex(name);
  EXPECT_TRUE(v.has_value()) << name;
  return v.value_or(VertexId::none());
}

TEST(MergeParallelEdges, ActiveKeepsCheapestPassiveAveragesCost) {
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::passive);
  auto g = b.add_vertex("g", VertexKind::active, true);
  b.add_edge({.from = s, .to = c, .label = "slow", .cost = 5, .name = "s1"});
  b.add_edge({.from = s, .to = c, .label = "fast", .cost = 2, .name = "s2"});
  b.add_edge({.from = s, .to = c, .label = "fast2", .cost = 2, .name = "s3"});
  b.add_edge({.from = c, .to = g, .label = "?x", .cost = 1, .prob = 0.25, .name = "c1"});
  b.add_edge({.from = c, .to = s, .label = "?y", .cost = 0, .prob = 0.25, .name = "c2"});
  b.add_edge({.from = c, .to = g, .label = "?z", .cost = 4, .prob = 0.125, .name = "c3"});
  b.add_edge({.from = c, .to = g, .label = "?x", .cost = 0, .prob = 0.125, .name = "c4"});
  b.add_edge({.from = c, .to = g, .label = "?t", .cost = 9, .prob = 0.25, .name = "c5", .timeout = true});
  b.set_initial(s);
  b.set_reset_cost(3.0);
  TestGraph G = b.build();
  TransformResult r = merge_parallel_edges(G);
  const TestGraph& M = r.graph;
  EXPECT_EQ(M.num_vertices(), 3u);
  EXPECT_EQ(M.num_edges(), 4u);  // s2; c1 (merged c1, c3, c4); c2; c5 (timeout, kept apart)
  EXPECT_EQ(M.reset_cost(), 3.0);
  EXPECT_EQ(M.name(M.initial()), "s");
  const EdgeId s2 = edge_named(M, "s2");
  EXPECT_EQ(M.cost(s2), 2.0);
  EXPECT_EQ(M.label(s2), "fast");
  EXPECT_EQ(r.edge_origin[s2.index()], edge_named(G, "s2"));
  EXPECT_FALSE(M.find_edge("s1").has_value());
  const EdgeId c1 = edge_named(M, "c1");
  EXPECT_DOUBLE_EQ(M.probability(c1), 0.5);
  EXPECT_DOUBLE_EQ(M.cost(c1), (0.25 * 1 + 0.125 * 4 + 0.125 * 0) / 0.5);
  EXPECT_EQ(M.label(c1), "?x|?z");
  EXPECT_EQ(r.edge_origin[c1.index()], edge_named(G, "c1"));
  const EdgeId c5 = edge_named(M, "c5");
  EXPECT_TRUE(M.is_timeout(c5));
  EXPECT_EQ(M.cost(c5), 9.0);
  for (VertexId v : M.vertices()) EXPECT_EQ(M.name(v), G.name(r.vertex_origin[v.index()]));
}

// s -> c1; c1: 1/2 to a (cost 4), 1/2 to c2 (cost 2); c2: 1/2 back to c1 (cost 1), 1/2 to g (cost 3).
// From c1 the first stop vertex is a with probability 2/3 (expected path cost given a: 5) and g with
// 1/3 (given g: 6); overall expected cost 16/3.
TestGraph chain_with_passive_cycle() {
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto c1 = b.add_vertex("c1", VertexKind::passive);
  auto c2 = b.add_vertex("c2", VertexKind::passive);
  auto a = b.add_vertex("a", VertexKind::active);
  auto g = b.add_vertex("g", VertexKind::active, true);
  b.add_edge({.from = s, .to = c1, .label = "go", .cost = 1, .name = "go"});
  b.add_edge({.from = c1, .to = a, .label = "?a", .cost = 4, .prob = 0.5});
  b.add_edge({.from = c1, .to = c2, .label = "?c", .cost = 2, .prob = 0.5});
  b.add_edge({.from = c2, .to = c1, .label = "?b", .cost = 1, .prob = 0.5});
  b.add_edge({.from = c2, .to = g, .label = "?g", .cost = 3, .prob = 0.5});
  b.add_edge({.from = a, .to = s, .label = "back", .cost = 1});
  b.set_initial(s);
  return b.build();
}

TEST(CompressPassive, PassiveCycleIsSummedExactly) {
  TestGraph G = chain_with_passive_cycle();
  CompressResult r = compress_passive(G);
  const TestGraph& C = r.graph;
  EXPECT_EQ(C.num_vertices(), 4u);  // c2 is gone
  EXPECT_EQ(r.eliminated, 1u);
  EXPECT_TRUE(r.trap_vertices.empty());
  EXPECT_FALSE(C.find_vertex("c2").has_value());
  EXPECT_TRUE(r.vertex_image[vertex_named(G, "c2").index()].is_none());
  const VertexId c1 = vertex_named(C, "c1");
  ASSERT_EQ(C.out_degree(c1), 2u);
  const EdgeId to_a = edge_named(C, "c1~a");
  const EdgeId to_g = edge_named(C, "c1~g");
  EXPECT_NEAR(C.probability(to_a), 2.0 / 3, 1e-15);
  EXPECT_NEAR(C.probability(to_g), 1.0 / 3, 1e-15);
  EXPECT_NEAR(C.cost(to_a), 5.0, 1e-12);
  EXPECT_NEAR(C.cost(to_g), 6.0, 1e-12);
  EXPECT_EQ(C.label(to_a), "*");
  EXPECT_TRUE(r.edge_origin[to_a.index()].is_none());
  // Active edges are untouched and map back.
  const EdgeId go = edge_named(C, "go");
  EXPECT_EQ(r.edge_origin[go.index()], edge_named(G, "go"));
  EXPECT_EQ(C.cost(go), 1.0);
}

TEST(CompressPassive, TrapsAreDetected) {
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::passive);
  auto d = b.add_vertex("d", VertexKind::passive);
  auto t = b.add_vertex("t", VertexKind::passive);
  auto u = b.add_vertex("u", VertexKind::passive);
  auto g = b.add_vertex("g", VertexKind::active, true);
  b.add_edge({.from = s, .to = c, .label = "x", .name = "sc"});
  b.add_edge({.from = s, .to = d, .label = "x", .name = "sd"});
  b.add_edge({.from = c, .to = t, .label = "?", .prob = 0.5, .name = "ct"});
  b.add_edge({.from = c, .to = g, .label = "?", .prob = 0.5, .name = "cg"});
  b.add_edge({.from = t, .to = u, .label = "?", .prob = 1.0});
  b.add_edge({.from = u, .to = t, .label = "?", .prob = 1.0});
  b.add_edge({.from = d, .to = g, .label = "?", .prob = 1.0, .name = "dg"});
  b.set_initial(s);
  TestGraph G = b.build();
  CompressResult r = compress_passive(G);
  std::vector<VertexId> traps = r.trap_vertices;
  ASSERT_EQ(traps.size(), 2u);
  EXPECT_EQ(G.name(traps[0]), "t");
  EXPECT_EQ(G.name(traps[1]), "u");
  EXPECT_EQ(r.uncompressed_passive, 3u);  // c can fall into the trap: left as is
  EXPECT_EQ(r.graph.num_edges(), G.num_edges());
  EXPECT_EQ(r.graph.out_degree(vertex_named(r.graph, "c")), 2u);
  EXPECT_THROW(compress_passive(G, {.on_trap = TrapPolicy::fail}), GraphError);
}

TEST(RestrictToReachable, DropsUnreachablePart) {
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto x = b.add_vertex("x", VertexKind::active);
  auto g = b.add_vertex("g", VertexKind::active, true);
  auto h = b.add_vertex("h", VertexKind::active, true);
  b.add_edge({.from = s, .to = g, .label = "a", .name = "sg"});
  b.add_edge({.from = x, .to = s, .label = "a", .name = "xs"});
  b.add_edge({.from = x, .to = h, .label = "a", .name = "xh"});
  b.set_initial(s);
  TestGraph G = b.build();
  TransformResult r = restrict_to_reachable(G);
  EXPECT_EQ(r.graph.num_vertices(), 2u);
  EXPECT_EQ(r.graph.num_edges(), 1u);
  EXPECT_EQ(r.graph.num_goals(), 1u);
  EXPECT_TRUE(r.vertex_image[x.index()].is_none());
  EXPECT_TRUE(r.vertex_image[h.index()].is_none());
  EXPECT_EQ(r.vertex_origin[r.vertex_image[g.index()].index()], g);
  EXPECT_EQ(r.edge_origin[0], edge_named(G, "sg"));
}

// --- what the transforms preserve, on random small graphs -------------------------------------

TestGraph random_graph(Rng& rng, double passive_share) {
  const auto n = static_cast<std::uint32_t>(2 + rng.below(7));
  GraphBuilder b;
  std::vector<VertexId> vs;
  std::vector<bool> passive(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    passive[i] = rng.uniform01() < passive_share;
    vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active,
                              rng.below(5) == 0));
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto deg = static_cast<std::uint32_t>(passive[i] ? 1 + rng.below(3) : rng.below(4));
    std::vector<std::uint32_t> parts(deg, 1);
    if (passive[i])
      for (std::uint32_t k = deg; k < 8; ++k) ++parts[rng.below(deg)];
    for (std::uint32_t j = 0; j < deg; ++j) {
      EdgeSpec e{.from = vs[i], .to = vs[rng.below(n)], .label = "a", .cost = static_cast<double>(rng.below(4))};
      if (passive[i]) e.prob = parts[j] / 8.0;
      b.add_edge(e);
    }
  }
  b.set_initial(vs[0]);
  return b.build();
}

// Solves A x = rhs (dense, partial pivoting); A is n x n row-major.
std::vector<double> gauss(std::vector<double> A, std::vector<double> rhs) {
  const std::size_t n = rhs.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(A[r * n + c]) > std::abs(A[p * n + c])) p = r;
    for (std::size_t k = 0; k < n; ++k) std::swap(A[c * n + k], A[p * n + k]);
    std::swap(rhs[c], rhs[p]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || A[r * n + c] == 0) continue;
      const double f = A[r * n + c] / A[c * n + c];
      for (std::size_t k = c; k < n; ++k) A[r * n + k] -= f * A[c * n + k];
      rhs[r] -= f * rhs[c];
    }
  }
  for (std::size_t c = 0; c < n; ++c) rhs[c] /= A[c * n + c];
  return rhs;
}

struct Optimal {
  std::vector<double> expected;  // min expected cost to reach a goal (inf: no proper strategy)
  std::vector<double> reach;     // max probability to ever reach a goal
};

// Brute force over all memoryless strategies (optimal for both objectives): per strategy, exact
// linear solves on the Markov chain.
Optimal brute_force(const TestGraph& g) {
  const std::uint32_t n = g.num_vertices();
  std::vector<VertexId> act;
  for (VertexId v : g.vertices())
    if (!g.is_goal(v) && g.is_active(v) && g.out_degree(v) > 0) act.push_back(v);
  Optimal o{std::vector<double>(n, inf), std::vector<double>(n, 0.0)};
  std::vector<std::uint32_t> pick(act.size(), 0);
  std::vector<EdgeId> strat(n, EdgeId::none());
  for (;;) {
    for (std::size_t i = 0; i < act.size(); ++i) strat[act[i].index()] = g.out_edges(act[i])[pick[i]];
    auto succ = [&](VertexId v) {
      std::vector<std::pair<EdgeId, double>> s;
      if (g.is_goal(v)) return s;
      if (g.is_passive(v)) {
        for (EdgeId e : g.out_edges(v)) s.emplace_back(e, g.probability(e));
      } else if (!strat[v.index()].is_none()) {
        s.emplace_back(strat[v.index()], 1.0);
      }
      return s;
    };
    // can[v]: a goal is reachable in the chain; bad: some vertex reachable from v cannot reach one.
    std::vector<std::uint8_t> can(n, 0);
    for (VertexId v : g.vertices()) can[v.index()] = g.is_goal(v);
    for (std::uint32_t it = 0; it < n; ++it)
      for (VertexId v : g.vertices())
        for (auto [e, p] : succ(v))
          if (can[g.target(e).index()]) can[v.index()] = 1;
    std::vector<std::uint8_t> bad(n, 0);
    for (VertexId v : g.vertices()) bad[v.index()] = !can[v.index()];
    for (std::uint32_t it = 0; it < n; ++it)
      for (VertexId v : g.vertices())
        for (auto [e, p] : succ(v))
          if (bad[g.target(e).index()]) bad[v.index()] = 1;
    // Reachability: x = 1 at goals, 0 where no goal is reachable, else x = P x.
    std::vector<double> A(static_cast<std::size_t>(n) * n, 0.0), rhs(n, 0.0), B(A), rhs2(n, 0.0);
    for (VertexId v : g.vertices()) {
      const std::size_t i = v.index();
      A[i * n + i] = 1.0;
      B[i * n + i] = 1.0;
      if (g.is_goal(v)) {
        rhs[i] = 1.0;
        continue;
      }
      if (can[i])
        for (auto [e, p] : succ(v)) A[i * n + g.target(e).index()] -= p;
      if (!bad[i])
        for (auto [e, p] : succ(v)) {
          B[i * n + g.target(e).index()] -= p;
          rhs2[i] += p * g.cost(e);
        }
    }
    auto x = gauss(A, rhs);
    auto y = gauss(B, rhs2);
    for (std::uint32_t v = 0; v < n; ++v) {
      o.reach[v] = std::max(o.reach[v], x[v]);
      if (!bad[v]) o.expected[v] = std::min(o.expected[v], y[v]);
    }
    std::size_t i = 0;
    for (; i < act.size(); ++i) {
      if (++pick[i] < g.out_degree(act[i])) break;
      pick[i] = 0;
    }
    if (i == act.size()) break;
  }
  return o;
}

void expect_close(double a, double b, const std::string& what) {
  if (a == inf || b == inf) {
    EXPECT_EQ(a, b) << what;
  } else {
    EXPECT_NEAR(a, b, 1e-9 * std::max(1.0, std::abs(b))) << what;
  }
}

TEST(TransformsPreserve, MergeKeepsExpectedCostReachabilityAndWinnability) {
  Rng rng(11);
  for (int iter = 0; iter < 600; ++iter) {
    TestGraph G = random_graph(rng, 0.4);
    TransformResult r = merge_parallel_edges(G);
    const TestGraph& M = r.graph;
    ASSERT_EQ(M.num_vertices(), G.num_vertices());
    // No parallel edges remain.
    for (VertexId v : M.vertices()) {
      std::vector<VertexId> ts;
      for (EdgeId e : M.out_edges(v)) ts.push_back(M.target(e));
      std::sort(ts.begin(), ts.end());
      ASSERT_TRUE(std::adjacent_find(ts.begin(), ts.end()) == ts.end());
    }
    Optimal a = brute_force(G), b = brute_force(M);
    auto goals_g = G.goals();
    auto goals_m = M.goals();
    std::vector<VertexId> all(G.vertices().begin(), G.vertices().end());
    auto ra = solve_bounded_reachability(G, goals_g, {.bound = 6, .record = all});
    auto rb = solve_bounded_reachability(M, goals_m, {.bound = 6, .record = all});
    auto wa = solve_sure_winning(G, goals_g);
    auto wb = solve_sure_winning(M, goals_m);
    for (VertexId v : G.vertices()) {
      const std::string what = "iter " + std::to_string(iter) + " v" + std::to_string(v.value);
      expect_close(b.expected[v.index()], a.expected[v.index()], what);
      expect_close(b.reach[v.index()], a.reach[v.index()], what);
      for (std::uint32_t k = 0; k <= 6; ++k) ASSERT_NEAR(rb.prob(v, k), ra.prob(v, k), 1e-12) << what;
      ASSERT_EQ(wb.winnable[v.index()], wa.winnable[v.index()]) << what;
    }
  }
}

TEST(TransformsPreserve, CompressKeepsExpectedCostAndReachability) {
  Rng rng(12);
  int eliminated = 0, with_traps = 0;
  for (int iter = 0; iter < 800; ++iter) {
    TestGraph G = random_graph(rng, 0.65);
    CompressResult r = compress_passive(G);
    const TestGraph& C = r.graph;
    eliminated += r.eliminated;
    with_traps += !r.trap_vertices.empty();
    // No edge joins two compressed passive vertices; active vertices and their edges are unchanged.
    for (EdgeId e : C.edges()) {
      const VertexId u = C.source(e), w = C.target(e);
      if (C.is_active(u)) {
        ASSERT_FALSE(r.edge_origin[e.index()].is_none());
        const EdgeId o = r.edge_origin[e.index()];
        ASSERT_EQ(G.source(o), r.vertex_origin[u.index()]);
        ASSERT_EQ(G.target(o), r.vertex_origin[w.index()]);
        ASSERT_EQ(G.cost(o), C.cost(e));
      }
    }
    for (VertexId v : G.vertices())
      if (G.is_active(v) || G.is_goal(v)) {
        ASSERT_FALSE(r.vertex_image[v.index()].is_none());
      }
    Optimal a = brute_force(G), b = brute_force(C);
    for (VertexId w : C.vertices()) {
      const VertexId v = r.vertex_origin[w.index()];
      const std::string what = "iter " + std::to_string(iter) + " v" + std::to_string(v.value);
      expect_close(b.expected[w.index()], a.expected[v.index()], what);
      expect_close(b.reach[w.index()], a.reach[v.index()], what);
    }
    // Compressing again changes nothing more.
    CompressResult again = compress_passive(C);
    ASSERT_EQ(again.graph.num_vertices(), C.num_vertices());
    ASSERT_EQ(again.eliminated, 0u);
  }
  EXPECT_GT(eliminated, 300);
  EXPECT_GT(with_traps, 20);
}

TEST(TransformsPreserve, RestrictKeepsEveryValue) {
  Rng rng(13);
  for (int iter = 0; iter < 500; ++iter) {
    TestGraph G = random_graph(rng, 0.4);
    TransformResult r = restrict_to_reachable(G);
    const TestGraph& R = r.graph;
    auto ga = G.goals();
    auto gb = R.goals();
    auto ra = solve_bounded_reachability(G, ga, {.bound = 5});
    auto rb = solve_bounded_reachability(R, gb, {.bound = 5});
    auto wa = solve_sure_winning(G, ga);
    auto wb = solve_sure_winning(R, gb);
    for (VertexId w : R.vertices()) {
      const VertexId v = r.vertex_origin[w.index()];
      ASSERT_EQ(rb.prob(w), ra.prob(v));
      ASSERT_EQ(rb.cost(w), ra.cost(v));
      ASSERT_EQ(wb.cost[w.index()], wa.cost[v.index()]);
    }
    std::uint32_t reachable = 0;
    for (VertexId v : G.vertices()) reachable += !r.vertex_image[v.index()].is_none();
    ASSERT_EQ(reachable, R.num_vertices());
  }
}

}  // namespace
