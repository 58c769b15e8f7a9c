// GraphBuilder and TestGraph invariants: CSR layout, in-edges, ids, names, validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"

using namespace playtest;

namespace {

// A random graph built through the builder in a random insertion order.
struct Built {
  TestGraph g;
  std::vector<EdgeId> of_insertion;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> inserted;  // (from, to) in insertion order
};

Built random_built(std::uint64_t seed, std::uint32_t n, std::uint32_t m) {
  Rng rng(seed);
  GraphBuilder b;
  Built out;
  for (std::uint32_t v = 0; v < n; ++v) b.add_vertex("v" + std::to_string(v), VertexKind::active, rng.below(4) == 0);
  for (std::uint32_t i = 0; i < m; ++i) {
    auto from = static_cast<std::uint32_t>(rng.below(n)), to = static_cast<std::uint32_t>(rng.below(n));
    b.add_edge({.from = VertexId{from}, .to = VertexId{to}, .label = "l" + std::to_string(rng.below(3)),
                .cost = static_cast<double>(rng.below(5))});
    out.inserted.emplace_back(from, to);
  }
  b.set_initial(VertexId{0});
  out.g = b.build({}, &out.of_insertion);
  return out;
}

}  // namespace

TEST(GraphBuilder, CsrGroupsEdgesBySourceStably) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Built b = random_built(seed, 1 + static_cast<std::uint32_t>(seed % 9), static_cast<std::uint32_t>(seed * 3 % 40));
    const TestGraph& g = b.g;
    ASSERT_EQ(g.num_edges(), b.inserted.size());
    // The map back is a permutation and preserves endpoints.
    std::vector<int> seen(g.num_edges(), 0);
    for (std::size_t i = 0; i < b.inserted.size(); ++i) {
      EdgeId e = b.of_insertion[i];
      ++seen[e.index()];
      EXPECT_EQ(g.source(e).value, b.inserted[i].first);
      EXPECT_EQ(g.target(e).value, b.inserted[i].second);
      EXPECT_EQ(g.name(e), "e" + std::to_string(i));
      EXPECT_EQ(g.find_edge("e" + std::to_string(i)), e);
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    // Out-edges: contiguous, right source, insertion order kept within a vertex.
    std::uint32_t total = 0;
    for (VertexId v : g.vertices()) {
      EdgeId prev = EdgeId::none();
      for (EdgeId e : g.out_edges(v)) {
        EXPECT_EQ(g.source(e), v);
        if (!prev.is_none()) {
          // insertion index increases
          auto idx = [&](EdgeId x) {
            return std::find(b.of_insertion.begin(), b.of_insertion.end(), x) - b.of_insertion.begin();
          };
          EXPECT_LT(idx(prev), idx(e));
        }
        prev = e;
        ++total;
      }
      EXPECT_EQ(g.out_degree(v), g.out_edges(v).size());
    }
    EXPECT_EQ(total, g.num_edges());
    // In-edges: every edge exactly once, under its target.
    std::vector<int> in_seen(g.num_edges(), 0);
    for (VertexId v : g.vertices()) {
      for (EdgeId e : g.in_edges(v)) {
        EXPECT_EQ(g.target(e), v);
        ++in_seen[e.index()];
      }
      EXPECT_EQ(g.in_degree(v), g.in_edges(v).size());
    }
    EXPECT_TRUE(std::all_of(in_seen.begin(), in_seen.end(), [](int c) { return c == 1; }));
    // Raw arrays agree with accessors.
    for (EdgeId e : g.edges()) {
      EXPECT_EQ(g.targets()[e.index()], g.target(e));
      EXPECT_EQ(g.sources()[e.index()], g.source(e));
      EXPECT_EQ(g.costs()[e.index()], g.cost(e));
    }
    std::uint32_t goals = 0;
    for (VertexId v : g.vertices()) goals += g.is_goal(v);
    EXPECT_EQ(goals, g.num_goals());
    EXPECT_EQ(g.goals().size(), goals);
  }
}

TEST(GraphBuilder, VerticesMayBeReferencedBeforeDeclaration) {
  GraphBuilder b;
  VertexId x = b.vertex_ref("x");
  VertexId y = b.vertex_ref("y");
  b.add_edge({.from = x, .to = y});
  b.set_initial("x");
  EXPECT_EQ(b.add_vertex("y", VertexKind::active, true), y);
  EXPECT_EQ(b.add_vertex("x", VertexKind::active), x);
  TestGraph g = b.build();
  EXPECT_EQ(g.name(g.initial()), "x");
  EXPECT_TRUE(g.is_goal(*g.find_vertex("y")));
}

