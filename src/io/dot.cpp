#include "playtest/io/dot.hpp"

#include <fmt/format.h>

#include <ostream>

namespace playtest {

namespace {

// The inside of a DOT string (see dot_quote).
std::string dot_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\r') continue;
    if (c == '&') {
      out += "&amp;";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double x) { return fmt::format("{:.6g}", x); }

// ", color=..., penwidth=..., style=..." for the fields of `s` that are set; `style` holds the
// Graphviz styles the element has already (bold, dashed), merged into one attribute.
void append_style(std::string& attrs, const DotStyle& s, std::string style) {
  if (!s.color.empty()) attrs += ", color=" + dot_quote(s.color);
  if (!s.fillcolor.empty()) attrs += ", fillcolor=" + dot_quote(s.fillcolor);
  if (s.penwidth > 0) attrs += ", penwidth=" + number(s.penwidth);
  auto add = [&](const char* x) { style += std::string(style.empty() ? "" : ",") + x; };
  if (!s.fillcolor.empty()) add("filled");
  if (s.dashed && style.find("dashed") == std::string::npos) add("dashed");
  if (!style.empty()) attrs += ", style=" + (style.find(',') == std::string::npos ? style : dot_quote(style));
  if (!s.css_class.empty()) attrs += ", class=" + dot_quote(s.css_class);
}

}  // namespace

std::string dot_quote(std::string_view s) { return "\"" + dot_escape(s) + "\""; }

void write_dot(const TestGraph& g, std::ostream& out, const DotOptions& o) {
  std::string buf;
  buf += "digraph playtest {\n";
  if (!o.title.empty()) buf += fmt::format("  label=\"{}\";\n  labelloc=t;\n", dot_escape(o.title));
  buf += "  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
  const bool show_start = !o.show_vertex || o.show_vertex(g.initial());
  if (show_start) buf += "  __start [shape=point, label=\"\"];\n";
  for (VertexId v : g.vertices()) {
    if (o.show_vertex && !o.show_vertex(v)) continue;
    std::string label = dot_escape(o.vertex_name ? o.vertex_name(v) : std::string(g.name(v)));
    std::string note;
    if (o.vertex_note) note = o.vertex_note(v);
    DotStyle style;
    if (o.vertex_style) style = o.vertex_style(v);
    if (!style.note.empty()) note += (note.empty() ? "" : "\n") + style.note;
    if (!note.empty()) label += "\\n" + dot_escape(note);
    std::string attrs = fmt::format("label=\"{}\", shape={}", label, g.is_passive(v) ? "diamond" : "ellipse");
    if (o.vertex_name) attrs += fmt::format(", tooltip=\"{}\"", dot_escape(g.name(v)));
    if (g.is_goal(v)) attrs += ", peripheries=2";
    if (o.dim_vertex && o.dim_vertex(v)) attrs += ", color=gray60, fontcolor=gray60";
    append_style(attrs, style, v == g.initial() ? "bold" : "");
    if (!o.id_prefix.empty()) attrs += fmt::format(", id=\"{}v{}\"", dot_escape(o.id_prefix), v.value);
    buf += fmt::format("  v{} [{}];\n", v.value, attrs);
    if (buf.size() > (1 << 16)) {
      out << buf;
      buf.clear();
    }
  }
  if (show_start) buf += fmt::format("  __start -> v{};\n", g.initial().value);
  for (EdgeId e : g.edges()) {
    if (o.show_vertex && (!o.show_vertex(g.source(e)) || !o.show_vertex(g.target(e)))) continue;
    std::string label = dot_escape(g.label(e));
    std::string extra;
    if (g.cost(e) != 1.0) extra += "c=" + number(g.cost(e));
    if (g.is_passive(g.source(e))) extra += (extra.empty() ? "" : " ") + std::string("p=") + number(g.probability(e));
    if (g.is_timeout(e)) extra += (extra.empty() ? "" : " ") + std::string("timeout");
    DotStyle style;
    if (o.edge_style) style = o.edge_style(e);
    if (!style.note.empty()) extra += (extra.empty() ? "" : " ") + dot_escape(style.note);
    if (!extra.empty()) label += (label.empty() ? "" : "\\n") + extra;
    std::string attrs = fmt::format("label=\"{}\", tooltip=\"{}\"", label, dot_escape(g.name(e)));
    if (o.highlight_edge && o.highlight_edge(e)) attrs += ", color=red, penwidth=2.5";
    append_style(attrs, style, g.is_timeout(e) ? "dashed" : "");
    if (!o.id_prefix.empty()) attrs += fmt::format(", id=\"{}e{}\"", dot_escape(o.id_prefix), e.value);
    buf += fmt::format("  v{} -> v{} [{}];\n", g.source(e).value, g.target(e).value, attrs);
    if (buf.size() > (1 << 16)) {
      out << buf;
      buf.clear();
    }
  }
  buf += o.extra_statements;
  buf += "}\n";
  out << buf;
}

}  // namespace playtest
