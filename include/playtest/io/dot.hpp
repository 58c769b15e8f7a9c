// Graphviz DOT export of a TestGraph: active vertices as ellipses, passive ones as diamonds, goals
// doubled, the initial vertex marked; edges labelled with label / cost / probability. Hooks let a
// caller highlight a strategy's edges and annotate vertices (values, winnability, ...).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct DotOptions {
  std::string title;
  // Edges for which this returns true are drawn bold and coloured (e.g. a strategy's choices).
  std::function<bool(EdgeId)> highlight_edge;
  // Extra text under a vertex's name (e.g. "Pr=0.75 C=3"); empty for none.
  std::function<std::string(VertexId)> vertex_note;
  // Vertices for which this returns true are drawn grey (e.g. unreachable, losing).
  std::function<bool(VertexId)> dim_vertex;
};

void write_dot(const TestGraph& g, std::ostream& out, const DotOptions& options = {});

}  // namespace playtest
