#include "playtest/strategy/starvation.hpp"

#include <cmath>
#include <limits>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

std::uint64_t starvation_visits(double p, double confidence) {
  if (!(p > 0)) return std::numeric_limits<std::uint64_t>::max();
  if (p >= 1) return 1;
  // The least n with n * ln(1 - p) <= ln(1 - confidence); log1p keeps tiny p exact.
  const double n = std::log1p(-confidence) / std::log1p(-p);
  if (!(n < 1e18)) return std::numeric_limits<std::uint64_t>::max();
  std::uint64_t k = static_cast<std::uint64_t>(std::ceil(n - 1e-9));
  return k == 0 ? 1 : k;
}

bool every_stimulus_tried(const GameGraph& g, const Evidence& evidence, VertexId v,
                          std::span<const std::uint32_t> edge_visits) {
  const TestGraph* t = g.explored();
  if (t == nullptr || evidence.max_context() == 0) return true;
  auto reached = [&](VertexId u) {
    if (u == t->initial()) return true;
    for (EdgeId f : t->in_edges(u))
      if (f.index() < edge_visits.size() && edge_visits[f.index()] > 0) return true;
    return false;
  };
  for (EdgeId f : t->in_edges(v)) {
    const VertexId u = t->source(f);
    if (!t->is_active(u) || !reached(u)) continue;
    const EdgeId context[1] = {f};
    if (evidence.visits(v, context) == 0) return false;
  }
  return true;
}

bool is_starved(const GameGraph& g, const Evidence& evidence, VertexId v, EdgeId e, double confidence,
                std::span<const std::uint32_t> edge_visits) {
  if (evidence.count(v, e) != 0) return false;
  if (evidence.visits(v) < starvation_visits(g.probability(e), confidence)) return false;
  return edge_visits.empty() || every_stimulus_tried(g, evidence, v, edge_visits);
}

std::vector<StarvedOutcome> starved_outcomes(const GameGraph& g, const Evidence& evidence, VertexId v,
                                             double confidence) {
  std::vector<StarvedOutcome> out;
  if (!g.is_passive(v)) return out;
  for (EdgeId e : g.out_edges(v))
    if (is_starved(g, evidence, v, e, confidence))
      out.push_back({.vertex = v,
                     .edge = e,
                     .visits = evidence.visits(v),
                     .contexts = evidence.max_context() > 0 ? evidence.num_contexts(v, 1) : 0,
                     .declared_prob = g.probability(e)});
  return out;
}

namespace {

// Vertices reachable from `from` without taking a starved edge (marks into `seen`).
void reach(const GameGraph& g, VertexId from, std::span<const std::uint8_t> starved, std::vector<std::uint8_t>& seen,
           std::vector<VertexId>& stack) {
  if (seen[from.index()]) return;
  seen[from.index()] = 1;
  stack.push_back(from);
  while (!stack.empty()) {
    const VertexId u = stack.back();
    stack.pop_back();
    for (EdgeId e : g.out_edges(u)) {
      if (e.index() < starved.size() && starved[e.index()]) continue;
      const VertexId t = g.target(e);
      if (!seen[t.index()]) {
        seen[t.index()] = 1;
        stack.push_back(t);
      }
    }
  }
}

}  // namespace

StarvationVerdict check_starvation(const GameGraph& g, const Evidence& evidence, VertexId current,
                                   std::span<const std::uint8_t> starved, std::span<const std::uint8_t> wanted) {
  StarvationVerdict v;
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<VertexId> stack;
  reach(g, current, starved, seen, stack);
  if (g.is_resettable()) reach(g, g.initial(), starved, seen, stack);
  // Wanted edges still testable: their source is reachable and they are not starved themselves.
  bool any_testable = false, any_wanted = false;
  for (EdgeId e : g.edges()) {
    if (e.index() >= wanted.size() || !wanted[e.index()]) continue;
    any_wanted = true;
    const bool is_starved_edge = e.index() < starved.size() && starved[e.index()];
    if (seen[g.source(e).index()] && !is_starved_edge) {
      any_testable = true;
    } else {
      ++v.untestable;
    }
  }
  v.only_starved_left = any_wanted && !any_testable;
  if (!v.only_starved_left) return v;
  // Per starved outcome: the untestable wanted edges it would lead to (itself included).
  for (EdgeId s : g.edges()) {
    if (s.index() >= starved.size() || !starved[s.index()]) continue;
    StarvedOutcome o{.vertex = g.source(s),
                     .edge = s,
                     .visits = evidence.visits(g.source(s)),
                     .contexts = evidence.max_context() > 0 ? evidence.num_contexts(g.source(s), 1) : 0,
                     .declared_prob = g.probability(s)};
    std::vector<std::uint8_t> behind(n, 0);
    reach(g, g.target(s), starved, behind, stack);
    if (s.index() < wanted.size() && wanted[s.index()]) ++o.edges_behind;
    for (EdgeId e : g.edges())
      if (e.index() < wanted.size() && wanted[e.index()] && e != s && behind[g.source(e).index()] &&
          !seen[g.source(e).index()])
        ++o.edges_behind;
    v.starved.push_back(o);
  }
  return v;
}

}  // namespace playtest
