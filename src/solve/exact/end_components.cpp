// Maximal end components and Pmax on their quotient (property_paths.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "playtest/graph/graph_builder.hpp"
#include "solve/detail/scc_csr.hpp"
#include "solve/exact/property_paths.hpp"

namespace playtest::detail {

namespace {
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();
}  // namespace

std::uint32_t maximal_end_components(const TestGraph& g, const std::vector<std::uint8_t>& region,
                                     std::vector<std::uint32_t>& mec) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> in(n, 0);
  for (VertexId v : g.vertices()) in[v.index()] = region[v.index()] && g.out_degree(v) > 0;
  // Predecessors inside the region (the removals propagate backwards).
  std::vector<std::uint32_t> roff(n + 1, 0), pred;
  for (EdgeId e : g.edges())
    if (in[g.source(e).index()] && in[g.target(e).index()]) ++roff[g.target(e).index() + 1];
  for (std::uint32_t v = 0; v < n; ++v) roff[v + 1] += roff[v];
  pred.resize(roff[n]);
  {
    std::vector<std::uint32_t> at(roff.begin(), roff.end() - 1);
    for (EdgeId e : g.edges())
      if (in[g.source(e).index()] && in[g.target(e).index()]) pred[at[g.target(e).index()]++] = g.source(e).index();
  }
  // The strongly connected components of the region's vertices in `vs` (all of them at first,
  // then one component that lost vertices), numbered from `next`.
  std::vector<std::uint32_t> comp(n, none32), local(n, none32), off, adj, sub;
  std::uint32_t next = 0;
  auto split = [&](const std::vector<std::uint32_t>& vs) {
    for (std::uint32_t i = 0; i < vs.size(); ++i) local[vs[i]] = i;
    off.assign(vs.size() + 1, 0);
    adj.clear();
    for (std::uint32_t i = 0; i < vs.size(); ++i) {
      for (EdgeId e : g.out_edges(VertexId{vs[i]})) {
        const std::uint32_t w = g.target(e).index();
        if (in[w] && local[w] != none32) adj.push_back(local[w]);
      }
      off[i + 1] = static_cast<std::uint32_t>(adj.size());
    }
    const std::uint32_t count = scc_csr(off, adj, sub);
    for (std::uint32_t i = 0; i < vs.size(); ++i) comp[vs[i]] = next + sub[i];
    next += count;
    for (std::uint32_t v : vs) local[v] = none32;
  };
  // An active vertex stays while it has an edge inside its component (inner[v] counts them); a
  // passive one while all its edges stay inside.
  std::vector<std::uint32_t> inner(n, 0), queue;
  std::vector<std::uint8_t> queued(n, 0);
  auto check = [&](const std::vector<std::uint32_t>& vs) {
    for (std::uint32_t v : vs) {
      if (!in[v]) continue;
      std::uint32_t count = 0, total = 0;
      for (EdgeId e : g.out_edges(VertexId{v})) {
        const std::uint32_t w = g.target(e).index();
        ++total;
        count += in[w] && comp[w] == comp[v];
      }
      inner[v] = count;
      const bool keep = g.is_passive(VertexId{v}) ? count == total : count > 0;
      if (!keep && !queued[v]) {
        queued[v] = 1;
        queue.push_back(v);
      }
    }
  };
  std::vector<std::uint32_t> all;
  for (std::uint32_t v = 0; v < n; ++v)
    if (in[v]) all.push_back(v);
  split(all);
  check(all);
  std::vector<std::vector<std::uint32_t>> members;
  std::vector<std::uint8_t> dirty;
  while (!queue.empty()) {
    // Remove, and whatever the removal leaves without a way to stay.
    std::vector<std::uint32_t> touched;
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const std::uint32_t v = queue[i];
      in[v] = 0;
      touched.push_back(comp[v]);
      for (std::uint32_t j = roff[v]; j < roff[v + 1]; ++j) {
        const std::uint32_t u = pred[j];
        if (!in[u] || queued[u] || comp[u] != comp[v]) continue;
        if (g.is_passive(VertexId{u}) || --inner[u] == 0) {
          queued[u] = 1;
          queue.push_back(u);
        }
      }
    }
    queue.clear();
    // The components that lost vertices split again.
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    std::vector<std::vector<std::uint32_t>> rest(touched.size());
    for (std::uint32_t v = 0; v < n; ++v) {
      if (!in[v]) continue;
      const auto it = std::lower_bound(touched.begin(), touched.end(), comp[v]);
      if (it != touched.end() && *it == comp[v]) rest[static_cast<std::size_t>(it - touched.begin())].push_back(v);
    }
    for (const auto& vs : rest) {
      if (vs.empty()) continue;
      split(vs);
      check(vs);
    }
  }
  mec.assign(n, none32);
  std::vector<std::uint32_t> number(next, none32);
  std::uint32_t count = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!in[v]) continue;
    if (number[comp[v]] == none32) number[comp[v]] = count++;
    mec[v] = number[comp[v]];
  }
  return count;
}

