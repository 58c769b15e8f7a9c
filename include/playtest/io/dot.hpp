// Graphviz DOT export of a TestGraph: active vertices as ellipses, passive ones as diamonds, goals
// doubled, the initial vertex marked; edges labelled with label / cost / probability. Hooks let a
// caller highlight a strategy's edges, annotate vertices (values, winnability, ...), style edges
// and vertices one by one (coverage colours, a path), draw only part of the graph and name the
// elements (SVG ids and classes when Graphviz renders SVG).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// How one edge or vertex is drawn; empty / zero fields keep the default look.
struct DotStyle {
  std::string color;      // Graphviz colour ("#1f77b4", "red")
  std::string fillcolor;  // vertices: filled with this colour
  double penwidth = 0;    // line width, 0: default
  bool dashed = false;
  std::string note;       // one more line under the label (e.g. "x3", "steps 4, 9")
  std::string css_class;  // the SVG element's class (Graphviz adds "node" / "edge")
};

struct DotOptions {
  std::string title;
  // Edges for which this returns true are drawn bold and coloured (e.g. a strategy's choices).
  std::function<bool(EdgeId)> highlight_edge;
  // Extra text under a vertex's name (e.g. "Pr=0.75 C=3"); empty for none.
  std::function<std::string(VertexId)> vertex_note;
  // Vertices for which this returns true are drawn grey (e.g. unreachable, losing).
  std::function<bool(VertexId)> dim_vertex;
  // Per-element styles, applied after the hooks above.
  std::function<DotStyle(EdgeId)> edge_style;
  std::function<DotStyle(VertexId)> vertex_style;
  // Draw only these vertices and the edges between them (all when empty); the start arrow only
  // when the initial vertex is drawn.
  std::function<bool(VertexId)> show_vertex;
  // When not empty, every vertex and edge gets id="<prefix>v<index>" / "<prefix>e<index>" (ids of
  // the SVG elements Graphviz draws).
  std::string id_prefix;
  // A vertex's name in the picture in place of its id (e.g. "v12" for a model program's state, whose
  // text would make the picture too wide); the full id is then the vertex's tooltip (SVG title).
  std::function<std::string(VertexId)> vertex_name;
  // DOT statements written last, inside the graph (build quoted strings with dot_quote).
  std::string extra_statements;
};

void write_dot(const TestGraph& g, std::ostream& out, const DotOptions& options = {});

// `s` as a DOT double-quoted string, quotes included: '"' and '\' escaped, line breaks as "\n",
// and '&' as "&amp;" so that Graphviz, which reads HTML entities in every string, shows the text
// as it is.
std::string dot_quote(std::string_view s);

}  // namespace playtest
