#include "playtest/adapt/context_product.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest {

std::size_t ContextProduct::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = k.size();
  for (std::uint32_t x : k) h = (h ^ x) * 0xff51afd7ed558ccdull + 0x9e3779b97f4a7c15ull;
  return static_cast<std::size_t>(h ^ (h >> 31));
}

ContextProduct::Key ContextProduct::key(VertexId v, std::span<const EdgeId> w,
                                        std::span<const std::vector<LabelId>> memory) {
  Key k;
  k.reserve(2 + w.size() + 2 * memory.size());
  k.push_back(v.value);
  k.push_back(static_cast<std::uint32_t>(w.size()));
  for (EdgeId e : w) k.push_back(e.value);
  for (const auto& m : memory) {
    k.push_back(static_cast<std::uint32_t>(m.size()));
    for (LabelId l : m) k.push_back(l.value);
  }
  return k;
}

std::optional<ContextProduct> ContextProduct::build(const TestGraph& g, std::span<const std::uint32_t> keep,
                                                    const Learned& learned, const ContextProductOptions& o) {
  return build(
      g, keep,
      LearnedWithMemory([&learned](VertexId v, std::span<const EdgeId> w, std::span<const std::vector<LabelId>>,
                                   std::span<double> probs) { learned(v, w, probs); }),
      o);
}

