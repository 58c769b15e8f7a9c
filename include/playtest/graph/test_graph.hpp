// TestGraph: the game board of seed 000 §2 and seed 001 §1. Vertices are active (the tester
// chooses the next edge; "states" in seed 000) or passive (the system under test chooses;
// "choice points"). Edges carry a label, a cost >= 0 and, out of passive vertices, a probability.
// Immutable once built (see GraphBuilder): compressed sparse rows, 32-bit ids, parallel arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/game_graph.hpp"
#include "playtest/graph/ids.hpp"
#include "playtest/graph/string_pool.hpp"

namespace playtest {

class GraphBuilder;

class TestGraph final : public GameGraph {
 public:
  TestGraph() = default;

  std::uint32_t num_vertices() const override { return static_cast<std::uint32_t>(vflags_.size()); }
  std::uint32_t num_edges() const override { return static_cast<std::uint32_t>(target_.size()); }
  IdRange<VertexId> vertices() const { return {0, num_vertices()}; }
  IdRange<EdgeId> edges() const { return {0, num_edges()}; }

  // Edge ids are grouped by source vertex, so a vertex's out-edges are a contiguous id range; within
  // a vertex they keep the order in which they were added.
  IdRange<EdgeId> out_edges(VertexId v) const override { return {out_offsets_[v.index()], out_offsets_[v.index() + 1]}; }
  std::span<const EdgeId> in_edges(VertexId v) const {
    return std::span<const EdgeId>(in_edges_).subspan(in_offsets_[v.index()],
                                                      in_offsets_[v.index() + 1] - in_offsets_[v.index()]);
  }
  std::uint32_t out_degree(VertexId v) const { return out_offsets_[v.index() + 1] - out_offsets_[v.index()]; }
  std::uint32_t in_degree(VertexId v) const { return in_offsets_[v.index() + 1] - in_offsets_[v.index()]; }

  VertexId source(EdgeId e) const override { return source_[e.index()]; }
  VertexId target(EdgeId e) const override { return target_[e.index()]; }
  double cost(EdgeId e) const override { return cost_[e.index()]; }
  // The probability that the system under test takes `e`; 0 for edges out of active vertices.
  double probability(EdgeId e) const override { return prob_[e.index()]; }
  LabelId label_id(EdgeId e) const override { return label_[e.index()]; }
  std::string_view label(EdgeId e) const override { return labels_.view(label_[e.index()].value); }
  std::string_view label_name(LabelId l) const override { return labels_.view(l.value); }
  std::uint32_t num_labels() const override { return labels_.size(); }
  std::optional<LabelId> find_label(std::string_view s) const;
  // The edge a passive vertex follows when the system stays silent (seed 001 §1: the timeout turns
  // the passive state into an active one). At most one per passive vertex.
  bool is_timeout(EdgeId e) const override { return (eflags_[e.index()] & edge_timeout) != 0; }
  EdgeId timeout_edge(VertexId v) const override;
  // An "observe" edge (ioco graphs, docs/ioco.md): from an active vertex to a passive one, the
  // tester's choice to send nothing and wait for an output. The runner never sends its label.
  bool is_observe(EdgeId e) const override { return (eflags_[e.index()] & edge_observe) != 0; }
  // The observe edge of v, or none.
  EdgeId observe_edge(VertexId v) const override;
  // Timing (seed 001 §1: the timeout is state-dependent). How long the runner waits for an output at
  // passive vertex v before it judges silence (graph/1 "timeout_ms", a model's `timeout after E`),
  // in ms; 0 when the graph does not say (the runner's --timeout-ms applies).
  std::uint32_t timeout_ms(VertexId v) const override { return vtimeout_ms_.empty() ? 0 : vtimeout_ms_[v.index()]; }
  // A delay edge (graph/1 "delay_ms", a model's `delay E` action): the tester's move of waiting this
  // many ms itself, sending nothing to the system; 0 for every other edge.
  std::uint32_t delay_ms(EdgeId e) const override { return edelay_ms_.empty() ? 0 : edelay_ms_[e.index()]; }
  // Whether any vertex has its own timeout or any edge a delay.
  bool has_timing() const { return !vtimeout_ms_.empty() || !edelay_ms_.empty(); }

