// The reactive planning tester of seed 002 §4. The tester model of Algorithm 1 is the TestGraph
// itself: active vertices are the tester's active states, an edge out of an active vertex is a
// controllable transition (one per input: its passive target groups the nondeterministic
// answers), edges out of passive vertices are observable transitions. For each controllable
// transition e, the shortest-paths tree of the dual graph from e, reduced to trap edges with
// hyper-edges, gives the gain function by the production rules (3) and (4):
//   node nu -> not(t_nu) * c / (d(nu0, nu) + 1) + max over children (0 for a leaf)
// and the gain guard (1) enables the out-edges of maximal positive gain.
// A dual-graph path from e is e followed by a vertex path from target(e), so the dual tree of e is
// the vertex shortest-path tree from target(e) with every edge hung below the tree edge entering
// its source: one tree per distinct target vertex, shared by every controllable edge into it,
// stored as 12 bytes per reachable trap and built on first use.
// Large graphs: storing the trees costs O(|targets| * |traps|) memory and a run evaluates O(|TR|)
// per out-edge and step; above a budget the planner evaluates the same gain online instead, by one
// search from target(e) with the current bindings that stops at a planning horizon (the K nearest
// unvisited traps): O(|V| + |E|) memory in all, and per step the work of a search that ends where
// K unvisited traps have been seen. With no horizon the online gain equals the tree gain exactly.
// In the tail of a run (few unvisited traps) the policy uses horizon 1 for every edge at once: one
// backward search from the unvisited traps per newly visited trap (docs/planning.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/strategy/policy.hpp"

namespace playtest {

enum class PathLength : std::uint8_t {
  unit,  // every transition has length 1 (the paper): breadth-first search
  cost,  // an edge's length is its cost: Dijkstra; d is then a cost, not a count
};

// How gains are evaluated. trees: the stored reduced trees of §4.4 (exact, O(|targets| * |traps|)
// memory). online: one search per (edge, new binding) with the horizon below (exact when horizon is
// 0). automatic: trees when |V| * |traps| <= max_tree_nodes, else online.
enum class GainEvaluation : std::uint8_t { automatic, trees, online };

struct PlannerOptions {
  double c = 1.0;  // the scaling constant of rule (3)
  PathLength length = PathLength::unit;
  double min_length = 1e-3;  // cost lengths: denominators never fall below this
  // Stored tree nodes (12 bytes each): automatic evaluation stores trees only when
  // |V| * |traps| fits; forced trees beyond it are rebuilt per use.
  std::uint64_t max_tree_nodes = std::uint64_t{1} << 23;
  bool use_resets = true;  // reset when every gain is 0 but the initial vertex has gain
  GainEvaluation evaluation = GainEvaluation::automatic;
  // Online evaluation: the tree is cut after the distance at which `horizon` unvisited traps have
  // been seen (every trap edge leaving a vertex at most that far from target(e) stays); 0: no cut.
  std::uint32_t horizon = 16;
  // Online evaluation, tail of a run: once at most this many traps are unvisited, the horizon is 1
  // and every gain comes from one backward search per newly visited trap (build_field) instead of
  // a forward search per edge and step. 0: never. Needs positive lengths (has_field()).
  std::uint32_t tail_traps = 4096;
};

// The reduced shortest-paths tree TR(e, G) of one controllable edge: nodes[0] is the root e (its
// own trap term only if e is a trap); every other node is a trap edge with the index of its parent
// node (nearest trap ancestor, or 0) and d(nu0, nu), the length of the path after e up to and
// including that edge. Parents come before children.
struct GainNode {
  EdgeId edge;
  std::uint32_t parent = 0;
  double d = 0;
};
struct GainTree {
  EdgeId root;
  bool root_is_trap = false;
  double root_length = 1;  // 1 for unit lengths, else cost(root) (clamped): denominators are root_length + d
  std::vector<GainNode> nodes;
};

class ReactivePlanner {
 public:
  // `traps`: the trap edges (empty: every edge).
  ReactivePlanner(const TestGraph& g, std::vector<EdgeId> traps = {}, PlannerOptions options = {});

  const TestGraph& graph() const { return g_; }
  bool is_trap(EdgeId e) const { return trap_[e.index()] != 0; }
  const PlannerOptions& options() const { return o_; }

