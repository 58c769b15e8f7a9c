// A model program's test graph, explored on the fly: the lazy StateSpace with the accessors of a
// TestGraph (the subset the runner, the simulated system and the on-the-fly strategies use), so
// that online testing plays a model too large to explore (docs/testing.md "Models too big to
// explore"). A vertex is expanded (its kind, goal flag and out-edges computed) the first time one of
// them is asked for; targets of expanded vertices are discovered, not expanded.
//
// Ids: VertexId is the state space's NodeId (dense, in discovery order), EdgeId the index of the
// edge in the space's edge array (dense, in expansion order; a vertex's out-edges are a contiguous
// id range, in the order of Model::successors, as in the explored TestGraph). Names: a vertex is
// named by its state text, an active twin with a trailing ' (the explorer's VertexNaming::state);
// edges are named e<id>. Labels are those of the explored graph ("?Name" for outputs, "?timeout").
//
// The accessors are const but expand vertices on demand (the graph is a cache of the model): a
// ModelGraph is not thread-safe; give each thread its own.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "playtest/explore/model.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/graph/game_graph.hpp"

namespace playtest {

class ModelGraph final : public GameGraph {
 public:
  // Expands the initial vertex. The model must outlive the graph. Throws ModelError from the model
  // and GraphError when a vertex cannot drive an online test (check_online_testable's rules).
  explicit ModelGraph(const Model& model, const Projection* projection = nullptr);
  ModelGraph(const ModelGraph&) = delete;
  ModelGraph& operator=(const ModelGraph&) = delete;

  const Model& model() const { return space_.model(); }

  // What has been discovered so far: every vertex reached or seen as a target, every out-edge of an
  // expanded vertex, every label on them.
  std::uint32_t num_vertices() const override { return space_.num_nodes(); }
  std::uint32_t num_edges() const override { return static_cast<std::uint32_t>(source_.size()); }
  // The edges of the vertices a run can have reached: num_edges() but for the natural node of a
  // passive initial state until it is reached (the run starts at its twin). What coverage counts.
  std::uint32_t num_reached_edges() const { return num_edges() - hidden_edges_; }
  // That node (none when the initial state is active or the node was reached).
  VertexId hidden_vertex() const { return hidden_; }
  std::uint32_t num_expanded() const override { return expanded_; }
  std::uint32_t num_labels() const override { return static_cast<std::uint32_t>(label_texts_.size()); }

  VertexId initial() const override { return initial_; }
  bool is_expanded(VertexId v) const { return space_.is_expanded(node(v)); }
  // Computes v's kind, goal flag and out-edges (once).
  void expand(VertexId v) const {
    if (!space_.is_expanded(node(v)) || v == hidden_) expand_slow(v);
  }

  // Expanding accessors.
  IdRange<EdgeId> out_edges(VertexId v) const override {
    expand(v);
    const auto [b, e] = space_.edge_range(node(v));
    return {b, e};
  }
  bool is_passive(VertexId v) const override {
    expand(v);
    return space_.kind(node(v)) == VertexKind::passive;
  }
  bool is_goal(VertexId v) const override {
    expand(v);
    return space_.is_goal(node(v));
  }
  EdgeId timeout_edge(VertexId v) const override;
  // The observe edge of an active vertex whose state enables `anytime` outputs, or none.
  EdgeId observe_edge(VertexId v) const override;
  // Timing, as TestGraph: the model's wait for an output at a passive vertex (0: none given) and
  // the delay of a delay action's edge (0: a stimulus).
  std::uint32_t timeout_ms(VertexId v) const override {
    expand(v);
    return space_.timeout_ms(node(v));
  }
  std::uint32_t delay_ms(EdgeId e) const override { return space_.edge(e.value).delay_ms; }
  // The model state of v (its representative under an abstraction).
  std::span<const std::byte> state(VertexId v) const { return space_.state(node(v)); }

  // Edges (of expanded vertices).
  VertexId source(EdgeId e) const override { return source_[e.index()]; }
  VertexId target(EdgeId e) const override { return VertexId{space_.edge(e.value).target.value}; }
  double cost(EdgeId e) const override { return space_.edge(e.value).cost; }
  // As in the explored graph: the weight's share among the source's outputs, 0 out of active vertices.
  double probability(EdgeId e) const override { return prob_[e.index()]; }
  LabelId label_id(EdgeId e) const override { return label_[e.index()]; }
  std::string_view label(EdgeId e) const override { return label_texts_[label_[e.index()].value]; }
  std::string_view label_name(LabelId l) const override { return label_texts_[l.value]; }
  bool is_timeout(EdgeId e) const override { return space_.edge(e.value).timeout; }
  bool is_observe(EdgeId e) const override { return space_.edge(e.value).observe; }

  // Names, computed: the state's text (plus ' for a twin), and e<id>.
  std::string name(VertexId v) const;
  std::string name(EdgeId e) const { return "e" + std::to_string(e.value); }
  std::string vertex_name(VertexId v) const override { return name(v); }
  std::string edge_name(EdgeId e) const override { return name(e); }
  const TestGraph* explored() const override { return nullptr; }
  std::uint32_t num_coverable_edges() const override { return num_reached_edges(); }
  bool is_coverable(EdgeId e) const override { return source(e) != hidden_; }

  std::optional<double> reset_cost() const override { return reset_cost_; }

  // Bytes of the state space and of this graph's own arrays.
  std::size_t memory_bytes() const;

 private:
  static NodeId node(VertexId v) { return NodeId{v.value}; }
  void expand_slow(VertexId v) const;
  void add_edges_of(NodeId n) const;
  void check_testable(NodeId n) const;
  LabelId intern_label(const SpaceEdge& e) const;

  mutable StateSpace space_;
  VertexId initial_;
  mutable VertexId hidden_;  // the natural node of a passive initial state, until reached
  mutable std::uint32_t hidden_edges_ = 0;
  std::optional<double> reset_cost_;
  // Per edge (index = EdgeId).
  mutable std::vector<VertexId> source_;
  mutable std::vector<LabelId> label_;
  mutable std::vector<double> prob_;
  // Labels: texts in a deque (a view stays valid while labels are added), ids by key.
  mutable std::deque<std::string> label_texts_;
  mutable std::unordered_map<std::uint64_t, std::uint32_t> label_ids_;
  mutable std::uint32_t expanded_ = 0;
};

}  // namespace playtest
