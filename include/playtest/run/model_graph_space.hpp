// The pessimistic tester (seed 003) on a model explored on the fly: a ModelGraph as a CoverageSpace.
// Numbering: vertex v is state 2v, "just took edge e" is state 2e + 1 (TestGraphSpace's |V| + e
// needs |V|, unknown here; both kinds of id grow as the graph is discovered, so the tester's
// per-state array stays dense). The stimuli, their order and their tags are TestGraphSpace's, so
// the tester plays the same game, and makes the same choices, as on the explored graph. A vertex
// is expanded when its state is marked, i.e. when a run reaches it: only what the tester needs
// (seed 003's remark on lazy generation of the state space). Edge coverage only (every edge a
// goal, the default purpose of the pessimistic strategy).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "playtest/explore/model_graph.hpp"
#include "playtest/plan/pessimistic.hpp"

namespace playtest {

class ModelGraphSpace final : public CoverageSpace {
 public:
  using Graph = ModelGraph;
  static constexpr std::uint64_t reset_tag = TestGraphSpace::reset_tag;
  static constexpr std::uint64_t system_tag = TestGraphSpace::system_tag;

  // Throws UsageError("coverage") for state coverage and UsageError("traps") for traps: on the fly
  // every edge is a goal.
  ModelGraphSpace(const ModelGraph& g, PessimisticOptions options);
  static std::unique_ptr<ModelGraphSpace> for_run(const ModelGraph& g, PessimisticOptions options,
                                                  std::span<const EdgeId> traps,
                                                  std::span<const std::uint8_t> purpose_edges);

  std::uint32_t initial_state() override { return vertex_state(g_.initial()); }
  bool is_goal(std::uint32_t state) override { return (state & 1) != 0; }
  void expand(std::uint32_t state, Expansion& out) override;
  std::uint32_t vertex_state(VertexId v) const { return 2 * v.value; }
  std::uint32_t edge_state(EdgeId e) const { return 2 * e.value + 1; }

 private:
  const ModelGraph& g_;
  PessimisticOptions o_;
  std::vector<std::uint32_t> buf_;
};

using ModelPessimisticPolicy = BasicPessimisticPolicy<ModelGraphSpace>;

}  // namespace playtest
