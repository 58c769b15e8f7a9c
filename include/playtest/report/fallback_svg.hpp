// A picture of a test graph drawn by playtest itself, for when Graphviz is missing, fails or runs
// out of its time budget (issue 24: a report never waits a minute per picture, and never goes
// without one). A layered drawing, top to bottom as Graphviz draws: each vertex in the layer of its
// breadth-first distance from the initial vertex (or from the first drawn vertex of a part the
// initial vertex does not reach),
// edges as arrows with their labels, styled by the same DotOptions hooks as write_dot, with the same
// SVG ids and classes, so that the report's hover and zoom work on it as on Graphviz's picture.
#pragma once

#include <string>

#include "playtest/graph/test_graph.hpp"
#include "playtest/io/dot.hpp"

namespace playtest::report {

// What the system did where the test failed: a dashed box beside `at`, joined by a dashed arrow.
struct FallbackFailureBox {
  VertexId at = VertexId::none();
  std::string text;        // e.g. "got 'x'\nnot allowed" (line breaks kept)
  std::string edge_label;  // e.g. "#12"
  std::string color = "#cf222e";
};

// The <svg> element (width and height in px, a viewBox) of `g` drawn as `options` asks: show_vertex,
// vertex_name (the full name then in the tooltip), vertex_note, dim_vertex, edge_style,
// vertex_style, highlight_edge and id_prefix are honoured; extra_statements (DOT) is not: give the
// failure box instead. All text is escaped for HTML.
std::string fallback_svg(const TestGraph& g, const DotOptions& options, const FallbackFailureBox* failure = nullptr);

}  // namespace playtest::report
