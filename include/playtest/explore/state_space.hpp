// The lazy state space of a model program with the active/passive semantics of seed 001 §1: a
// state where an observable action is enabled is a passive node; its timeout edge leads to an
// active twin node with the same variable values, where the tester applies the controllable actions;
// other states are active nodes. A state where outputs declared `anytime` are enabled (and no other
// output) is active too; its node, or the active twin of a passive node whose state enables such
// outputs, has an observe edge to a passive *companion* node with the same state, whose edges are
// those outputs and a timeout back (the ioco conversion's shape, docs/ioco.md). Nodes are expanded only when asked
// (online testing of models too large to explore, the pessimistic tester of seed 003); the explorer drives it
// breadth-first.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "playtest/explore/model.hpp"
#include "playtest/explore/state_store.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct NodeTag {};
using NodeId = Id<NodeTag>;

// An edge of the state space, known once its source node is expanded.
struct SpaceEdge {
  NodeId target;
  std::uint32_t label = 0;  // the model's label id (Model::label_text)
  ActionKind kind = ActionKind::controllable;
  bool timeout = false;  // the passive node's timeout edge (kind observable, label unused)
  bool observe = false;  // an active node's observe edge to its companion (kind controllable, label unused)
  std::uint32_t delay_ms = 0;  // a delay action's edge: the tester waits this long, sends nothing
  double cost = 1.0;
  double probability = 0.0;                    // out of passive nodes: weight / sum of weights; 0 otherwise
  std::uint32_t trap_begin = 0, trap_end = 0;  // range in StateSpace::edge_traps()
};

class StateSpace {
 public:
  // `projection` (may be null) overrides the model's own projection(); the model must outlive this.
  explicit StateSpace(const Model& model, const Projection* projection = nullptr);
  ~StateSpace();
  StateSpace(StateSpace&&) noexcept;

  const Model& model() const { return model_; }
  // The initial node (always active, seed 001 §1); expands it.
  NodeId initial();
  // The outgoing edges of `n`, expanding it on the first call. Throws ModelError from the model.
  std::span<const SpaceEdge> successors(NodeId n);
  bool is_expanded(NodeId n) const { return nodes_[n.index()].flags & expanded_flag; }
  // Valid once expanded (twins are created expanded).
  VertexKind kind(NodeId n) const {
    return (nodes_[n.index()].flags & passive_flag) ? VertexKind::passive : VertexKind::active;
  }
  bool is_twin(NodeId n) const { return nodes_[n.index()].flags & twin_flag; }
  // The passive companion of an active node whose state enables `anytime` outputs (named with a
  // trailing !), reached by the active node's observe edge.
  bool is_companion(NodeId n) const { return nodes_[n.index()].flags & companion_flag; }
  NodeId companion(NodeId n) const {
    const std::uint32_t s = nodes_[n.index()].state;
    return s < companion_of_.size() ? companion_of_[s] : NodeId::none();
  }
  // The model's wait for an output at a passive node (Model::timeout_ms), 0 when it gives none.
  std::uint32_t timeout_ms(NodeId n) const {
    const std::uint32_t s = nodes_[n.index()].state;
    return (nodes_[n.index()].flags & passive_flag) && s < timeout_ms_.size() ? timeout_ms_[s] : 0;
  }
  // Active and final (goal of the reachability game); valid once expanded.
  bool is_goal(NodeId n) const { return nodes_[n.index()].flags & goal_flag; }
  // The active twin of a passive node, or none.
  NodeId twin(NodeId n) const { return twin_of_[nodes_[n.index()].state]; }
  // The natural (non-twin) node with the same state.
  NodeId natural(NodeId n) const { return natural_of_[nodes_[n.index()].state]; }
  // The (representative) model state of `n`.
  std::span<const std::byte> state(NodeId n) const;
  std::string state_text(NodeId n) const;
  // "?" + label for observable edges, "?timeout" for timeouts, "observe" for observe edges.
  std::string edge_label(const SpaceEdge& e) const;
  // A node with the given state, if discovered (natural node).
  std::optional<NodeId> find(std::span<const std::byte> state) const;

  // Node `n`'s edges are the entries [first, second) of the space's edge array (edge()), once it is
  // expanded: a node's edges are contiguous, in the order successors() gives them.
  std::pair<std::uint32_t, std::uint32_t> edge_range(NodeId n) const {
    return {nodes_[n.index()].edge_begin, nodes_[n.index()].edge_end};
  }
  const SpaceEdge& edge(std::uint32_t i) const { return edges_[i]; }
  // Edges of the expanded nodes so far.
  std::uint32_t num_edges() const { return static_cast<std::uint32_t>(edges_.size()); }

  std::uint32_t num_nodes() const { return static_cast<std::uint32_t>(nodes_.size()); }
  std::uint32_t num_states() const { return keys_.size(); }
  std::span<const std::uint32_t> edge_traps() const { return edge_traps_; }
  // Bytes of the state store (keys, index, representatives) and of the node and edge arrays.
  std::size_t store_bytes() const;
  std::size_t memory_bytes() const;

 private:
  static constexpr std::uint8_t expanded_flag = 1, passive_flag = 2, twin_flag = 4, goal_flag = 8, companion_flag = 16;
  struct Node {
    std::uint32_t state;  // id in keys_
    std::uint8_t flags = 0;
    std::uint32_t edge_begin = 0, edge_end = 0;
  };
  class Collector;

  NodeId intern(std::span<const std::byte> state);
  void expand(NodeId n);
  bool is_passive_node(NodeId n) const;
  void check(const Collector& c, std::span<const std::byte> state) const;
  enum class Outputs : std::uint8_t { all, anytime };
  void append_edges(const Collector& c, ActionKind kind, double weight_sum, Outputs which = Outputs::all);
  std::optional<TimeoutSpec> timeout_of(std::span<const std::byte> state) const;
  void record_timeout_ms(NodeId n, std::span<const std::byte> state);
  NodeId add_node(NodeId like, std::uint8_t flags);
  // The active node `active` (a twin, or an active natural node) of a state with `anytime` outputs:
  // its observe edge and the companion behind it.
  void add_companion(NodeId active, const Collector& c, const std::optional<TimeoutSpec>& to,
                     std::span<const std::byte> state);
  void fill_twin(NodeId tw, const Collector& c, bool final_state, const std::optional<TimeoutSpec>& to,
                 std::span<const std::byte> state);
  void make_twin(NodeId n);

  const Model& model_;
  std::optional<Projection> projection_;
  StateStore keys_;  // projected keys (or the states themselves)
  std::size_t state_size_;
  std::vector<std::byte> reps_;  // with a projection: the representative state of each key id
  std::vector<Node> nodes_;
  std::vector<NodeId> natural_of_, twin_of_;  // per key id
  std::vector<NodeId> companion_of_;          // per key id; empty unless the model has anytime outputs
  std::vector<std::uint32_t> timeout_ms_;     // per key id; empty unless the model gives durations
  std::vector<SpaceEdge> edges_;
  std::vector<std::uint32_t> edge_traps_;
  std::vector<std::byte> key_buf_;
  std::vector<std::byte> cur_;  // the state being expanded (a copy: interning may move the arena)
  std::optional<NodeId> initial_;
  std::unique_ptr<Collector> collector_;
};

}  // namespace playtest
