// Bounded reachability's sweeps (seed 000 §3.3) on the choice model (ModelCosts::worst_case): a
// state's value is (sum p Pr, cost + max(entry cost + C)) over its choice's entries, the tester's
// choice among its choices by the preorder (keeping its previous choice unless one is strictly
// better, dropping to null when (0, 0) is), a passive state's value its one choice's.
//
// On the per-vertex model a pass computes k + 1 from k. On a model whose choices all take two moves
// (ChoiceModel::two_move_steps: the folded MDP) a pass computes k + 2 from k: one pass per MDP
// step. The odd budgets need no pass of their own: by induction a state's value and choice at
// 2s + 1 equal those at 2s (its options at 2s + 1 read the states at 2s - 1, equal to those at
// 2s - 2), and a folded vertex's value at 2s equals the one at 2s - 1; its value at 2s + 1 comes
// from the states at 2s (the last, odd, budget only needs half_pass). The result is identical, value
// for value and change point for change point, to the per-vertex model's.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "playtest/solve/bounded_reachability.hpp"
#include "solve/core/choice_model.hpp"
#include "solve/detail/change_log.hpp"
#include "solve/detail/huge_page_allocator.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

// Minimize the probability (Pmin of F<=k): the tester is the adversary of reaching the goal, so an
// active state with choices never gives up (its null option, (0, 0), would be a free win); it takes
// a least option, keeping its previous choice unless one is strictly less.
struct MinProbabilityOrder {
  static constexpr bool must_choose = true;
  bool better(ReachValue a, ReachValue b) const { return a.prob < b.prob; }
};

// Whether the order's active states must take one of their choices (no null option).
template <class Order>
inline constexpr bool must_choose_v = requires {
  Order::must_choose;
};

template <class Order>
class ReachSweeper {
 public:
  // `m` outlives the sweeper. `num_vertices` is the graph's (the change log's streams).
  // `frontier_stats`: whether frontier_sizes() is kept. Without it the two-move passes neither
  // compare nor store the folded choices' values (about a quarter of a dense pass); choice_values()
  // computes them when asked.
  ReachSweeper(const ChoiceModel& m, std::uint32_t num_vertices, Order order, ReachSweep sweep, unsigned threads,
               bool frontier_stats = true);

  void init();
  // Threads for dense passes (0: the machine's, at most 8); the result is the same for any count.
  void set_threads(unsigned threads);
  // Per vertex: k + 1 from k. Two-move model: k + 2 from k (k even).
  void pass();
  // Two-move model, at even k: every folded vertex's value at k + 1 (states keep theirs); k + 1.
  void half_pass();

  bool two_move() const { return two_move_; }
  std::uint32_t k() const { return k_; }
  // The states' values at k (for the two-move model at the last even k) and the goal slot's.
  std::span<const ReachValue> values() const { return {val_.data(), val_.size()}; }
  // The folded choices' values (two-move model): at k, and k - 1 when k is even.
  std::span<const ReachValue> choice_values() {
    refresh_choice_values();
    return jval_;
  }
  std::uint32_t slot(std::uint32_t state) const { return slot_[state]; }
  std::span<const std::uint32_t> changed() const { return changed_; }
  std::span<const std::uint32_t> frontier_sizes() const { return frontier_; }
  std::size_t num_changes() const { return num_changes_; }
  ChangeLog take_log();

 private:
  template <bool TwoMove, bool Costs>
  ReachValue combine(std::uint32_t c, const ReachValue* r) const;
  template <bool TwoMove, bool Costs, bool Track = true>
  ReachValue compute(std::uint32_t u, const ReachValue* r, std::uint32_t& slot, std::uint32_t& jchanges,
                     std::vector<ReachValue>& options);
  template <bool TwoMove, bool Costs, bool Track>
  void dense_range(std::uint32_t lo, std::uint32_t hi, std::vector<std::uint32_t>& changed,
                   std::vector<std::pair<std::uint32_t, std::uint32_t>>& slots, std::uint32_t& jchanges,
                   std::vector<ReachValue>& options);
  template <bool TwoMove, bool Costs>
  void run_pass();
  template <bool Costs>
  std::uint32_t detached_and_half(std::uint32_t from_choice);
  void log_change(std::uint32_t u, std::uint32_t k, std::uint32_t slot);
  // Two-move model without frontier statistics: no pass keeps jval_; this computes the attached
  // choices' values from the states two moves back, once, when they are asked for.
  void refresh_choice_values();

  const ChoiceModel& m_;
  Order order_;
  ReachSweep sweep_;
  bool two_move_;
  bool costs_;                        // some entry has a cost
  bool stats_;                        // frontier statistics kept
  bool jval_fresh_ = true;            // jval_ holds the attached choices' current values
  bool last_dense_ = true;            // the last pass was dense (next_ holds the states two moves back)
  std::vector<ReachValue> replaced_;  // the last sparse pass: old values of changed_ (no statistics)
  std::uint32_t num_vertices_;
  std::uint32_t k_ = 0;
  std::vector<ReachValue, HugePageAllocator<ReachValue>> val_, next_;  // n + 1: the goal slot last
  std::vector<ReachValue> jval_;                                       // two-move: per choice
  std::vector<std::uint32_t> slot_, last_change_, stamp_;
  std::vector<std::uint32_t> changed_, cand_;
  std::vector<ReachValue> cand_value_;
  std::vector<std::uint32_t> cand_slot_;
  std::vector<ReachValue> options_;
  ModelReverse reverse_;  // built at the first sparse pass
  bool have_reverse_ = false;
  ChangeLog log_;
  std::size_t num_changes_ = 0;
  std::vector<std::uint32_t> frontier_;
  std::unique_ptr<Team> team_;
  struct Part {
    std::vector<std::uint32_t> changed;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> slots;
    std::uint32_t jchanges = 0;
    std::vector<ReachValue> options;
  };
  std::vector<Part> parts_;
};

// Pmax or Pmin of F<=k (or of `a U<=k b`): solve_bounded_reachability with the tester maximizing
// (ProbabilityOrder) or minimizing (MinProbabilityOrder) the probability; options.order is not
// read. `zero` (empty, or one flag per vertex): non-goal vertices whose value is 0 at every bound
// (an until's vertices outside its left side); then the model is per vertex. Defined in
// src/solve/bounded_reachability.cpp.
BoundedReachResult solve_bounded_probability(const TestGraph& g, std::span<const VertexId> goals, bool maximize,
                                             std::span<const std::uint8_t> zero, const BoundedReachOptions& options);

}  // namespace playtest::detail
