// The pessimistic tester of seed 003: keep testing only while new coverage can be forced. The test
// is a hypergraph game (plan/rank_game.hpp); the tester takes a reachable stimulus of minimal rank,
// which forces a new mark within rank(current) moves whatever the system does, and stops as soon
// as the current state is unreachable (the system can then avoid all further coverage).
// The state space is generated lazily through CoverageSpace: a state's stimuli are asked for only
// when the state is marked, so dead edges are never built.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/plan/rank_game.hpp"
#include "playtest/strategy/policy.hpp"

namespace playtest {

// The stimuli of one state: stimulus i has tag tags[i] and may lead to states[offsets[i] ..
// offsets[i+1]).
struct Expansion {
  std::vector<std::uint64_t> tags;
  std::vector<std::uint32_t> offsets{0};
  std::vector<std::uint32_t> states;
  void add(std::uint64_t tag, std::span<const std::uint32_t> to) {
    tags.push_back(tag);
    states.insert(states.end(), to.begin(), to.end());
    offsets.push_back(static_cast<std::uint32_t>(states.size()));
  }
  void clear() { tags.clear(), offsets.assign(1, 0), states.clear(); }
};

// A state space the tester explores on demand. State ids are the space's own (dense or not, below
// 2^32 - 1).
class CoverageSpace {
 public:
  // The tags of the stimuli that are not edges: a reset, and the system's move.
  static constexpr std::uint64_t reset_tag = ~std::uint64_t{0} - 1;
  static constexpr std::uint64_t system_tag = ~std::uint64_t{0};
  virtual ~CoverageSpace() = default;
  virtual std::uint32_t initial_state() = 0;
  // Whether visiting `state` counts as coverage. Other states are marked as soon as discovered.
  virtual bool is_goal(std::uint32_t state) = 0;
  // The stimuli at `state` (appended to `out`); called at most once per state, when it is marked.
  virtual void expand(std::uint32_t state, Expansion& out) = 0;
  // The state of being at vertex v, and of having just taken edge e (graph spaces only).
  virtual std::uint32_t vertex_state(VertexId v) const {
    (void)v;
    return 0;
  }
  virtual std::uint32_t edge_state(EdgeId e) const {
    (void)e;
    return 0;
  }
};

class PessimisticTester {
 public:
  explicit PessimisticTester(CoverageSpace& space);
  // The system is in `state` (discovered earlier, or the initial state): mark it if unmarked.
  void visit(std::uint32_t state);
  // The tags of the minimal-rank stimuli at `state` (marked), or nothing when the system can avoid
  // every further mark from there.
  std::optional<std::vector<std::uint64_t>> choose(std::uint32_t state);
  // rank(state): moves within which a new mark is forced (RankGame::unreachable: none is).
  std::uint32_t rank(std::uint32_t state);
  std::uint32_t goals_marked() const { return goals_marked_; }
  bool is_discovered(std::uint32_t state) const {
    return state < node_.size() && node_[state] != RankGame::unreachable;
  }
  bool is_marked(std::uint32_t state) const { return is_discovered(state) && game_.is_marked(node_[state]); }
  RankGame& game() { return game_; }
  const RankGame& game() const { return game_; }
  std::uint32_t node_of(std::uint32_t state) const { return node_[state]; }
  std::uint64_t tag_of(std::uint32_t hyperedge) const { return tag_[hyperedge]; }

 private:
  std::uint32_t discover(std::uint32_t state);
  void mark_node(std::uint32_t state);

