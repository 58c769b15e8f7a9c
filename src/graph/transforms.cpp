#include "playtest/graph/transforms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <unordered_set>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest {

namespace {

// Declares the vertices with keep[v] != 0 in original order; fills vertex_origin and vertex_image.
GraphBuilder declare_vertices(const TestGraph& g, const std::vector<std::uint8_t>& keep, TransformResult& r) {
  GraphBuilder b;
  b.reserve(g.num_vertices(), g.num_edges());
  r.vertex_image.assign(g.num_vertices(), VertexId::none());
  for (VertexId v : g.vertices()) {
    if (!keep[v.index()]) continue;
    r.vertex_image[v.index()] = b.add_vertex(g.name(v), g.kind(v), g.is_goal(v));
    if (g.timeout_ms(v) != 0) b.set_timeout_ms(r.vertex_image[v.index()], g.timeout_ms(v));
    r.vertex_origin.push_back(v);
  }
  b.set_initial(r.vertex_image[g.initial().index()]);
  b.set_reset_cost(g.reset_cost());
  return b;
}

// Adds an unchanged copy of original edge e; returns its insertion index.
std::uint32_t copy_edge(GraphBuilder& b, const TestGraph& g, EdgeId e, const TransformResult& r) {
  EdgeSpec s{.from = r.vertex_image[g.source(e).index()],
             .to = r.vertex_image[g.target(e).index()],
             .label = g.label(e),
             .cost = g.cost(e),
             .name = g.name(e),
             .timeout = g.is_timeout(e),
             .observe = g.is_observe(e),
             .delay_ms = g.delay_ms(e)};
  if (g.is_passive(g.source(e))) s.prob = g.probability(e);
  return b.add_edge(s);
}

void finish(GraphBuilder& b, TransformResult& r, const std::vector<EdgeId>& origin_by_insertion) {
  std::vector<EdgeId> edge_of_insertion;
  r.graph = b.build({}, &edge_of_insertion);
  r.edge_origin.assign(r.graph.num_edges(), EdgeId::none());
  for (std::size_t i = 0; i < edge_of_insertion.size(); ++i)
    r.edge_origin[edge_of_insertion[i].index()] = origin_by_insertion[i];
}

}  // namespace

TransformResult merge_parallel_edges(const TestGraph& g) {
  TransformResult r;
  std::vector<std::uint8_t> keep(g.num_vertices(), 1);
  GraphBuilder b = declare_vertices(g, keep, r);
  std::vector<EdgeId> origin;
  // group_of[target] = index in `groups` of the group for the current source; stamped by source.
  std::vector<std::uint32_t> group_of(g.num_vertices(), 0), stamp(g.num_vertices(), 0xFFFFFFFFu);
  struct Group {
    EdgeId first;
    EdgeId best;       // active: the cheapest edge
    double p = 0, pc = 0;
    std::uint32_t size = 0;
    std::string label;
  };
  std::vector<Group> groups;
  for (VertexId u : g.vertices()) {
    groups.clear();
    const bool passive = g.is_passive(u);
    for (EdgeId e : g.out_edges(u)) {
      if (g.is_timeout(e)) {
        groups.push_back({.first = e, .best = e, .p = g.probability(e), .size = 0});  // size 0: copy as is
        continue;
      }
      const std::uint32_t t = g.target(e).value;
      if (stamp[t] != u.value) {
        stamp[t] = u.value;
        group_of[t] = static_cast<std::uint32_t>(groups.size());
        groups.push_back({.first = e, .best = e, .label = std::string(g.label(e))});
      }
      Group& gr = groups[group_of[t]];
      ++gr.size;
      if (passive) {
        gr.p += g.probability(e);
        gr.pc += g.probability(e) * g.cost(e);
        if (gr.size > 1) {
          // Append the label unless already present as a "|"-separated item.
          const std::string_view l = g.label(e);
          bool present = false;
          std::string_view rest = gr.label;
          while (!present) {
            const auto bar = rest.find('|');
            present = rest.substr(0, bar) == l;
            if (bar == std::string_view::npos) break;
            rest.remove_prefix(bar + 1);
          }
          if (!present) gr.label += "|" + std::string(l);
        }
      } else if (g.cost(e) < g.cost(gr.best)) {
        gr.best = e;
      }
    }
    for (const Group& gr : groups) {
      if (gr.size <= 1 || !passive) {
        copy_edge(b, g, gr.best, r);
        origin.push_back(gr.best);
        continue;
      }
      b.add_edge({.from = r.vertex_image[u.index()],
                  .to = r.vertex_image[g.target(gr.first).index()],
                  .label = gr.label,
                  .cost = gr.pc / gr.p,
                  .prob = gr.p,
                  .name = g.name(gr.first)});
      origin.push_back(gr.first);
    }
  }
  finish(b, r, origin);
  return r;
}

