#include "playtest/run/model_graph_space.hpp"

#include "playtest/error.hpp"

namespace playtest {

ModelGraphSpace::ModelGraphSpace(const ModelGraph& g, PessimisticOptions options) : g_(g), o_(options) {
  if (o_.coverage != CoverageKind::edges)
    throw UsageError("coverage", "on a model explored on the fly the pessimistic tester covers edges");
  if (g.num_vertices() >= (1u << 31)) throw UsageError("max_states", "the state space has too many vertices");
}

std::unique_ptr<ModelGraphSpace> ModelGraphSpace::for_run(const ModelGraph& g, PessimisticOptions options,
                                                          std::span<const EdgeId> traps,
                                                          std::span<const std::uint8_t> purpose_edges) {
  if (!traps.empty() || !purpose_edges.empty())
    throw UsageError("traps", "on a model explored on the fly the pessimistic tester covers every edge");
  return std::make_unique<ModelGraphSpace>(g, options);
}

void ModelGraphSpace::expand(std::uint32_t s, Expansion& out) {
  if (s & 1) {  // "just took edge e": the system moves to its target
    const std::uint32_t t = vertex_state(g_.target(EdgeId{s >> 1}));
    out.add(system_tag, std::span<const std::uint32_t>(&t, 1));
    return;
  }
  const VertexId v{s >> 1};
  if (g_.is_active(v)) {  // expands v
    for (EdgeId e : g_.out_edges(v)) {
      const std::uint32_t t = edge_state(e);
      out.add(e.value, std::span<const std::uint32_t>(&t, 1));
    }
    if (o_.use_resets && g_.is_resettable() && v != g_.initial()) {
      const std::uint32_t t = vertex_state(g_.initial());
      out.add(reset_tag, std::span<const std::uint32_t>(&t, 1));
    }
    return;
  }
  buf_.clear();
  for (EdgeId e : g_.out_edges(v)) buf_.push_back(edge_state(e));
  if (!buf_.empty()) out.add(system_tag, buf_);
}

}  // namespace playtest
