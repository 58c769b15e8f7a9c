#include "playtest/report/fallback_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <vector>

#include "playtest/report/html_report.hpp"

namespace playtest::report {

namespace {

// Geometry in px. Text is measured by character count (no font metrics here): 12 px Helvetica
// averages about 6.6 px a character, 10 px about 5.6.
constexpr double char_w = 6.8, small_char_w = 5.6;
constexpr double line_h = 14;
constexpr double layer_gap = 64;  // room for the edge labels between layers
constexpr double node_gap = 36;
constexpr double margin = 16;

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    const auto nl = s.find('\n', at);
    out.push_back(s.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return out;
}

std::size_t text_length(const std::string& s) {
  std::size_t n = 0;  // code points, not bytes
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string number(double x) { return fmt::format("{:.1f}", x); }

struct Box {
  std::vector<std::string> lines;
  double w = 0, h = 0, x = 0, y = 0;  // x, y: centre
  std::uint32_t column = 0;           // the layer
};

Box make_box(std::vector<std::string> lines, bool diamond) {
  Box b;
  std::size_t longest = 1;
  for (const std::string& l : lines) longest = std::max(longest, text_length(l));
  b.w = std::max(44.0, double(longest) * char_w + 24);
  b.h = 18 + double(lines.size()) * line_h;
  if (diamond) {  // the text must fit inside the diamond
    b.w += 24;
    b.h += 10;
  }
  b.lines = std::move(lines);
  return b;
}

std::string text_lines(const std::vector<std::string>& lines, double x, double y, const std::string& attrs,
                       const char* anchor = "middle") {
  std::string out;
  const double top = y - (double(lines.size()) - 1) * line_h / 2 + 4;
  for (std::size_t k = 0; k < lines.size(); ++k)
    out += fmt::format("<text text-anchor=\"{}\" x=\"{}\" y=\"{}\"{}>{}</text>", anchor, number(x),
                       number(top + double(k) * line_h), attrs, escape_html(lines[k]));
  return out;
}

// An arrow head at `to`, pointing along (to - from).
std::string arrow_head(double fx, double fy, double tx, double ty, const std::string& color) {
  const double dx = tx - fx, dy = ty - fy;
  const double len = std::max(1e-6, std::hypot(dx, dy));
  const double ux = dx / len, uy = dy / len;
  const double bx = tx - 9 * ux, by = ty - 9 * uy;
  return fmt::format("<polygon fill=\"{0}\" stroke=\"{0}\" points=\"{1},{2} {3},{4} {5},{6}\"/>", color, number(tx),
                     number(ty), number(bx - 4 * uy), number(by + 4 * ux), number(bx + 4 * uy), number(by - 4 * ux));
}

// Where the line from a box's centre towards (px, py) leaves the box (ellipse or diamond).
std::pair<double, double> border(const Box& b, bool diamond, double px, double py) {
  const double dx = px - b.x, dy = py - b.y;
  if (std::abs(dx) < 1e-9 && std::abs(dy) < 1e-9) return {b.x, b.y};
  const double a = b.w / 2, c = b.h / 2;
  const double t =
      diamond ? 1 / (std::abs(dx) / a + std::abs(dy) / c) : 1 / std::sqrt((dx * dx) / (a * a) + (dy * dy) / (c * c));
  return {b.x + dx * t, b.y + dy * t};
}

// An SVG id attribute (` id="<prefix><kind><index>"`), none without a prefix.
std::string svg_id(const std::string& prefix, char kind, std::uint32_t index) {
  return prefix.empty() ? std::string() : fmt::format(" id=\"{}{}{}\"", escape_html(prefix), kind, index);
}

// Where everything goes: the drawn vertices in breadth-first order, their boxes in layers, the
// failure box, the picture's size.
struct Layout {
  std::vector<std::int64_t> depth;     // by vertex index: the layer, -1 when not drawn
  std::vector<VertexId> order;         // breadth-first
  std::map<std::uint32_t, Box> boxes;  // by vertex index
  std::vector<double> layer_w, layer_h;
  bool has_box = false;
  Box fail_box;
  double width = 0, height = 0;
};

// Columns by breadth-first distance over the drawn vertices: from the initial vertex, then from
// each drawn vertex not reached yet.
void breadth_first(const TestGraph& g, const DotOptions& o, Layout& l) {
  const auto shown = [&](VertexId v) { return !o.show_vertex || o.show_vertex(v); };
  std::vector<std::int64_t>& depth = l.depth;
  depth.assign(g.num_vertices(), -1);
  std::deque<VertexId> queue;
  auto start = [&](VertexId v) {
    depth[v.index()] = 0;
    queue.push_back(v);
    while (!queue.empty()) {
      const VertexId u = queue.front();
      queue.pop_front();
      l.order.push_back(u);
      for (EdgeId e : g.out_edges(u)) {
        const VertexId w = g.target(e);
        if (depth[w.index()] >= 0 || !shown(w)) continue;
        depth[w.index()] = depth[u.index()] + 1;
        queue.push_back(w);
      }
    }
  };
  if (shown(g.initial())) start(g.initial());
  for (VertexId v : g.vertices())
    if (shown(v) && depth[v.index()] < 0) start(v);
}

// Puts a box at the right end of its layer (x within the layer, for now).
void place(Layout& l, Box& b, std::uint32_t layer) {
  if (l.layer_w.size() <= layer) {
    l.layer_w.resize(layer + 1, 0);
    l.layer_h.resize(layer + 1, 0);
  }
  b.column = layer;                                                          // the layer
  b.x = l.layer_w[layer] + (l.layer_w[layer] > 0 ? node_gap : 0) + b.w / 2;  // within the layer, for now
  l.layer_w[layer] = b.x + b.w / 2;
  l.layer_h[layer] = std::max(l.layer_h[layer], b.h);
}

// Boxes, placed layer by layer (top to bottom, as Graphviz draws) in breadth-first order: each
// vertex's name and notes, and the failure box in the layer after its vertex.
void make_boxes(const TestGraph& g, const DotOptions& o, const FallbackFailureBox* failure, Layout& l) {
  for (VertexId v : l.order) {
    std::vector<std::string> lines{o.vertex_name ? o.vertex_name(v) : std::string(g.name(v))};
    std::string note = o.vertex_note ? o.vertex_note(v) : std::string();
    const DotStyle st = o.vertex_style ? o.vertex_style(v) : DotStyle{};
    if (!st.note.empty()) note += (note.empty() ? "" : "\n") + st.note;
    if (!note.empty())
      for (std::string& line : lines_of(note)) lines.push_back(std::move(line));
    Box b = make_box(std::move(lines), g.is_passive(v));
    place(l, b, static_cast<std::uint32_t>(l.depth[v.index()]));
    l.boxes.emplace(v.value, std::move(b));
  }
  l.has_box = failure && !failure->at.is_none() && l.boxes.count(failure->at.value);
  if (l.has_box) {
    l.fail_box = make_box(lines_of(failure->text), false);
    place(l, l.fail_box, l.boxes.at(failure->at.value).column + 1);
  }
}

// Each layer centred horizontally against the widest one, layer_gap apart; the picture's size.
void centre_layers(Layout& l) {
  double widest = 0;
  for (double w : l.layer_w) widest = std::max(widest, w);
  std::vector<double> layer_y(l.layer_h.size(), 0);
  double y = margin + 30;  // room for the start arrow
  for (std::size_t k = 0; k < l.layer_h.size(); ++k) {
    layer_y[k] = y + l.layer_h[k] / 2;
    y += l.layer_h[k] + layer_gap;
  }
  l.width = margin * 2 + widest + 60;  // + room for loops and arcs at the right
  l.height = y - layer_gap + margin;
  auto finish = [&](Box& b) {
    b.x += margin + (widest - l.layer_w[b.column]) / 2;
    b.y = layer_y[b.column];
  };
  for (auto& [_, b] : l.boxes) finish(b);
  if (l.has_box) finish(l.fail_box);
}

// An edge's line: its SVG path, the point its arrow head comes from (h) and ends at (e), and where
// its label goes.
struct EdgeLine {
  std::string d;
  double lx = 0, ly = 0, hx = 0, hy = 0, ex = 0, ey = 0;
  const char* anchor = "middle";
};

// The line of the k-th edge between two boxes: a loop at the right of the vertex, a forward edge
// bent by its rank among parallel ones, an edge back or within a layer arced to the side.
EdgeLine edge_line(const TestGraph& g, VertexId s, VertexId t, const Box& a, const Box& b, std::uint32_t k) {
  EdgeLine out;
  if (s == t) {  // a loop at the right of the vertex
    const double right = a.x + a.w / 2;
    const double r = 14 + 8 * double(k);
    out.d =
        fmt::format("M{},{} C{},{} {},{} {},{}", number(right), number(a.y - 6), number(right + 2 * r),
                    number(a.y - 6 - r), number(right + 2 * r), number(a.y + 6 + r), number(right), number(a.y + 6));
    out.hx = right + 2 * r;
    out.hy = a.y + 6 + r;
    out.ex = right;
    out.ey = a.y + 6;
    out.lx = right + 1.5 * r + 4;
    out.ly = a.y;
    out.anchor = "start";
    return out;
  }
  // Forward edges bend by their rank among parallel ones; edges back or within a column arc
  // to the side so that they do not run through the vertices between.
  const bool forward = b.column > a.column;
  const double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
  double cx = mx, cy = my;
  if (forward) {
    cx += double(k) * 22 * (k % 2 ? 1 : -1);
    out.anchor = "start";  // the label beside the line
  } else {
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len = std::max(1.0, std::hypot(dx, dy));
    const double bend = 0.35 * len + 30 + 18 * double(k);
    cx = mx - dy / len * bend;
    cy = my + dx / len * bend;
    if (a.column == b.column) cy = a.y - std::max(a.h, b.h) / 2 - bend * 0.5;
  }
  const auto [sx, sy] = border(a, g.is_passive(s), cx, cy);
  const auto [tx, ty] = border(b, g.is_passive(t), cx, cy);
  out.d = fmt::format("M{},{} Q{},{} {},{}", number(sx), number(sy), number(cx), number(cy), number(tx), number(ty));
  out.hx = cx;
  out.hy = cy;
  out.ex = tx;
  out.ey = ty;
  out.lx = 0.25 * sx + 0.5 * cx + 0.25 * tx + (forward ? 5 : 0);
  out.ly = 0.25 * sy + 0.5 * cy + 0.25 * ty;
  return out;
}

// The edges, under the vertices: each with its style, arrow head and label (and timeout, note).
void draw_edges(const TestGraph& g, const DotOptions& o, const Layout& l, std::string& svg) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> parallel;
  for (EdgeId e : g.edges()) {
    const VertexId s = g.source(e), t = g.target(e);
    if (!l.boxes.count(s.value) || !l.boxes.count(t.value)) continue;
    const Box& a = l.boxes.at(s.value);
    const Box& b = l.boxes.at(t.value);
    const DotStyle st = o.edge_style ? o.edge_style(e) : DotStyle{};
    std::string color = st.color.empty() ? "#24292f" : st.color;
    double pen = st.penwidth > 0 ? st.penwidth : 1;
    if (o.highlight_edge && o.highlight_edge(e)) {
      color = st.color.empty() ? "red" : st.color;
      pen = std::max(pen, 2.5);
    }
    const bool dashed = st.dashed || g.is_timeout(e);
    std::string label(g.label(e));
    std::string extra;
    if (g.is_timeout(e)) extra = "timeout";
    if (!st.note.empty()) extra += (extra.empty() ? "" : " ") + st.note;
    const std::uint32_t k = parallel[{std::min(s.value, t.value), std::max(s.value, t.value)}]++;
    const EdgeLine line = edge_line(g, s, t, a, b, k);
    std::vector<std::string> label_lines;
    if (!label.empty()) label_lines.push_back(label);
    if (!extra.empty()) label_lines.push_back(extra);
    std::string cls = "edge" + (st.css_class.empty() ? "" : " " + escape_html(st.css_class));
    svg += fmt::format(
        "<g{} class=\"{}\"><title>{}</title><path fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} d=\"{}\"/>",
        svg_id(o.id_prefix, 'e', e.value), cls, escape_html(g.name(e)), escape_html(color), number(pen),
        dashed ? " stroke-dasharray=\"5,3\"" : "", line.d);
    svg += arrow_head(line.hx, line.hy, line.ex, line.ey, escape_html(color));
    svg +=
        text_lines(label_lines, line.lx, line.ly,
                   fmt::format(" font-size=\"10\" fill=\"{}\"", escape_html(st.color.empty() ? "#24292f" : st.color)),
                   line.anchor);
    svg += "</g>\n";
  }
}

// The failure box beside its vertex, and the dashed arrow to it.
void draw_failure(const TestGraph& g, const DotOptions& o, const FallbackFailureBox& failure, const Layout& l,
                  std::string& svg) {
  const std::string& p = o.id_prefix;
  const Box& fail_box = l.fail_box;
  const Box& a = l.boxes.at(failure.at.value);
  const auto [sx, sy] = border(a, g.is_passive(failure.at), fail_box.x, fail_box.y);
  const double tx = fail_box.x, ty = fail_box.y - fail_box.h / 2;
  const std::string c = escape_html(failure.color);
  svg += fmt::format(
      "<g{} class=\"edge path failure\"><path fill=\"none\" stroke=\"{}\" stroke-width=\"2.6\" "
      "stroke-dasharray=\"5,3\" d=\"M{},{} L{},{}\"/>{}{}</g>\n",
      p.empty() ? std::string() : fmt::format(" id=\"{}failure_edge\"", escape_html(p)), c, number(sx), number(sy),
      number(tx), number(ty), arrow_head(sx, sy, tx, ty, c),
      text_lines({failure.edge_label}, (sx + tx) / 2 + 5, (sy + ty) / 2,
                 fmt::format(" font-size=\"10\" fill=\"{}\"", c), "start"));
  svg += fmt::format(
      "<g{} class=\"node failure\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffebe9\" stroke=\"{}\" "
      "stroke-dasharray=\"5,3\"/>{}</g>\n",
      p.empty() ? std::string() : fmt::format(" id=\"{}failure\"", escape_html(p)), number(fail_box.x - fail_box.w / 2),
      number(fail_box.y - fail_box.h / 2), number(fail_box.w), number(fail_box.h), c,
      text_lines(fail_box.lines, fail_box.x, fail_box.y, fmt::format(" fill=\"{}\"", c)));
}

// One vertex: an ellipse, a diamond when passive, a second outline when a goal; its lines of text.
void draw_vertex(const TestGraph& g, const DotOptions& o, VertexId v, const Box& b, std::string& svg) {
  const DotStyle st = o.vertex_style ? o.vertex_style(v) : DotStyle{};
  const bool dim = o.dim_vertex && o.dim_vertex(v);
  const std::string stroke = escape_html(!st.color.empty() ? st.color : dim ? "#999999" : "#24292f");
  const std::string fill = escape_html(st.fillcolor.empty() ? "#ffffff" : st.fillcolor);
  double pen = st.penwidth > 0 ? st.penwidth : v == g.initial() ? 2 : 1;
  const std::string dash = st.dashed ? " stroke-dasharray=\"5,3\"" : "";
  std::string shape;
  auto outline = [&](double grow) {
    const double w = b.w / 2 + grow, h = b.h / 2 + grow;
    if (g.is_passive(v))
      return fmt::format(
          "<polygon fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{} points=\"{},{} {},{} {},{} {},{}\"/>",
          grow > 0 ? "none" : fill, stroke, number(pen), dash, number(b.x), number(b.y - h), number(b.x + w),
          number(b.y), number(b.x), number(b.y + h), number(b.x - w), number(b.y));
    return fmt::format(
        "<ellipse fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{} cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\"/>",
        grow > 0 ? "none" : fill, stroke, number(pen), dash, number(b.x), number(b.y), number(w), number(h));
  };
  shape = outline(0);
  if (g.is_goal(v)) shape += outline(4);
  svg += fmt::format("<g{} class=\"node{}\"><title>{}</title>{}{}</g>\n", svg_id(o.id_prefix, 'v', v.value),
                     st.css_class.empty() ? "" : " " + escape_html(st.css_class), escape_html(g.name(v)), shape,
                     text_lines(b.lines, b.x, b.y, dim ? " fill=\"#999999\"" : ""));
}

}  // namespace

std::string fallback_svg(const TestGraph& g, const DotOptions& o, const FallbackFailureBox* failure) {
  Layout l;
  breadth_first(g, o, l);
  make_boxes(g, o, failure, l);
  centre_layers(l);

  std::string svg = fmt::format(
      "<svg width=\"{0}pt\" height=\"{1}pt\" viewBox=\"0 0 {0} {1}\" xmlns=\"http://www.w3.org/2000/svg\" "
      "class=\"fallback\" font-family=\"Helvetica,Arial,sans-serif\" font-size=\"12\">\n<g class=\"graph\">\n",
      number(l.width), number(l.height));
  draw_edges(g, o, l, svg);
  // The start arrow, from above.
  if (l.boxes.count(g.initial().value)) {
    const Box& b = l.boxes.at(g.initial().value);
    const double ty = b.y - b.h / 2;
    svg += fmt::format(
        "<g class=\"start\"><circle cx=\"{0}\" cy=\"{1}\" r=\"3\" fill=\"#24292f\"/><path stroke=\"#24292f\" "
        "d=\"M{0},{1} L{0},{2}\"/>{3}</g>\n",
        number(b.x), number(ty - 26), number(ty - 9), arrow_head(b.x, ty - 26, b.x, ty, "#24292f"));
  }
  if (l.has_box) draw_failure(g, o, *failure, l, svg);
  for (VertexId v : l.order) draw_vertex(g, o, v, l.boxes.at(v.value), svg);
  svg += "</g>\n</svg>";
  return svg;
}

}  // namespace playtest::report