TransformResult restrict_to_reachable(const TestGraph& g) {
  TransformResult r;
  std::vector<std::uint8_t> keep(g.num_vertices(), 0);
  std::vector<VertexId> stack{g.initial()};
  keep[g.initial().index()] = 1;
  while (!stack.empty()) {
    const VertexId v = stack.back();
    stack.pop_back();
    for (EdgeId e : g.out_edges(v)) {
      const VertexId w = g.target(e);
      if (!keep[w.index()]) {
        keep[w.index()] = 1;
        stack.push_back(w);
      }
    }
  }
  GraphBuilder b = declare_vertices(g, keep, r);
  std::vector<EdgeId> origin;
  for (VertexId v : g.vertices())
    if (keep[v.index()])
      for (EdgeId e : g.out_edges(v)) {
        copy_edge(b, g, e, r);
        origin.push_back(e);
      }
  finish(b, r, origin);
  return r;
}

namespace {

// State elimination over the compressible passive vertices. Nodes 0..m-1 are the vertices of Y
// (eliminated one by one), nodes m.. are copies of the kept ones (never eliminated, never targets
// inside Y). An arc carries the probability p of a path set and w = E[cost * 1{path}], so that
// concatenation, loops and parallel merging are sums and products of (p, w).
class Eliminator {
 public:
  static constexpr std::uint32_t stop_bit = 0x80000000u;
  struct Arc {
    std::uint32_t to;  // a node, or stop_bit | original vertex id
    double p, w;
    EdgeId orig;  // the original edge this arc is exactly, else none
  };

  Eliminator(std::uint32_t nodes, std::uint32_t m, std::uint32_t num_vertices)
      : m_(m), out_(nodes), in_(m), pos_node_(nodes, 0), pos_stop_(num_vertices, 0), stamp_node_(nodes, 0),
        stamp_stop_(num_vertices, 0), eliminated_(m, 0) {}

  // Adds (or merges into) the arc x -> to.
  void add(std::uint32_t x, Arc a) {
    begin(x);
    add_in_scope(x, a);
  }

  void eliminate(std::uint32_t y) {
    double s = 0, ws = 0;
    std::vector<Arc> exits;
    exits.reserve(out_[y].size());
    for (const Arc& a : out_[y]) {
      if (a.to == y) {
        s += a.p;
        ws += a.w;
      } else {
        exits.push_back(a);
      }
    }
    const double q = 1.0 / (1.0 - s);
    std::vector<std::uint32_t> preds;
    preds.swap(in_[y]);
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    for (std::uint32_t x : preds) {
      if (x == y || (x < m_ && eliminated_[x])) continue;
      auto& ox = out_[x];
      auto it = std::find_if(ox.begin(), ox.end(), [&](const Arc& a) { return a.to == y; });
      if (it == ox.end()) continue;
      const double p1 = it->p, w1 = it->w;
      *it = ox.back();
      ox.pop_back();
      begin(x);
      for (const Arc& a : exits)
        add_in_scope(x, {a.to, p1 * a.p * q, (w1 * a.p + p1 * a.w) * q + p1 * a.p * ws * q * q, EdgeId::none()});
    }
    std::vector<Arc>().swap(out_[y]);
    eliminated_[y] = 1;
  }

  const std::vector<Arc>& out(std::uint32_t x) const { return out_[x]; }

