#include "playtest/campaign/seen_part.hpp"

#include <string>
#include <vector>

#include "playtest/explore/model_graph.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest {

namespace {

// The edge a recorded step took out of `from` in `g`: its kind, label and target name must match.
EdgeId step_edge(const ModelGraph& g, VertexId from, const StepRecord& s) {
  for (EdgeId e : g.out_edges(from)) {
    bool kind_fits = false;
    switch (s.kind) {
      case StepKind::stimulus:
        kind_fits = !g.is_observe(e) && !g.is_timeout(e) && g.label(e) == s.label;
        break;
      case StepKind::observation:
        kind_fits = !g.is_timeout(e) && !g.is_observe(e) && g.label(e) == s.label;
        break;
      case StepKind::timeout:
        kind_fits = g.is_timeout(e);
        break;
      case StepKind::wait:
        kind_fits = g.is_observe(e) || g.delay_ms(e) > 0;
        break;
      default:
        break;
    }
    if (kind_fits && g.name(g.target(e)) == s.to) return e;
  }
  return EdgeId::none();
}

}  // namespace

SeenPart seen_part(const Model& model, std::span<const RunRecord> runs) {
  ModelGraph g(model);
  std::vector<std::uint8_t> seen;
  auto mark = [&](VertexId v) {
    if (seen.size() <= v.index()) seen.resize(v.index() + 1, 0);
    seen[v.index()] = 1;
    g.expand(v);
  };
  for (const RunRecord& r : runs) {
    VertexId at = g.initial();
    mark(at);
    for (const StepRecord& s : r.trace) {
      if (s.kind == StepKind::reset) {
        at = g.initial();
        continue;
      }
      if (s.kind == StepKind::unexpected || s.kind == StepKind::silence) break;
      if (g.name(at) != s.vertex) break;  // not this model's run: resolve_run says so
      const EdgeId e = step_edge(g, at, s);
      if (e.is_none()) break;
      at = g.target(e);
      mark(at);
    }
  }
  // The graph of the seen states and their edges; the targets nobody passed through are dead ends.
  GraphBuilder b;
  const std::uint32_t n = g.num_vertices();
  seen.resize(n, 0);
  std::vector<VertexId> id(n, VertexId::none());
  SeenPart out;
  for (std::uint32_t k = 0; k < n; ++k)
    if (seen[k]) {
      const VertexId v{k};
      id[k] = b.add_vertex(g.name(v), g.is_passive(v) ? VertexKind::passive : VertexKind::active, g.is_goal(v));
      if (g.is_passive(v) && g.timeout_ms(v) > 0) b.set_timeout_ms(id[k], g.timeout_ms(v));
      ++out.states_seen;
    }
  auto vertex = [&](VertexId v) {
    if (id[v.index()].is_none()) id[v.index()] = b.add_vertex(g.name(v), VertexKind::active);
    return id[v.index()];
  };
  for (std::uint32_t k = 0; k < n; ++k) {
    if (!seen[k]) continue;
    const VertexId v{k};
    const bool passive = g.is_passive(v);
    for (EdgeId e : g.out_edges(v)) {
      const std::string label(g.label(e));
      b.add_edge({.from = id[k],
                  .to = vertex(g.target(e)),
                  .label = label,
                  .cost = g.cost(e),
                  .prob = passive ? std::optional<double>(g.probability(e)) : std::nullopt,
                  .timeout = g.is_timeout(e),
                  .observe = g.is_observe(e),
                  .delay_ms = g.delay_ms(e)});
    }
  }
  b.set_initial(id[g.initial().index()]);
  b.set_reset_cost(g.reset_cost());
  out.graph = b.build();
  return out;
}

}  // namespace playtest
