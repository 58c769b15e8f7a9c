// The context product (adapt/context_product.hpp): every run of the model is a run of the product,
// and at a vertex that learns per history the product vertex holds exactly the last edges taken.
// Checked by walking random graphs at random and comparing with the history kept by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "playtest/adapt/context_product.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/graph/random.hpp"

namespace playtest {
namespace {

ContextProduct::Learned declared(const TestGraph& g) {
  return [&g](VertexId v, std::span<const EdgeId>, std::span<double> probs) {
    std::size_t i = 0;
    for (EdgeId e : g.out_edges(v)) probs[i++] = g.probability(e);
  };
}

TEST(ContextProduct, WindowsAreTheLastEdgesWhereTheyAreLearned) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    const TestGraph g = generate_random_graph(
        {.vertices = 12, .passive_fraction = 0.4, .out_degree = 2, .goals = 1, .strongly_connected = true, .seed = seed});
    std::vector<std::uint32_t> keep(g.num_vertices(), 0);
    Rng pick(seed);
    for (VertexId v : g.vertices())
      if (g.is_passive(v) && pick.below(2) == 0) keep[v.index()] = 1 + static_cast<std::uint32_t>(pick.below(3));
    const auto p = ContextProduct::build(g, keep, declared(g), {});
    ASSERT_TRUE(p.has_value());
    const TestGraph& pg = p->graph();
    // Every product edge is a model edge from the product source's model vertex (or a reset).
    for (EdgeId f : pg.edges()) {
      if (p->is_reset(f)) {
        EXPECT_EQ(pg.target(f), pg.initial());
        continue;
      }
      EXPECT_EQ(g.source(p->model_edge(f)), p->model_vertex(pg.source(f)));
      EXPECT_EQ(g.target(p->model_edge(f)), p->model_vertex(pg.target(f)));
      EXPECT_DOUBLE_EQ(pg.probability(f), g.probability(p->model_edge(f)));
    }
    // A random walk: the product follows it edge by edge, and locate() finds where it is.
    Rng walk(seed * 31 + 7);
    std::vector<EdgeId> history;
    VertexId v = g.initial(), x = pg.initial();
    for (int step = 0; step < 400; ++step) {
      ASSERT_EQ(p->model_vertex(x), v);
      ASSERT_EQ(p->locate(v, history), x);
      const auto out = g.out_edges(v);
      if (out.empty()) break;
      const EdgeId e = out[walk.below(out.size())];
      EdgeId f = EdgeId::none();
      for (EdgeId c : pg.out_edges(x))
        if (!p->is_reset(c) && p->model_edge(c) == e) f = c;
      ASSERT_FALSE(f.is_none()) << "the product lacks a model edge";
      history.push_back(e);
      v = g.target(e);
      x = pg.target(f);
      // At a learning vertex the window is the last keep[v] edges exactly (the learned function
      // is asked with them).
      if (keep[v.index()] > 0 && history.size() >= keep[v.index()]) {
        EXPECT_GE(p->slack(v), keep[v.index()]);
      }
    }
  }
}

TEST(ContextProduct, KeepsTheHistoryALearningVertexNeedsAndNoMore) {
  // A cycle a -> b -> c -> p (passive) -> a with p learning from 2 edges: at p the product tells the
  // two histories apart, elsewhere it keeps only what p will use.
  const TestGraph g = generate_random_graph(
      {.vertices = 6, .passive_fraction = 0.5, .out_degree = 2, .goals = 1, .strongly_connected = true, .seed = 3});
  std::vector<std::uint32_t> none(g.num_vertices(), 0);
  const auto flat = ContextProduct::build(g, none, declared(g), {.reset_edges = false});
  ASSERT_TRUE(flat.has_value());
  // Without learning vertices the product is the reachable part of the graph itself.
  EXPECT_LE(flat->graph().num_vertices(), g.num_vertices());
  std::vector<std::uint32_t> keep(g.num_vertices(), 0);
  for (VertexId v : g.vertices())
    if (g.is_passive(v)) keep[v.index()] = 2;
  const auto p = ContextProduct::build(g, keep, declared(g), {.reset_edges = false});
  ASSERT_TRUE(p.has_value());
  EXPECT_GT(p->graph().num_vertices(), flat->graph().num_vertices());
  // No more product vertices per model vertex than histories of that length into it.
  for (VertexId v : g.vertices()) {
    std::size_t paths = 1;
    for (std::uint32_t i = 0; i < p->slack(v); ++i) paths *= std::max<std::size_t>(1, g.num_edges());
    std::size_t here = 0;
    for (VertexId x : p->graph().vertices()) here += p->model_vertex(x) == v;
    EXPECT_LE(here, paths + 1);
  }
  // Too large: refused.
  EXPECT_FALSE(ContextProduct::build(g, keep, declared(g), {.max_vertices = 2}).has_value());
}

TEST(ContextProduct, EdgesToTheTargetAndGoals) {
  const TestGraph g = generate_random_graph(
      {.vertices = 10, .passive_fraction = 0.3, .out_degree = 2, .goals = 2, .strongly_connected = true, .seed = 5});
  std::vector<std::uint8_t> to_target(g.num_edges(), 0);
  to_target[3] = 1;
  const std::vector<VertexId> goals = g.goals();
  std::vector<std::uint32_t> keep(g.num_vertices(), 0);
  const auto p = ContextProduct::build(g, keep, declared(g), {.to_target = to_target, .goals = goals});
  ASSERT_TRUE(p.has_value());
  const TestGraph& pg = p->graph();
  ASSERT_FALSE(p->target().is_none());
  EXPECT_TRUE(pg.is_goal(p->target()));
  for (EdgeId f : pg.edges()) {
    if (!p->is_reset(f)) {
      EXPECT_EQ(pg.target(f) == p->target(), p->model_edge(f) == EdgeId{3});
    }
  }
  for (VertexId x : pg.vertices()) {
    if (x != p->target()) {
      EXPECT_EQ(pg.is_goal(x), g.is_goal(p->model_vertex(x)));
    }
  }
}

}  // namespace
}  // namespace playtest