 private:
  void begin(std::uint32_t x) {
    ++epoch_;
    for (std::uint32_t i = 0; i < out_[x].size(); ++i) mark(out_[x][i].to, i);
  }
  void mark(std::uint32_t to, std::uint32_t i) {
    if (to & stop_bit) {
      stamp_stop_[to & ~stop_bit] = epoch_;
      pos_stop_[to & ~stop_bit] = i;
    } else {
      stamp_node_[to] = epoch_;
      pos_node_[to] = i;
    }
  }
  bool find(std::uint32_t to, std::uint32_t& i) const {
    if (to & stop_bit) {
      if (stamp_stop_[to & ~stop_bit] != epoch_) return false;
      i = pos_stop_[to & ~stop_bit];
    } else {
      if (stamp_node_[to] != epoch_) return false;
      i = pos_node_[to];
    }
    return true;
  }
  void add_in_scope(std::uint32_t x, const Arc& a) {
    std::uint32_t i;
    if (find(a.to, i)) {
      Arc& b = out_[x][i];
      b.p += a.p;
      b.w += a.w;
      b.orig = EdgeId::none();
      return;
    }
    mark(a.to, static_cast<std::uint32_t>(out_[x].size()));
    out_[x].push_back(a);
    if (!(a.to & stop_bit) && a.to < m_) in_[a.to].push_back(x);
  }

  std::uint32_t m_;
  std::vector<std::vector<Arc>> out_;
  std::vector<std::vector<std::uint32_t>> in_;
  std::vector<std::uint32_t> pos_node_, pos_stop_, stamp_node_, stamp_stop_;
  std::vector<std::uint8_t> eliminated_;
  std::uint32_t epoch_ = 0;
};

}  // namespace

