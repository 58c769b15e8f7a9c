// The graph the adaptive strategies plan on (issue 22): the model's test graph with the part of
// the history that matters kept in its vertices, and the system's learned probabilities on the
// outcomes. Where the system's choice at a passive vertex depends on how the run got there (a server
// that serves the client that has waited longest), a plan can then choose the history that leads
// to the outcome it wants.
//
// A vertex of the product is (v, w): model vertex v reached with window w, the last edges taken
// (since the run began or the system was reset) that can still matter: at a vertex whose outcomes
// are learned per history (`keep[v]` > 0 edges of it), w is the last keep[v] edges; elsewhere w
// keeps only what a later such vertex within reach can use (as an Aho-Corasick automaton keeps the
// longest suffix that is a prefix of some pattern), so the product stays small away from them. It
// is built from the initial vertex, only what a run can reach.
//
// Where a history of any length matters (issue 31), the product also carries the states of learned
// memories (strategy/history_model.hpp: the last labels of one class, however far back): every
// product vertex holds each memory's state, an edge whose label a memory watches shifts it, a
// reset empties them all. The learned probabilities at a passive vertex may then depend on them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/strategy/history_model.hpp"

namespace playtest {

struct ContextProductOptions {
  // With the model resettable: a reset edge (cost: the reset cost) from every active product vertex
  // but the initial one back to the initial one.
  bool reset_edges = true;
  // Edges whose model edge is flagged here lead to one extra goal vertex, the "target" (per model
  // EdgeId; empty: none): a plan to reach the target is a plan to take one of them.
  std::span<const std::uint8_t> to_target;
  // Costs: the model's edge costs, or 1 per step (what a step budget counts).
  bool unit_costs = false;
  // The product's goal vertices: those over the model's goal vertices `goals` (empty: none).
  std::span<const VertexId> goals;
  // Refused past this many product vertices (the build stops and returns nullopt).
  std::uint32_t max_vertices = 1u << 20;
  // Memories whose states the product carries (see above; empty: none).
  std::span<const Memory> memories;
};

class ContextProduct {
 public:
  // The learned outcome probabilities of passive model vertex v reached with window `w` (the edges
  // the product keeps, most recent last), one per out-edge of v in order, summing to 1.
  using Learned = std::function<void(VertexId v, std::span<const EdgeId> w, std::span<double> probs)>;
  // The same, knowing the state of every memory of options.memories (in their order).
  using LearnedWithMemory = std::function<void(VertexId v, std::span<const EdgeId> w,
                                               std::span<const std::vector<LabelId>> memory, std::span<double> probs)>;

  // Builds the product; nullopt when it would exceed options.max_vertices.
  static std::optional<ContextProduct> build(const TestGraph& g, std::span<const std::uint32_t> keep,
                                             const Learned& learned, const ContextProductOptions& options);
  static std::optional<ContextProduct> build(const TestGraph& g, std::span<const std::uint32_t> keep,
                                             const LearnedWithMemory& learned, const ContextProductOptions& options);

  const TestGraph& graph() const { return graph_; }
  VertexId model_vertex(VertexId x) const { return vertex_of_[x.index()]; }
  // The model edge of product edge f: none for a reset edge; for an edge into the target, the model
  // edge it stands for.
  EdgeId model_edge(EdgeId f) const { return edge_of_[f.index()]; }
  bool is_reset(EdgeId f) const { return edge_of_[f.index()].is_none(); }
  VertexId target() const { return target_; }  // none without options.to_target

  // The product vertex of model vertex v reached with `history` (the last edges, most recent last,
  // as many as the caller keeps), or none when no run from the initial vertex gets there so.
  // With memories: their states now, in the order of options.memories.
  VertexId locate(VertexId v, std::span<const EdgeId> history, std::span<const std::vector<LabelId>> memory = {}) const;
  // How many edges of history the product keeps at model vertex v.
  std::uint32_t slack(VertexId v) const { return slack_[v.index()]; }

 private:
  static constexpr std::uint32_t max_window = 8;
  // (vertex, window length, window edges, then per memory its length and labels)
  using Key = std::vector<std::uint32_t>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  static Key key(VertexId v, std::span<const EdgeId> w, std::span<const std::vector<LabelId>> memory);

  TestGraph graph_;
  std::vector<VertexId> vertex_of_;
  std::vector<EdgeId> edge_of_;
  std::vector<std::uint32_t> slack_;                       // per model vertex
  std::unordered_map<Key, std::uint32_t, KeyHash> index_;  // (v, window) -> product vertex
  VertexId target_;
};

}  // namespace playtest
