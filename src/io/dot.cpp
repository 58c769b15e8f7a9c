#include "playtest/io/dot.hpp"

#include <fmt/format.h>

#include <ostream>

namespace playtest {

namespace {

std::string dot_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double x) { return fmt::format("{:.6g}", x); }

}  // namespace

void write_dot(const TestGraph& g, std::ostream& out, const DotOptions& o) {
  std::string buf;
  buf += "digraph playtest {\n";
  if (!o.title.empty()) buf += fmt::format("  label=\"{}\";\n  labelloc=t;\n", dot_escape(o.title));
  buf += "  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
  buf += "  __start [shape=point, label=\"\"];\n";
  for (VertexId v : g.vertices()) {
    std::string label = dot_escape(g.name(v));
    if (o.vertex_note) {
      std::string note = o.vertex_note(v);
      if (!note.empty()) label += "\\n" + dot_escape(note);
    }
    std::string attrs = fmt::format("label=\"{}\", shape={}", label, g.is_passive(v) ? "diamond" : "ellipse");
    if (g.is_goal(v)) attrs += ", peripheries=2";
    if (v == g.initial()) attrs += ", style=bold";
    if (o.dim_vertex && o.dim_vertex(v)) attrs += ", color=gray60, fontcolor=gray60";
    buf += fmt::format("  v{} [{}];\n", v.value, attrs);
    if (buf.size() > (1 << 16)) {
      out << buf;
      buf.clear();
    }
  }
  buf += fmt::format("  __start -> v{};\n", g.initial().value);
  for (EdgeId e : g.edges()) {
    std::string label = dot_escape(g.label(e));
    std::string extra;
    if (g.cost(e) != 1.0) extra += "c=" + number(g.cost(e));
    if (g.is_passive(g.source(e))) extra += (extra.empty() ? "" : " ") + std::string("p=") + number(g.probability(e));
    if (g.is_timeout(e)) extra += (extra.empty() ? "" : " ") + std::string("timeout");
    if (!extra.empty()) label += (label.empty() ? "" : "\\n") + extra;
    std::string attrs = fmt::format("label=\"{}\", tooltip=\"{}\"", label, dot_escape(g.name(e)));
    if (g.is_timeout(e)) attrs += ", style=dashed";
    if (o.highlight_edge && o.highlight_edge(e)) attrs += ", color=red, penwidth=2.5";
    buf += fmt::format("  v{} -> v{} [{}];\n", g.source(e).value, g.target(e).value, attrs);
    if (buf.size() > (1 << 16)) {
      out << buf;
      buf.clear();
    }
  }
  buf += "}\n";
  out << buf;
}

}  // namespace playtest