  // TR(e, G) for a controllable edge e (an out-edge of an active vertex).
  GainTree gain_tree(EdgeId e);
  // The gain g_e(T) when trap x is unvisited iff visited[x] == 0 (per EdgeId), by the evaluation
  // the options select (uses_trees()).
  double gain(EdgeId e, std::span<const std::uint32_t> visited);
  // The gain over the stored tree TR(e, G): the paper's construction, exact.
  double tree_gain(EdgeId e, std::span<const std::uint32_t> visited);
  // The gain by one search from target(e) with the current bindings, cut at `horizon` unvisited
  // traps (0: no cut, then equal to tree_gain up to rounding). Never above tree_gain, and positive
  // exactly when tree_gain is: a cut search has seen at least one unvisited trap.
  double online_gain(EdgeId e, std::span<const std::uint32_t> visited, std::uint32_t horizon);
  bool uses_trees() const { return use_trees_; }

  // The horizon-1 gain of every edge at once: one search backwards from the sources of the
  // unvisited traps gives each vertex its distance to the nearest one (and the shortest such trap
  // there), so that field_gain(e) == online_gain(e, visited, 1) up to rounding. Needs positive
  // lengths, where the tree path to the nearest unvisited trap holds no other unvisited trap.
  bool has_field() const { return has_field_; }
  void build_field(std::span<const std::uint32_t> visited);
  // After build_field(visited) with the same bindings. An unvisited trap e itself is evaluated by
  // online_gain (the field might lead back through e, which the tree of e excludes).
  double field_gain(EdgeId e, std::span<const std::uint32_t> visited);
  // The gain function as a formula in the paper's notation (Table 2), e.g.
  // "c·max(¬t_e0/2, ¬t_e1/2 + max(¬t_e2/4, ...))".
  std::string formula(EdgeId e);

  // Stored tree nodes (shared trees count once) and the trees built so far.
  std::uint64_t stored_nodes() const { return pool_.size(); }
  std::uint32_t trees_built() const { return trees_built_; }
  // Bytes held by the planner (trees, per-vertex and per-edge arrays, scratch), not the graph.
  std::size_t memory_bytes() const;

 private:
  struct Node {
    std::uint32_t edge;
    std::uint32_t parent;  // index in the tree, or none for the root
    float d;               // d(nu0, nu) minus the root's length: path length from target(root)
  };
  struct HeapItem {  // Dijkstra key (distance, discovery sequence)
    double d;
    std::uint64_t seq;
    std::uint32_t v;
  };
  double length(EdgeId e) const;
  // The vertex tree of u (into scratch_ or the pool); returns the span.
  std::span<const Node> tree_of(VertexId u);
  void build(VertexId u, std::vector<Node>& out);

  const TestGraph& g_;
  PlannerOptions o_;
  bool use_trees_ = true;
  bool has_field_ = true;
  std::vector<double> field_d_, field_l_;  // per vertex: distance to the nearest unvisited trap's source, its length
  std::vector<std::uint8_t> trap_;
  std::vector<std::uint64_t> tree_begin_;  // per vertex: offset in pool_, or none
  std::vector<std::uint32_t> tree_size_;
  std::vector<Node> pool_, scratch_;
  std::vector<double> best_;
  // Search state reused between builds.
  std::vector<double> dist_, prefix_;
  std::vector<EdgeId> pred_;
  std::vector<HeapItem> heap_;
  std::vector<std::uint32_t> nta_, order_, seen_stamp_, settled_, edge_node_;
  std::uint32_t stamp_ = 0, trees_built_ = 0;
};

class PlannerPolicy final : public Policy {
 public:
  // `traps`: the edges to visit; empty: the run's purpose edges, else every edge.
  PlannerPolicy(const TestGraph& g, PlannerOptions options = {}, std::vector<EdgeId> traps = {});
  std::string_view name() const override;  // its row's (strategy_row.hpp)
  void begin_run(const RunView& view, Rng& rng) override;
  Decision choose(const RunView& view, Rng& rng) override;
  void observe(EdgeId taken, const RunView& view) override;
  std::string stop_reason() const override { return stop_reason_; }
  ReactivePlanner* planner() { return planner_.get(); }

 private:
  double cached_gain(EdgeId e, const RunView& view);
  bool use_field() const;

  const TestGraph& g_;
  PlannerOptions o_;
  std::vector<EdgeId> traps_;
  std::vector<std::uint8_t> planner_traps_;  // the trap set planner_ was built for
  std::unique_ptr<ReactivePlanner> planner_;
  std::vector<double> gain_;
  std::vector<std::uint64_t> gain_epoch_;
  std::uint64_t epoch_ = 1, field_epoch_ = 0;
  std::uint64_t unvisited_ = 0;  // traps not yet taken in this run
  bool no_traps_ = false;
  std::string stop_reason_;
  std::vector<EdgeId> best_;
};

}  // namespace playtest