TEST(GraphBuilder, ErrorsNameTheElementAndLocate) {
  GraphBuilder b;
  VertexId a = b.add_vertex("a", VertexKind::active);
  b.add_edge({.from = a, .to = b.vertex_ref("ghost")});
  b.set_initial(a);
  BuildOptions o;
  ElementRef asked;
  o.locate = [&](ElementRef r) {
    asked = r;
    return SourceLocation{"file", 7, 3, "/edges/0"};
  };
  try {
    b.build(o);
    FAIL();
  } catch (const GraphError& e) {
    EXPECT_EQ(asked.kind, ElementRef::Kind::edge);
    EXPECT_EQ(asked.index, 0u);
    EXPECT_EQ(e.diagnostic().where.line, 7u);
    EXPECT_NE(std::string(e.what()).find("file:7:3: error: edge 'e0' goes to unknown vertex 'ghost'"), std::string::npos)
        << e.what();
  }
}

TEST(GraphBuilder, RejectsBadCostsAndProbabilities) {
  auto build_one = [](EdgeSpec spec, VertexKind kind) {
    GraphBuilder b;
    VertexId a = b.add_vertex("a", kind);
    spec.from = a;
    spec.to = a;
    b.add_edge(spec);
    b.set_initial(a);
    return b.build();
  };
  EXPECT_THROW(build_one({.cost = -1}, VertexKind::active), GraphError);
  EXPECT_THROW(build_one({.cost = std::numeric_limits<double>::infinity()}, VertexKind::active), GraphError);
  EXPECT_THROW(build_one({.cost = std::numeric_limits<double>::quiet_NaN()}, VertexKind::active), GraphError);
  EXPECT_THROW(build_one({.prob = 1.0}, VertexKind::active), GraphError);
  EXPECT_THROW(build_one({}, VertexKind::passive), GraphError);
  EXPECT_THROW(build_one({.prob = 0.0}, VertexKind::passive), GraphError);
  EXPECT_THROW(build_one({.prob = std::numeric_limits<double>::quiet_NaN()}, VertexKind::passive), GraphError);
  EXPECT_THROW(build_one({.weight = -2.0}, VertexKind::passive), GraphError);
  EXPECT_NO_THROW(build_one({.cost = 0, .prob = 1.0}, VertexKind::passive));
  TestGraph g = build_one({.weight = 5.0}, VertexKind::passive);
  EXPECT_DOUBLE_EQ(g.probability(EdgeId{0}), 1.0);
}

TEST(GraphBuilder, BuilderIsEmptyAfterBuild) {
  GraphBuilder b;
  b.set_initial(b.add_vertex("a", VertexKind::active));
  TestGraph g = b.build();
  EXPECT_EQ(b.num_vertex_refs(), 0u);
  EXPECT_EQ(b.num_edges(), 0u);
  EXPECT_THROW(b.build(), GraphError);  // no vertices any more
}

TEST(GraphBuilder, ParallelEdgesAndSelfLoopsAreKept) {
  GraphBuilder b;
  VertexId a = b.add_vertex("a", VertexKind::active), c = b.add_vertex("c", VertexKind::active);
  b.add_edge({.from = a, .to = c, .label = "x"});
  b.add_edge({.from = a, .to = c, .label = "x"});
  b.add_edge({.from = a, .to = a, .label = "loop"});
  b.set_initial(a);
  TestGraph g = b.build();
  EXPECT_EQ(g.out_degree(a), 3u);
  EXPECT_EQ(g.in_degree(c), 2u);
  EXPECT_EQ(g.in_degree(a), 1u);
  EXPECT_EQ(g.num_labels(), 2u);
  EXPECT_EQ(g.label_id(EdgeId{0}), g.label_id(EdgeId{1}));
  EXPECT_EQ(g.find_label("loop"), g.label_id(EdgeId{2}));
}

TEST(GraphBuilder, MemoryIsLinearAndSmall) {
  Built small = random_built(3, 1000, 4000);
  // Parallel arrays and pools: well under 200 bytes per edge even with names.
  EXPECT_LT(small.g.memory_bytes(), 4000u * 200u);
}