PropertyResult pmax_by_quotient(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                const std::vector<std::uint8_t>& is_allowed, const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> region(n, 0), absorbing(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    absorbing[v] = is_target[v] || !is_allowed[v] || g.out_degree(VertexId{v}) == 0;
    region[v] = !absorbing[v];
  }
  std::vector<std::uint32_t> mec;
  const std::uint32_t k = maximal_end_components(g, region, mec);

  // The quotient: a vertex per vertex outside the components, one per component (a choice among
  // its exits and staying), a sink for staying; targets, lost vertices and dead ends absorb.
  GraphBuilder b;
  b.reserve(std::size_t{n} + k + 1, g.num_edges() + k);
  b.names_are_distinct();
  std::vector<VertexId> rep(n);
  for (VertexId v : g.vertices())
    if (mec[v.index()] == none32)
      rep[v.index()] =
          b.add_unique_vertex(fmt::format("v{}", v.index()),
                              absorbing[v.index()] || g.is_active(v) ? VertexKind::active : VertexKind::passive);
  std::vector<VertexId> component(k);
  for (std::uint32_t c = 0; c < k; ++c) component[c] = b.add_unique_vertex(fmt::format("m{}", c), VertexKind::active);
  for (std::uint32_t v = 0; v < n; ++v)
    if (mec[v] != none32) rep[v] = component[mec[v]];
  const VertexId sink = b.add_unique_vertex("sink", VertexKind::active);
  b.set_initial(rep[g.initial().index()]);
  std::vector<EdgeId> origin;  // per inserted edge: the graph's edge, none for staying
  for (EdgeId e : g.edges()) {
    const std::uint32_t u = g.source(e).index(), w = g.target(e).index();
    if (absorbing[u] || (mec[u] != none32 && mec[u] == mec[w])) continue;
    EdgeSpec spec{.from = rep[u], .to = rep[w], .label = "x", .cost = 0};
    if (g.is_passive(g.source(e))) spec.prob = g.probability(e);
    b.add_edge(spec);
    origin.push_back(e);
  }
  for (std::uint32_t c = 0; c < k; ++c) {
    b.add_edge({.from = component[c], .to = sink, .label = "stay", .cost = 0});
    origin.push_back(EdgeId::none());
  }
  std::vector<EdgeId> edge_of;
  const TestGraph h = b.build({}, &edge_of);
  std::vector<EdgeId> back(h.num_edges(), EdgeId::none());
  for (std::size_t i = 0; i < edge_of.size(); ++i) back[edge_of[i].index()] = origin[i];

  // Every scheduler of the quotient ends absorbed almost surely: Pmax of a target is 1 - Pmin of
  // the other absorbing vertices (lost, dead ends, the sink).
  std::vector<std::uint8_t> lost(h.num_vertices(), 0), all(h.num_vertices(), 1);
  lost[sink.index()] = 1;
  for (std::uint32_t v = 0; v < n; ++v)
    if (absorbing[v] && !is_target[v]) lost[rep[v].index()] = 1;
  const PropertyResult q = pmin_by_expected_cost(h, lost, all, o);

  PropertyResult r;
  r.value.resize(n);
  r.infinite.assign(n, 0);
  r.probability_class.assign(n, ProbabilityClass::between);
  const bool bounds = !q.lower.empty() && !q.upper.empty();
  if (bounds) {
    r.lower.resize(n);
    r.upper.resize(n);
  }
  double bound = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t x = rep[v].index();
    const ProbabilityClass c = q.probability_class[x];
    r.probability_class[v] = c == ProbabilityClass::one    ? ProbabilityClass::zero
                             : c == ProbabilityClass::zero ? ProbabilityClass::one
                                                           : ProbabilityClass::between;
    r.num_zero += r.probability_class[v] == ProbabilityClass::zero;
    r.num_one += r.probability_class[v] == ProbabilityClass::one;
    r.value[v] = r.probability_class[v] == ProbabilityClass::one    ? 1.0
                 : r.probability_class[v] == ProbabilityClass::zero ? 0.0
                                                                    : std::clamp(1 - q.value[x], 0.0, 1.0);
    if (bounds) {
      const bool exact = r.probability_class[v] != ProbabilityClass::between;
      r.lower[v] = exact ? r.value[v] : std::max(0.0, std::nextafter(1 - q.upper[x], -1.0));
      r.upper[v] = exact ? r.value[v] : std::min(1.0, std::nextafter(1 - q.lower[x], 2.0));
      bound = std::max({bound, r.upper[v] - r.value[v], r.value[v] - r.lower[v]});
    }
  }
  r.certified = q.certified && bounds;
  r.not_certified = q.not_certified;
  if (r.certified) r.error_bound = std::nextafter(bound, std::numeric_limits<double>::infinity());
  r.evaluations = q.evaluations;
  r.improvements = q.improvements;

  // The strategy: outside the components the quotient's; inside one, towards the member whose
  // edge leaves as the quotient chose (a positive attractor over the component's own edges,
  // which reaches it almost surely), or any edge inside when it chose to stay.
  r.strategy.assign(n, EdgeId::none());
  std::vector<std::uint8_t> reached(n, 0);
  std::vector<std::uint32_t> queue;
  for (std::uint32_t v = 0; v < n; ++v) {
    const VertexId vv{v};
    if (absorbing[v] || !g.is_active(vv)) continue;
    const EdgeId chosen = q.strategy[rep[v].index()];
    const EdgeId e = chosen.is_none() ? EdgeId::none() : back[chosen.index()];
    if (mec[v] == none32) {
      r.strategy[v] = e;
    } else if (!e.is_none() && g.source(e) == vv) {
      r.strategy[v] = e;
      reached[v] = 1;
      queue.push_back(v);
    }
  }
  // Reverse edges inside the components.
  std::vector<std::uint32_t> roff(n + 1, 0), redge;
  for (EdgeId e : g.edges()) {
    const std::uint32_t u = g.source(e).index(), w = g.target(e).index();
    if (mec[u] != none32 && mec[u] == mec[w]) ++roff[w + 1];
  }
  for (std::uint32_t v = 0; v < n; ++v) roff[v + 1] += roff[v];
  redge.resize(roff[n]);
  {
    std::vector<std::uint32_t> at(roff.begin(), roff.end() - 1);
    for (EdgeId e : g.edges()) {
      const std::uint32_t u = g.source(e).index(), w = g.target(e).index();
      if (mec[u] != none32 && mec[u] == mec[w]) redge[at[w]++] = e.value;
    }
  }
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const std::uint32_t w = queue[i];
    for (std::uint32_t j = roff[w]; j < roff[w + 1]; ++j) {
      const EdgeId e{redge[j]};
      const std::uint32_t u = g.source(e).index();
      if (reached[u]) continue;
      reached[u] = 1;
      if (g.is_active(g.source(e))) r.strategy[u] = e;
      queue.push_back(u);
    }
  }
  for (std::uint32_t v = 0; v < n; ++v) {
    if (mec[v] == none32 || reached[v] || !g.is_active(VertexId{v})) continue;
    for (EdgeId e : g.out_edges(VertexId{v}))
      if (mec[g.target(e).index()] == mec[v]) {
        r.strategy[v] = e;  // the component stays
        break;
      }
  }
  return r;
}

}  // namespace playtest::detail
