#include "playtest/plan/pessimistic.hpp"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#include "playtest/base/error.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest {

PessimisticTester::PessimisticTester(CoverageSpace& space) : space_(space) {
  std::uint32_t s0 = space_.initial_state();
  discover(s0);
  // The initial state is visited from the start: mark it (and expand it) now.
  mark_node(s0);
  game_.rank(node_[s0]);  // starts the game: ranks from scratch once, decremental from here on
}

std::uint32_t PessimisticTester::discover(std::uint32_t state) {
  if (state >= node_.size()) node_.resize(std::size_t{state} + 1, RankGame::unreachable);
  if (node_[state] != RankGame::unreachable) return node_[state];
  node_[state] = game_.add_vertex(false);
  if (!space_.is_goal(state)) to_mark_.push_back(state);
  return node_[state];
}

void PessimisticTester::mark_node(std::uint32_t first) {
  // Marks `first` and, transitively, the non-goal states its expansion discovers. Each state's
  // edges are added just before its mark, so ranks only grow (the game's precondition).
  to_mark_.push_back(first);
  while (!to_mark_.empty()) {
    std::uint32_t s = to_mark_.back();
    to_mark_.pop_back();
    std::uint32_t v = node_[s];
    if (game_.is_marked(v)) continue;
    exp_.clear();
    space_.expand(s, exp_);
    for (std::size_t i = 0; i < exp_.tags.size(); ++i) {
      scratch_.clear();
      for (std::uint32_t k = exp_.offsets[i]; k < exp_.offsets[i + 1]; ++k)
        scratch_.push_back(discover(exp_.states[k]));
      if (scratch_.empty()) continue;
      game_.add_edge(v, scratch_);
      tag_.push_back(exp_.tags[i]);
    }
    game_.mark(v);
    if (space_.is_goal(s)) ++goals_marked_;
  }
}

void PessimisticTester::visit(std::uint32_t state) {
  if (!is_discovered(state)) throw InternalError("PessimisticTester::visit: state not discovered");
  if (!game_.is_marked(node_[state])) mark_node(state);
}

std::uint32_t PessimisticTester::rank(std::uint32_t state) { return game_.rank(node_[state]); }

std::optional<std::vector<std::uint64_t>> PessimisticTester::choose(std::uint32_t state) {
  if (!is_discovered(state)) throw InternalError("PessimisticTester::choose: state not discovered");
  game_.best_edges(node_[state], scratch_);
  if (scratch_.empty()) return std::nullopt;
  std::vector<std::uint64_t> tags;
  tags.reserve(scratch_.size());
  for (std::uint32_t h : scratch_) tags.push_back(tag_[h]);
  return tags;
}

TestGraphSpace::TestGraphSpace(const TestGraph& g, PessimisticOptions options, std::vector<std::uint8_t> goal_edges)
    : g_(g), o_(options), goal_edges_(std::move(goal_edges)) {
  if (goal_edges_.empty()) goal_edges_.assign(g.num_edges(), 1);
  if (goal_edges_.size() != g.num_edges()) throw InternalError("TestGraphSpace: goal_edges size");
  if (o_.coverage == CoverageKind::states && o_.break_failure_loops) {
    // f out of passive p is a failure edge when it returns to a vertex with a stimulus into p.
    failure_.assign(g.num_edges(), 0);
    for (VertexId p : g.vertices()) {
      if (!g.is_passive(p)) continue;
      for (EdgeId f : g.out_edges(p))
        for (EdgeId in : g.in_edges(p))
          if (g.source(in) == g.target(f) && g.is_active(g.source(in))) failure_[f.index()] = 1;
    }
  }
}

bool TestGraphSpace::is_goal(std::uint32_t s) {
  const std::uint32_t n = g_.num_vertices();
  if (s < n) return o_.coverage == CoverageKind::states && s != g_.initial().value;
  if (o_.coverage == CoverageKind::edges) return goal_edges_[s - n] != 0;
  return !failure_.empty() && failure_[s - n] != 0;
}