CompressResult compress_passive(const TestGraph& g, const CompressOptions& options) {
  const std::uint32_t n = g.num_vertices();
  CompressResult r;
  auto in_y = [&](VertexId v) { return g.is_passive(v) && !g.is_goal(v); };

  // Passive non-goal vertices that can reach a stop vertex through passive non-goal vertices.
  std::vector<std::uint8_t> exits(n, 0);
  std::vector<VertexId> stack;
  for (VertexId v : g.vertices())
    if (!in_y(v)) {
      exits[v.index()] = 1;
      stack.push_back(v);
    }
  while (!stack.empty()) {
    const VertexId v = stack.back();
    stack.pop_back();
    for (EdgeId e : g.in_edges(v)) {
      const VertexId u = g.source(e);
      if (in_y(u) && !exits[u.index()]) {
        exits[u.index()] = 1;
        stack.push_back(u);
      }
    }
  }
  // The rest of Y is the union of all traps; everything in Y that can reach it is not compressed.
  std::vector<std::uint8_t> trap_reaching(n, 0);
  for (VertexId v : g.vertices())
    if (!exits[v.index()]) {
      r.trap_vertices.push_back(v);
      trap_reaching[v.index()] = 1;
      stack.push_back(v);
    }
  if (!r.trap_vertices.empty() && options.on_trap == TrapPolicy::fail) {
    Diagnostic d;
    d.message = fmt::format("passive vertex '{}' lies in a trap: a set of {} passive vertices that play never "
                            "leaves, so they cannot be compressed",
                            g.name(r.trap_vertices.front()), r.trap_vertices.size());
    throw GraphError(std::move(d));
  }
  while (!stack.empty()) {
    const VertexId v = stack.back();
    stack.pop_back();
    for (EdgeId e : g.in_edges(v)) {
      const VertexId u = g.source(e);
      if (in_y(u) && !trap_reaching[u.index()]) {
        trap_reaching[u.index()] = 1;
        stack.push_back(u);
      }
    }
  }
  // Compressible: node index per vertex; stop vertices are everything else.
  constexpr std::uint32_t no_node = 0xFFFFFFFFu;
  std::vector<std::uint32_t> node(n, no_node);
  std::vector<VertexId> y_vertices;
  for (VertexId v : g.vertices())
    if (in_y(v) && !trap_reaching[v.index()]) {
      node[v.index()] = static_cast<std::uint32_t>(y_vertices.size());
      y_vertices.push_back(v);
    } else if (in_y(v)) {
      ++r.uncompressed_passive;
    }
  const auto m = static_cast<std::uint32_t>(y_vertices.size());
  std::vector<std::uint8_t> keep(n, 1);
  for (VertexId v : y_vertices) keep[v.index()] = 0;
  keep[g.initial().index()] = 1;
  for (VertexId v : g.vertices())
    if (node[v.index()] == no_node)
      for (EdgeId e : g.out_edges(v)) keep[g.target(e).index()] = 1;
  std::vector<VertexId> kept_y;
  for (VertexId v : y_vertices)
    if (keep[v.index()]) kept_y.push_back(v);
  r.eliminated = m - static_cast<std::uint32_t>(kept_y.size());

  Eliminator el(m + static_cast<std::uint32_t>(kept_y.size()), m, n);
  auto target_of = [&](VertexId t) { return node[t.index()] == no_node ? (Eliminator::stop_bit | t.value) : node[t.index()]; };
  for (VertexId v : y_vertices)
    for (EdgeId e : g.out_edges(v))
      el.add(node[v.index()], {target_of(g.target(e)), g.probability(e), g.probability(e) * g.cost(e), e});
  for (std::uint32_t i = 0; i < kept_y.size(); ++i)
    for (EdgeId e : g.out_edges(kept_y[i]))
      el.add(m + i, {target_of(g.target(e)), g.probability(e), g.probability(e) * g.cost(e), e});
  for (std::uint32_t y = 0; y < m; ++y) el.eliminate(y);

  GraphBuilder b = declare_vertices(g, keep, r);
  std::vector<EdgeId> origin;
  std::unordered_set<std::string> names;
  for (VertexId v : g.vertices())
    if (keep[v.index()] && node[v.index()] == no_node)
      for (EdgeId e : g.out_edges(v)) {
        copy_edge(b, g, e, r);
        origin.push_back(e);
        names.emplace(g.name(e));
      }
  // Names of original edges that survive, so that made-up names avoid them.
  for (std::uint32_t i = 0; i < kept_y.size(); ++i)
    for (const auto& a : el.out(m + i))
      if (!a.orig.is_none()) names.emplace(g.name(a.orig));
  for (std::uint32_t i = 0; i < kept_y.size(); ++i) {
    const VertexId u = kept_y[i];
    std::vector<Eliminator::Arc> arcs = el.out(m + i);
    std::sort(arcs.begin(), arcs.end(), [](const auto& x, const auto& y) { return x.to < y.to; });
    double sum = 0;
    for (const auto& a : arcs) sum += a.p;
    for (const auto& a : arcs) {
      const VertexId t{a.to & ~Eliminator::stop_bit};
      if (!a.orig.is_none()) {
        copy_edge(b, g, a.orig, r);
        origin.push_back(a.orig);
        continue;
      }
      std::string name = fmt::format("{}~{}", g.name(u), g.name(t));
      while (names.count(name)) name += "'";
      names.insert(name);
      b.add_edge({.from = r.vertex_image[u.index()],
                  .to = r.vertex_image[t.index()],
                  .label = "*",
                  .cost = a.w / a.p,
                  .prob = a.p / sum,
                  .name = name});
      origin.push_back(EdgeId::none());
    }
  }
  finish(b, r, origin);
  return r;
}

TestGraph with_probabilities(const TestGraph& g, std::span<const double> prob, std::string meta) {
  GraphBuilder b;
  b.reserve(g.num_vertices(), g.num_edges());
  for (VertexId v : g.vertices()) b.add_vertex(g.name(v), g.kind(v), g.is_goal(v));
  b.set_initial(g.initial());
  b.set_reset_cost(g.reset_cost());
  for (EdgeId e : g.edges()) {
    EdgeSpec s{.from = g.source(e),
               .to = g.target(e),
               .label = g.label(e),
               .cost = g.cost(e),
               .name = g.name(e),
               .timeout = g.is_timeout(e),
               .observe = g.is_observe(e)};
    if (g.is_passive(g.source(e))) s.prob = prob[e.index()];
    b.add_edge(s);
  }
  b.set_meta_json(std::move(meta));
  return b.build();
}


}  // namespace playtest
