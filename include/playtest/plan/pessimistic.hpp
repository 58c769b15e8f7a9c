// The pessimistic tester of seed 003: keep testing only while new coverage can be forced. The test
// is a hypergraph game (plan/rank_game.hpp); the tester takes a reachable stimulus of minimal rank,
// which forces a new mark within rank(current) moves whatever the system does, and stops as soon
// as the current state is unreachable (the system can then avoid all further coverage).
// The state space is generated lazily through CoverageSpace: a state's stimuli are asked for only
// when the state is marked, so dead edges are never built.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

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
  virtual ~CoverageSpace() = default;
  virtual std::uint32_t initial_state() = 0;
  // Whether visiting `state` counts as coverage. Other states are marked as soon as discovered.
  virtual bool is_goal(std::uint32_t state) = 0;
  // The stimuli at `state` (appended to `out`); called at most once per state, when it is marked.
  virtual void expand(std::uint32_t state, Expansion& out) = 0;
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
  using Graph = TestGraph;
  static constexpr std::uint64_t reset_tag = ~std::uint64_t{0} - 1;
  static constexpr std::uint64_t system_tag = ~std::uint64_t{0};
  // `goal_edges`: per EdgeId, 1 for a trap (edge coverage); empty: every edge.
  TestGraphSpace(const TestGraph& g, PessimisticOptions options, std::vector<std::uint8_t> goal_edges = {});
  // The space of one run (BasicPessimisticPolicy): goals are `traps` when given, else the purpose's
  // edges (per-edge flags, empty: all).
  static std::unique_ptr<TestGraphSpace> for_run(const TestGraph& g, PessimisticOptions options,
                                                 std::span<const EdgeId> traps,
                                                 std::span<const std::uint8_t> purpose_edges);
  std::uint32_t vertex_state(VertexId v) const { return v.value; }
  std::uint32_t initial_state() override { return g_.initial().value; }
  bool is_goal(std::uint32_t state) override;
  void expand(std::uint32_t state, Expansion& out) override;
  std::uint32_t edge_state(EdgeId e) const { return g_.num_vertices() + e.value; }

 private:
  const TestGraph& g_;
  PessimisticOptions o_;
  std::vector<std::uint8_t> goal_edges_, failure_;
  std::vector<std::uint32_t> buf_;
};

// The pessimistic tester as a policy, on any graph with a CoverageSpace for it: `Space` is
// TestGraphSpace (PessimisticPolicy) or, for a model explored on the fly, run/model_policies.hpp's
// ModelGraphSpace. Space provides Graph, reset_tag, for_run(g, options, traps, purpose_edges),
// vertex_state(v) and edge_state(e).
template <class Space>
class BasicPessimisticPolicy final : public BasicPolicy<typename Space::Graph> {
  using G = typename Space::Graph;

 public:
  // `traps`: the edges to cover (edge coverage); empty: the run's purpose edges, else every edge.
  BasicPessimisticPolicy(const G& g, PessimisticOptions options = {}, std::vector<EdgeId> traps = {})
      : g_(g), o_(options), traps_(std::move(traps)) {}
  std::string_view name() const override { return "pessimistic"; }
  void begin_run(const BasicRunView<G>& view, Rng& rng) override {
    (void)rng;
    if (view.step != 0 && tester_) {  // after a reset: same run, same marks
      tester_->visit(space_->vertex_state(view.current));
      return;
    }
    tester_.reset();
    space_ = Space::for_run(g_, o_, traps_, view.purpose_edges);
    tester_ = std::make_unique<PessimisticTester>(*space_);
    stop_reason_.clear();
    if (view.current != g_.initial()) tester_->visit(space_->vertex_state(view.current));
  }
  Decision choose(const BasicRunView<G>& view, Rng& rng) override {
    if (!tester_) begin_run(view, rng);
    auto best = tester_->choose(space_->vertex_state(view.current));
    if (!best) {
      stop_reason_ =
          fmt::format("at vertex '{}' the system can avoid every further coverage ({} goals covered): stopping",
                      g_.name(view.current), tester_->goals_marked());
      return Decision::stop();
    }
    const std::uint64_t tag = (*best)[best->size() == 1 ? 0 : rng.below(best->size())];
    if (tag == Space::reset_tag) return Decision::reset();
    return Decision::take(EdgeId{static_cast<std::uint32_t>(tag)});
  }
  void observe(EdgeId taken, const BasicRunView<G>& view) override {
    if (!tester_) return;
    tester_->visit(space_->edge_state(taken));
    tester_->visit(space_->vertex_state(view.current));
  }
  // Why the last run stopped ("" while it has not).
  std::string stop_reason() const override { return stop_reason_; }
  const PessimisticTester* tester() const { return tester_.get(); }

 private:
  const G& g_;
  PessimisticOptions o_;
  std::vector<EdgeId> traps_;
  std::unique_ptr<Space> space_;
  std::unique_ptr<PessimisticTester> tester_;
  std::string stop_reason_;
};
using PessimisticPolicy = BasicPessimisticPolicy<TestGraphSpace>;

}  // namespace playtest