void TestGraphSpace::expand(std::uint32_t s, Expansion& out) {
  const std::uint32_t n = g_.num_vertices();
  if (s >= n) {
    std::uint32_t t = g_.target(EdgeId{s - n}).value;
    out.add(system_tag, std::span<const std::uint32_t>(&t, 1));
    return;
  }
  VertexId v{s};
  if (g_.is_active(v)) {
    for (EdgeId e : g_.out_edges(v)) {
      std::uint32_t t = edge_state(e);
      out.add(e.value, std::span<const std::uint32_t>(&t, 1));
    }
    if (o_.use_resets && g_.is_resettable() && v != g_.initial()) {
      std::uint32_t t = g_.initial().value;
      out.add(reset_tag, std::span<const std::uint32_t>(&t, 1));
    }
    return;
  }
  buf_.clear();
  for (EdgeId e : g_.out_edges(v)) buf_.push_back(edge_state(e));
  if (!buf_.empty()) out.add(system_tag, buf_);
}

std::unique_ptr<TestGraphSpace> TestGraphSpace::for_run(const TestGraph& g, PessimisticOptions options,
                                                        std::span<const EdgeId> traps,
                                                        std::span<const std::uint8_t> purpose_edges) {
  std::vector<std::uint8_t> goals;
  if (!traps.empty())
    goals = trap_flags(g, traps);
  else if (!purpose_edges.empty())
    goals.assign(purpose_edges.begin(), purpose_edges.end());
  return std::make_unique<TestGraphSpace>(g, options, std::move(goals));
}

GameGraphSpace::GameGraphSpace(const GameGraph& g, PessimisticOptions options) : g_(g), o_(options) {
  if (o_.coverage != CoverageKind::edges)
    throw UsageError("coverage", "on a model explored on the fly the pessimistic tester covers edges");
  if (g.num_vertices() >= (1u << 31)) throw UsageError("max_states", "the state space has too many vertices");
}

std::unique_ptr<GameGraphSpace> GameGraphSpace::for_run(const GameGraph& g, PessimisticOptions options,
                                                          std::span<const EdgeId> traps,
                                                          std::span<const std::uint8_t> purpose_edges) {
  if (!traps.empty() || !purpose_edges.empty())
    throw UsageError("traps", "on a model explored on the fly the pessimistic tester covers every edge");
  return std::make_unique<GameGraphSpace>(g, options);
}

void GameGraphSpace::expand(std::uint32_t s, Expansion& out) {
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

void PessimisticPolicy::begin_run(const RunView& view, Rng& rng) {
  (void)rng;
  if (view.step != 0 && tester_) {  // after a reset: same run, same marks
    tester_->visit(space_->vertex_state(view.current));
    return;
  }
  tester_.reset();
  if (const TestGraph* whole = g_.explored())
    space_ = TestGraphSpace::for_run(*whole, o_, traps_, view.purpose_edges);
  else
    space_ = GameGraphSpace::for_run(g_, o_, traps_, view.purpose_edges);
  tester_ = std::make_unique<PessimisticTester>(*space_);
  stop_reason_.clear();
  if (view.current != g_.initial()) tester_->visit(space_->vertex_state(view.current));
}

Decision PessimisticPolicy::choose(const RunView& view, Rng& rng) {
  if (!tester_) begin_run(view, rng);
  auto best = tester_->choose(space_->vertex_state(view.current));
  if (!best) {
    stop_reason_ = fmt::format("at vertex '{}' the system can avoid every further coverage ({} goals covered): stopping",
                               g_.vertex_name(view.current), tester_->goals_marked());
    return Decision::stop();
  }
  const std::uint64_t tag = (*best)[best->size() == 1 ? 0 : rng.below(best->size())];
  if (tag == CoverageSpace::reset_tag) return Decision::reset();
  return Decision::take(EdgeId{static_cast<std::uint32_t>(tag)});
}

void PessimisticPolicy::observe(EdgeId taken, const RunView& view) {
  (void)view;
  if (!tester_) return;
  tester_->visit(space_->edge_state(taken));
  tester_->visit(space_->vertex_state(view.current));
}

}  // namespace playtest
