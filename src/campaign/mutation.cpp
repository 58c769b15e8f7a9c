#include "playtest/campaign/mutation.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest {

std::string_view to_string(MutationKind k) {
  switch (k) {
    case MutationKind::redirect_edge: return "redirect_edge";
    case MutationKind::add_output: return "add_output";
    case MutationKind::drop_output: return "drop_output";
    case MutationKind::swap_labels: return "swap_labels";
  }
  return "?";
}

namespace {

struct EdgeCopy {
  VertexId from, to;
  std::string label, name;
  double cost, prob;
  bool timeout;
};

// Rebuilds `g` with its edges replaced by `edges` (probabilities out of passive vertices are
// given as weights, so that adding or dropping an edge renormalizes).
TestGraph rebuild(const TestGraph& g, const std::vector<EdgeCopy>& edges) {
  GraphBuilder b;
  b.reserve(g.num_vertices(), edges.size());
  for (VertexId v : g.vertices()) b.add_vertex(g.name(v), g.kind(v), g.is_goal(v));
  for (const EdgeCopy& e : edges) {
    EdgeSpec s{.from = e.from, .to = e.to, .label = e.label, .cost = e.cost, .name = std::string_view(e.name),
               .timeout = e.timeout};
    if (g.is_passive(e.from)) s.weight = e.prob;
    b.add_edge(s);
  }
  b.set_initial(g.initial());
  b.set_reset_cost(g.reset_cost());
  return b.build();
}

std::vector<EdgeCopy> copy_edges(const TestGraph& g) {
  std::vector<EdgeCopy> out;
  out.reserve(g.num_edges() + 1);
  for (EdgeId e : g.edges())
    out.push_back({g.source(e), g.target(e), std::string(g.label(e)), std::string(g.name(e)), g.cost(e),
                   g.probability(e), g.is_timeout(e)});
  return out;
}

template <class Pred>
std::vector<VertexId> vertices_where(const TestGraph& g, Pred pred) {
  std::vector<VertexId> out;
  for (VertexId v : g.vertices())
    if (pred(v)) out.push_back(v);
  return out;
}

std::uint32_t outputs(const TestGraph& g, VertexId v) {
  std::uint32_t n = 0;
  for (EdgeId e : g.out_edges(v)) n += !g.is_timeout(e);
  return n;
}

}  // namespace

std::optional<Mutant> mutate(const TestGraph& g, MutationKind kind, Rng& rng) {
  if (g.num_edges() == 0) return std::nullopt;
  std::vector<EdgeCopy> edges = copy_edges(g);
  std::string what;
  switch (kind) {
    case MutationKind::redirect_edge: {
      if (g.num_vertices() < 2) return std::nullopt;
      EdgeId e{static_cast<std::uint32_t>(rng.below(g.num_edges()))};
      VertexId w{static_cast<std::uint32_t>(rng.below(g.num_vertices() - 1))};
      if (w >= g.target(e)) w = VertexId{w.value + 1};
      edges[e.index()].to = w;
      what = fmt::format("edge '{}' ({} -> {}, '{}') redirected to '{}'", g.name(e), g.name(g.source(e)),
                         g.name(g.target(e)), g.label(e), g.name(w));
      break;
    }
    case MutationKind::add_output: {
      auto passive = vertices_where(g, [&](VertexId v) { return g.is_passive(v); });
      if (passive.empty()) return std::nullopt;
      VertexId v = passive[rng.below(passive.size())];
      std::vector<std::string_view> candidates;  // output labels of other vertices that v lacks
      for (EdgeId e : g.edges()) {
        if (!g.is_passive(g.source(e)) || g.is_timeout(e)) continue;
        std::string_view l = g.label(e);
        bool has = std::any_of(g.out_edges(v).begin(), g.out_edges(v).end(), [&](EdgeId f) { return g.label(f) == l; });
        if (!has && std::find(candidates.begin(), candidates.end(), l) == candidates.end()) candidates.push_back(l);
      }
      std::string label = candidates.empty() ? std::string("mutant_output") : std::string(candidates[rng.below(candidates.size())]);
      VertexId to{static_cast<std::uint32_t>(rng.below(g.num_vertices()))};
      double weight = 1.0 / std::max<std::uint32_t>(1, g.out_degree(v));
      edges.push_back({v, to, label, "mutant_added", 1.0, weight, false});
      what = fmt::format("passive vertex '{}' gained output '{}' to '{}'", g.name(v), label, g.name(to));
      break;
    }
    case MutationKind::drop_output: {
      auto cands = vertices_where(g, [&](VertexId v) { return g.is_passive(v) && g.out_degree(v) >= 2 && outputs(g, v) >= 1; });
      if (cands.empty()) return std::nullopt;
      VertexId v = cands[rng.below(cands.size())];
      std::vector<EdgeId> outs;
      for (EdgeId e : g.out_edges(v))
        if (!g.is_timeout(e)) outs.push_back(e);
      EdgeId e = outs[rng.below(outs.size())];
      edges.erase(edges.begin() + e.index());
      what = fmt::format("passive vertex '{}' lost output '{}' (edge '{}')", g.name(v), g.label(e), g.name(e));
      break;
    }
    case MutationKind::swap_labels: {
      auto cands = vertices_where(g, [&](VertexId v) {
        for (EdgeId a : g.out_edges(v))
          for (EdgeId b : g.out_edges(v))
            if (!g.is_timeout(a) && !g.is_timeout(b) && g.label(a) != g.label(b) && g.target(a) != g.target(b)) return true;
        return false;
      });
      if (cands.empty()) return std::nullopt;
      VertexId v = cands[rng.below(cands.size())];
      std::vector<std::pair<EdgeId, EdgeId>> pairs;
      for (EdgeId a : g.out_edges(v))
        for (EdgeId b : g.out_edges(v))
          if (a < b && !g.is_timeout(a) && !g.is_timeout(b) && g.label(a) != g.label(b) && g.target(a) != g.target(b))
            pairs.emplace_back(a, b);
      auto [a, b] = pairs[rng.below(pairs.size())];
      std::swap(edges[a.index()].label, edges[b.index()].label);
      what = fmt::format("at vertex '{}' edges '{}' and '{}' swapped labels '{}' and '{}'", g.name(v), g.name(a),
                         g.name(b), g.label(a), g.label(b));
      break;
    }
  }
  try {
    return Mutant{rebuild(g, edges), kind, std::move(what)};
  } catch (const GraphError&) {
    return std::nullopt;  // e.g. an output added to a passive vertex with probability-0 edges
  }
}

std::vector<Mutant> make_mutants(const TestGraph& g, std::uint32_t count, std::uint64_t seed) {
  static constexpr MutationKind kinds[] = {MutationKind::redirect_edge, MutationKind::add_output,
                                           MutationKind::drop_output, MutationKind::swap_labels};
  Rng rng(seed);
  std::vector<Mutant> out;
  std::uint32_t misses = 0;
  for (std::uint32_t i = 0; out.size() < count && misses < 4 * 8; ++i) {
    if (auto m = mutate(g, kinds[i % 4], rng)) {
      out.push_back(std::move(*m));
      misses = 0;
    } else {
      ++misses;
    }
  }
  return out;
}

}  // namespace playtest