  CoverageSpace& space_;
  RankGame game_;
  std::vector<std::uint32_t> node_;  // state -> game vertex
  std::vector<std::uint64_t> tag_;   // game edge -> stimulus tag
  std::vector<std::uint32_t> to_mark_, scratch_;
  Expansion exp_;
  std::uint32_t goals_marked_ = 0;
};

enum class CoverageKind : std::uint8_t { edges, states };

struct PessimisticOptions {
  CoverageKind coverage = CoverageKind::edges;
  // State coverage: an output that returns to the state its stimulus left (an operation that can
  // fail without a state change) counts as a goal until first seen, so the stimulus stays usable
  // (seed 003: a new state and edge break the self-loop). Edge coverage needs no such help.
  bool break_failure_loops = true;
  bool use_resets = true;  // a reset is a stimulus at every active vertex when the graph allows it
};

// A TestGraph as a CoverageSpace. States: vertex v is state v; "just took edge e" is state
// |V| + e (so edge coverage is state coverage of those). Active vertex: one stimulus per out-edge
// (tag = edge id) plus a reset (tag reset_tag) to the initial vertex; passive vertex: one stimulus
// leading to all its out-edges; edge state: one stimulus to the edge's target.
class TestGraphSpace final : public CoverageSpace {
 public:
  // `goal_edges`: per EdgeId, 1 for a trap (edge coverage); empty: every edge.
  TestGraphSpace(const TestGraph& g, PessimisticOptions options, std::vector<std::uint8_t> goal_edges = {});
  // The space of one run (PessimisticPolicy): goals are `traps` when given, else the purpose's
  // edges (per-edge flags, empty: all).
  static std::unique_ptr<TestGraphSpace> for_run(const TestGraph& g, PessimisticOptions options,
                                                 std::span<const EdgeId> traps,
                                                 std::span<const std::uint8_t> purpose_edges);
  std::uint32_t vertex_state(VertexId v) const override { return v.value; }
  std::uint32_t initial_state() override { return g_.initial().value; }
  bool is_goal(std::uint32_t state) override;
  void expand(std::uint32_t state, Expansion& out) override;
  std::uint32_t edge_state(EdgeId e) const override { return g_.num_vertices() + e.value; }

 private:
  const TestGraph& g_;
  PessimisticOptions o_;
  std::vector<std::uint8_t> goal_edges_, failure_;
  std::vector<std::uint32_t> buf_;
};

// Any GameGraph as a CoverageSpace, for a model explored on the fly (a vertex is expanded when its
// state is marked, i.e. when a run reaches it: seed 003's lazy generation). States: vertex v is 2v,
// "just took edge e" is 2e + 1 (TestGraphSpace's |V| + e needs |V|, unknown on the fly; both kinds of
// id grow as the graph is discovered, so the tester's per-state array stays dense). The stimuli,
// their order and their tags are TestGraphSpace's, so the tester plays the same game. Edge coverage
// of every edge only.
class GameGraphSpace final : public CoverageSpace {
 public:
  // Throws UsageError("coverage") for state coverage, UsageError("max_states") past 2^31 vertices.
  GameGraphSpace(const GameGraph& g, PessimisticOptions options);
  // Throws UsageError("traps") for traps or purpose edges: every edge is a goal.
  static std::unique_ptr<GameGraphSpace> for_run(const GameGraph& g, PessimisticOptions options,
                                                 std::span<const EdgeId> traps,
                                                 std::span<const std::uint8_t> purpose_edges);
  std::uint32_t initial_state() override { return vertex_state(g_.initial()); }
  bool is_goal(std::uint32_t state) override { return (state & 1) != 0; }
  void expand(std::uint32_t state, Expansion& out) override;
  std::uint32_t vertex_state(VertexId v) const override { return 2 * v.value; }
  std::uint32_t edge_state(EdgeId e) const override { return 2 * e.value + 1; }

 private:
  const GameGraph& g_;
  PessimisticOptions o_;
  std::vector<std::uint32_t> buf_;
};

// The pessimistic tester as a policy, on any graph a run plays on: an explored graph is played as
// its TestGraphSpace, a model explored on the fly as its GameGraphSpace (the same game with other
// state numbers, so the same choices).
class PessimisticPolicy final : public Policy {
 public:
  // `traps`: the edges to cover (edge coverage); empty: the run's purpose edges, else every edge.
  // Keeps a reference to `g`.
  explicit PessimisticPolicy(const GameGraph& g, PessimisticOptions options = {}, std::vector<EdgeId> traps = {})
      : g_(g), o_(options), traps_(std::move(traps)) {}
  std::string_view name() const override;  // its row's (strategy_row.hpp)
  void begin_run(const RunView& view, Rng& rng) override;
  Decision choose(const RunView& view, Rng& rng) override;
  void observe(EdgeId taken, const RunView& view) override;
  // Why the last run stopped ("" while it has not).
  std::string stop_reason() const override { return stop_reason_; }
  const PessimisticTester* tester() const { return tester_.get(); }

 private:
  const GameGraph& g_;
  PessimisticOptions o_;
  std::vector<EdgeId> traps_;
  std::unique_ptr<CoverageSpace> space_;
  std::unique_ptr<PessimisticTester> tester_;
  std::string stop_reason_;
};

}  // namespace playtest
