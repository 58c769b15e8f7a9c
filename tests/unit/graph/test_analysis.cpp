// Reachability and strongly connected components against brute force (transitive closure).
#include <gtest/gtest.h>

#include "playtest/graph/analysis.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"

using namespace playtest;

namespace {

TestGraph random_graph(Rng& rng, std::uint32_t n, std::uint32_t m) {
  GraphBuilder b;
  for (std::uint32_t v = 0; v < n; ++v) b.add_vertex("v" + std::to_string(v), VertexKind::active);
  for (std::uint32_t i = 0; i < m; ++i)
    b.add_edge({.from = VertexId{static_cast<std::uint32_t>(rng.below(n))},
                .to = VertexId{static_cast<std::uint32_t>(rng.below(n))}});
  b.set_initial(VertexId{0});
  return b.build();
}

std::vector<std::vector<bool>> closure(const TestGraph& g) {
  const auto n = g.num_vertices();
  std::vector<std::vector<bool>> r(n, std::vector<bool>(n, false));
  for (VertexId v : g.vertices()) {
    r[v.index()][v.index()] = true;
    for (EdgeId e : g.out_edges(v)) r[v.index()][g.target(e).index()] = true;
  }
  for (std::uint32_t k = 0; k < n; ++k)
    for (std::uint32_t i = 0; i < n; ++i)
      if (r[i][k])
        for (std::uint32_t j = 0; j < n; ++j)
          if (r[k][j]) r[i][j] = true;
  return r;
}

}  // namespace

TEST(Analysis, AgreesWithTransitiveClosure) {
  Rng rng(17);
  for (int round = 0; round < 400; ++round) {
    const auto n = static_cast<std::uint32_t>(1 + rng.below(9));
    const auto m = static_cast<std::uint32_t>(rng.below(3 * n));
    TestGraph g = random_graph(rng, n, m);
    auto r = closure(g);
    auto scc = strongly_connected_components(g);
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = 0; j < n; ++j) {
        const bool same = r[i][j] && r[j][i];
        EXPECT_EQ(scc.component[i] == scc.component[j], same);
        // Reverse topological numbering: an edge never goes to a higher component.
      }
    for (EdgeId e : g.edges()) EXPECT_GE(scc.component[g.source(e).index()], scc.component[g.target(e).index()]);
    const VertexId from[] = {VertexId{0}};
    auto fwd = reachable_from(g, from);
    auto bwd = can_reach(g, from);
    for (std::uint32_t j = 0; j < n; ++j) {
      EXPECT_EQ(fwd[j] != 0, r[0][j]);
      EXPECT_EQ(bwd[j] != 0, r[j][0]);
    }
  }
}

TEST(Analysis, DeepGraphsDoNotOverflowTheStack) {
  // A path of a million vertices: recursion would overflow, the iterative Tarjan does not.
  GraphBuilder b;
  const std::uint32_t n = 1000000;
  for (std::uint32_t v = 0; v < n; ++v) b.add_vertex("v" + std::to_string(v), VertexKind::active);
  for (std::uint32_t v = 0; v + 1 < n; ++v) b.add_edge({.from = VertexId{v}, .to = VertexId{v + 1}});
  b.set_initial(VertexId{0});
  TestGraph g = b.build();
  auto scc = strongly_connected_components(g);
  EXPECT_EQ(scc.count, n);
}

TEST(Generator, DeterministicAndAsAsked) {
  RandomGraphOptions o{.vertices = 500, .passive_fraction = 0.3, .out_degree = 3, .goals = 7,
                       .strongly_connected = true, .seed = 99};
  TestGraph a = generate_random_graph(o), b = generate_random_graph(o);
  ASSERT_EQ(a.num_edges(), 1500u);
  for (EdgeId e : a.edges()) {
    EXPECT_EQ(a.target(e), b.target(e));
    EXPECT_EQ(a.cost(e), b.cost(e));
    EXPECT_EQ(a.probability(e), b.probability(e));
  }
  EXPECT_EQ(a.num_goals(), 7u);
  EXPECT_FALSE(a.is_goal(a.initial()));
  EXPECT_EQ(strongly_connected_components(a).count, 1u);
  EXPECT_GT(a.num_passive(), 100u);
  EXPECT_LT(a.num_passive(), 200u);
  for (VertexId v : a.vertices()) {
    if (!a.is_passive(v)) continue;
    double sum = 0;
    for (EdgeId e : a.out_edges(v)) sum += a.probability(e);
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  o.seed = 100;
  TestGraph c = generate_random_graph(o);
  bool differs = false;
  for (EdgeId e : a.edges()) differs |= a.target(e) != c.target(e);
  EXPECT_TRUE(differs);
  EXPECT_THROW(generate_random_graph({.vertices = 0}), UsageError);
  EXPECT_THROW(generate_random_graph({.vertices = 5, .out_degree = 0}), UsageError);
}