std::optional<ContextProduct> ContextProduct::build(const TestGraph& g, std::span<const std::uint32_t> keep,
                                                    const LearnedWithMemory& learned, const ContextProductOptions& o) {
  const std::uint32_t n = g.num_vertices();
  if (keep.size() != n) throw UsageError("keep", "ContextProduct::build: keep needs one entry per vertex");
  ContextProduct p;
  // How much history each vertex keeps: what it learns on itself, or what a vertex within reach
  // still needs (one edge less per edge away).
  p.slack_.assign(n, 0);
  for (VertexId v : g.vertices()) p.slack_[v.index()] = std::min(keep[v.index()], max_window);
  for (bool changed = true; changed;) {
    changed = false;
    for (EdgeId e : g.edges()) {
      const std::uint32_t t = p.slack_[g.target(e).index()];
      std::uint32_t& s = p.slack_[g.source(e).index()];
      if (t > 0 && t - 1 > s) {
        s = t - 1;
        changed = true;
      }
    }
  }

  // Breadth first from the initial vertex with an empty history.
  struct State {
    VertexId v;
    std::vector<EdgeId> w;
    std::vector<std::vector<LabelId>> m;  // per memory of o.memories
  };
  std::deque<std::uint32_t> queue;
  std::vector<State> states;
  auto state_of = [&](VertexId v, std::vector<EdgeId> w,
                      std::vector<std::vector<LabelId>> m) -> std::optional<std::uint32_t> {
    auto [it, fresh] = p.index_.try_emplace(key(v, w, m), static_cast<std::uint32_t>(states.size()));
    if (fresh) {
      if (states.size() >= o.max_vertices) return std::nullopt;
      queue.push_back(static_cast<std::uint32_t>(states.size()));
      states.push_back({v, std::move(w), std::move(m)});
    }
    return it->second;
  };
  const std::vector<std::vector<LabelId>> empty_memory(o.memories.size());
  if (!state_of(g.initial(), {}, empty_memory)) return std::nullopt;

  struct Pending {
    std::uint32_t from, to;  // product states (to: ~0u for the target)
    EdgeId model;            // none: a reset edge
    std::optional<double> prob;
  };
  std::vector<Pending> edges;
  std::vector<double> probs;
  constexpr std::uint32_t target_state = ~0u;
  bool any_target = false;
  while (!queue.empty()) {
    const std::uint32_t from = queue.front();
    queue.pop_front();
    const State s = states[from];  // (a copy: states grows below)
    const auto out = g.out_edges(s.v);
    const bool passive = g.is_passive(s.v);
    if (passive) {
      probs.assign(out.size(), 0.0);
      const std::size_t k = std::min<std::size_t>(s.w.size(), keep[s.v.index()]);
      learned(s.v, std::span<const EdgeId>(s.w).last(k), s.m, probs);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      const EdgeId e = out[i];
      const std::optional<double> prob = passive ? std::optional(probs[i]) : std::nullopt;
      if (!o.to_target.empty() && o.to_target[e.index()]) {
        edges.push_back({from, target_state, e, prob});
        any_target = true;
        continue;
      }
      const VertexId t = g.target(e);
      const std::size_t j = std::min<std::size_t>(s.w.size() + 1, p.slack_[t.index()]);
      std::vector<EdgeId> w;
      w.reserve(j);
      if (j > 0) {
        const std::size_t from_old = j - 1;  // edges kept from the old window
        w.insert(w.end(), s.w.end() - static_cast<std::ptrdiff_t>(from_old), s.w.end());
        w.push_back(e);
      }
      std::vector<std::vector<LabelId>> m = s.m;
      for (std::size_t i = 0; i < o.memories.size(); ++i)
        if (o.memories[i].length > 0 && o.memories[i].watches(g.label_id(e))) {
          m[i].push_back(g.label_id(e));
          if (m[i].size() > o.memories[i].length) m[i].erase(m[i].begin());
        }
      const auto to = state_of(t, std::move(w), std::move(m));
      if (!to) return std::nullopt;
      edges.push_back({from, *to, e, prob});
    }
    if (!passive && o.reset_edges && g.is_resettable() && from != 0) edges.push_back({from, 0, EdgeId::none(), {}});
  }

  GraphBuilder b;
  b.reserve(states.size() + 1, edges.size());
  std::vector<VertexId> ids;
  ids.reserve(states.size());
  std::vector<std::uint8_t> is_goal(n, 0);
  for (VertexId v : o.goals) is_goal[v.index()] = 1;
  for (std::size_t i = 0; i < states.size(); ++i) {
    ids.push_back(b.add_vertex("x" + std::to_string(i), g.kind(states[i].v), is_goal[states[i].v.index()] != 0));
    if (ids.back().index() != i) throw InternalError("ContextProduct::build: vertices are not numbered in order");
  }
  VertexId target;
  if (any_target) target = b.add_vertex("target", VertexKind::active, true);
  b.set_initial(ids.front());
  b.set_reset_cost(g.reset_cost());
  std::vector<EdgeId> model_of_insertion;
  model_of_insertion.reserve(edges.size());
  for (const Pending& e : edges) {
    EdgeSpec spec{.from = ids[e.from],
                  .to = e.to == target_state ? target : ids[e.to],
                  .label = e.model.is_none() ? std::string_view("(reset)") : g.label(e.model),
                  .cost = o.unit_costs ? 1.0 : (e.model.is_none() ? g.reset_cost().value_or(1.0) : g.cost(e.model)),
                  .prob = e.prob,
                  .timeout = !e.model.is_none() && g.is_timeout(e.model),
                  .observe = !e.model.is_none() && g.is_observe(e.model)};
    b.add_edge(spec);
    model_of_insertion.push_back(e.model);
  }
  std::vector<EdgeId> edge_of_insertion;
  p.graph_ = b.build({.probability_tolerance = 1e-6}, &edge_of_insertion);
  p.edge_of_.assign(p.graph_.num_edges(), EdgeId::none());
  for (std::size_t i = 0; i < edge_of_insertion.size(); ++i)
    p.edge_of_[edge_of_insertion[i].index()] = model_of_insertion[i];
  p.vertex_of_.reserve(p.graph_.num_vertices());
  for (const State& s : states) p.vertex_of_.push_back(s.v);
  if (any_target) {
    p.vertex_of_.push_back(VertexId::none());
    p.target_ = target;
  }
  return p;
}

VertexId ContextProduct::locate(VertexId v, std::span<const EdgeId> history,
                                std::span<const std::vector<LabelId>> memory) const {
  if (v.index() >= slack_.size()) return VertexId::none();
  const std::size_t j = std::min<std::size_t>(history.size(), slack_[v.index()]);
  const auto it = index_.find(key(v, history.last(j), memory));
  return it == index_.end() ? VertexId::none() : VertexId{it->second};
}

}  // namespace playtest
