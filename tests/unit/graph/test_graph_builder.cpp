#include <gtest/gtest.h>

#include "playtest/graph/graph_builder.hpp"

using namespace playtest;

TEST(GraphBuilder, Smoke) {
  GraphBuilder b;
  auto s = b.add_vertex("s", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::passive);
  auto w = b.add_vertex("w", VertexKind::active, true);
  b.add_edge({.from = s, .to = c, .label = "Hit"});
  b.add_edge({.from = c, .to = w, .label = "?Card", .prob = 0.25});
  b.add_edge({.from = c, .to = s, .label = "?Card", .prob = 0.75});
  b.set_initial(s);
  TestGraph g = b.build();
  EXPECT_EQ(g.num_vertices(), 3u);
  EXPECT_EQ(g.num_edges(), 3u);
}