  VertexKind kind(VertexId v) const {
    return (vflags_[v.index()] & vertex_passive) ? VertexKind::passive : VertexKind::active;
  }
  bool is_active(VertexId v) const { return (vflags_[v.index()] & vertex_passive) == 0; }
  bool is_passive(VertexId v) const override { return (vflags_[v.index()] & vertex_passive) != 0; }
  bool is_goal(VertexId v) const override { return (vflags_[v.index()] & vertex_goal) != 0; }
  std::vector<VertexId> goals() const;
  std::uint32_t num_goals() const { return num_goals_; }
  std::uint32_t num_passive() const { return num_passive_; }
  VertexId initial() const override { return initial_; }

  // Names: the ids users wrote in the file (or that a generator gave).
  std::string_view name(VertexId v) const { return vertex_names_.view(v.value); }
  std::string_view name(EdgeId e) const {
    if (edge_name_.empty()) return default_edge_name(e.value);
    const std::uint32_t x = edge_name_[e.index()];
    return x < edge_names_.size() ? edge_names_.view(x) : default_edge_name(x - edge_names_.size());
  }
  std::optional<VertexId> find_vertex(std::string_view name) const;
  std::optional<EdgeId> find_edge(std::string_view name) const;
  std::string vertex_name(VertexId v) const override { return std::string(name(v)); }
  std::string edge_name(EdgeId e) const override { return std::string(name(e)); }
  const TestGraph* explored() const override { return this; }

  // Resets (seed 002 §3.2): when the system under test can be reset, the cost of a reset.
  bool is_resettable() const { return reset_cost_.has_value(); }
  std::optional<double> reset_cost() const override { return reset_cost_; }

  // The top-level "meta" value of the input (graph/1 lets models carry anything there, e.g. the
  // declared traps meta.traps), as compact JSON text; "" when the input had none.
  std::string_view meta_json() const { return meta_json_; }

  // Raw arrays for hot loops (indexed by EdgeId / VertexId value).
  std::span<const std::uint32_t> out_offsets() const { return out_offsets_; }
  std::span<const VertexId> targets() const { return target_; }
  std::span<const VertexId> sources() const { return source_; }
  std::span<const double> costs() const { return cost_; }
  std::span<const double> probabilities() const { return prob_; }

  // Bytes owned by this graph (capacity of every array).
  std::size_t memory_bytes() const;

 private:
  friend class GraphBuilder;
  static constexpr std::uint8_t vertex_passive = 1, vertex_goal = 2;
  static constexpr std::uint8_t edge_timeout = 1, edge_observe = 2;

  std::vector<std::uint8_t> vflags_;
  std::vector<std::uint32_t> out_offsets_{0};
  std::vector<std::uint32_t> in_offsets_{0};
  std::vector<EdgeId> in_edges_;
  std::vector<VertexId> source_, target_;
  std::vector<double> cost_, prob_;
  std::vector<LabelId> label_;
  // Edge names: the explicit ones in edge_names_; "e<insertion index>" for the others, all of which
  // stand one after another in default_edge_names_ ("e0e1e2..."), where a name's place follows from
  // its index (no offsets stored). edge_name_[e]: an id in edge_names_, or edge_names_.size() + the
  // insertion index of an edge with a default name; empty when every edge has its default name and
  // edge ids are insertion indices.
  std::string_view default_edge_name(std::uint32_t insertion) const;
  std::vector<std::uint32_t> edge_name_;
  std::string default_edge_names_;
  std::vector<EdgeId> edge_of_explicit_name_;  // id in edge_names_ (explicit names only) -> EdgeId
  std::vector<EdgeId> edge_of_insertion_;      // insertion index -> EdgeId; empty: the identity
  std::vector<std::uint8_t> eflags_;
  std::vector<std::uint32_t> vtimeout_ms_;  // per vertex; empty when no vertex has one
  std::vector<std::uint32_t> edelay_ms_;    // per edge; empty when no edge has one
  StringPool vertex_names_, edge_names_, labels_;
  VertexId initial_;
  std::uint32_t num_goals_ = 0, num_passive_ = 0;
  std::optional<double> reset_cost_;
  std::string meta_json_;
};

}  // namespace playtest
