// Bounded reachability games (seed 000 §3): for a bound n, the strategy S(v,k), the winning
// probability Pr(v,k) and the worst-case path cost C(v,k) for k = 0..n, computed by the backward
// recursion of §3.3 and optimal (Theorem 1) for any acceptable preorder (Definition 1). The sweeps
// run on the solver core's choice model (src/solve/core/): per vertex, or, for a large MDP of the
// PRISM importer's shape, with its choice vertices folded so that one pass is one MDP step.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/choice_folding.hpp"

namespace playtest {

// A performance value (Prob, Cost) of seed 000 §3.2.
struct ReachValue {
  double prob = 0.0;
  double cost = 0.0;
  friend bool operator==(ReachValue, ReachValue) = default;
};

// A preorder on performance values, given by its strict part: better(a, b) is true when a is
// strictly better than b (a ⪯ b and not b ⪯ a). The solver is optimal (seed 000 Theorem 1) when the
// preorder is total and *acceptable* (Definition 1):
//   1. every (0, c) is a greatest element (losing is the worst outcome, whatever it costs);
//   2. it is monotone under the passive-vertex combination: if (P_i, C_i) ⪯ (P'_i, C'_i) for all i,
//      then (sum p_i P_i, max(c_i + C_i)) ⪯ (sum p_i P'_i, max(c_i + C'_i)).
// At an active vertex the solver keeps its previous choice (at first: null, the value (0, 0)) unless
// an edge is strictly better, so among equally good options it prefers the one it already has.
template <class P>
concept ReachPreorder = requires(const P& p, ReachValue a, ReachValue b) {
  { p.better(a, b) } -> std::convertible_to<bool>;
};

// Example 1 of seed 000: maximize the probability, then minimize the worst-case cost; every value
// with probability 0 is a greatest element.
//
// Read literally, Example 1 breaks condition 2 when some P_i = 0: all (0, c) are equivalent, yet the
// cost c of a losing branch still enters the max at a passive predecessor. The solver never picks an
// edge at an active vertex that cannot win (it stays null, value (0, 0)), which makes its strategy
// optimal for the finer order "probability descending, then cost ascending" on *all* pairs (that
// order is monotone) and therefore also for Example 1's order. The tests check exactly this.
struct LexicographicOrder {
  bool better(ReachValue a, ReachValue b) const {
    if (b.prob == 0.0) return a.prob > 0.0;
    return a.prob > b.prob || (a.prob == b.prob && a.cost < b.cost);
  }
};

// Maximize the probability only; costs are reported but never compared.
struct ProbabilityOrder {
  bool better(ReachValue a, ReachValue b) const { return a.prob > b.prob; }
};

enum class ReachOrder : std::uint8_t { lexicographic, probability };

// How a step finds the vertices to recompute. Both give identical results; automatic picks per step.
enum class ReachSweep : std::uint8_t {
  automatic,  // dense at the first step and whenever more than 1/16 of the states changed
  frontier,   // always the predecessors of the last step's changed states (after the first step)
  dense,      // always every state, in order
};

struct BoundedReachOptions {
  std::uint32_t bound = 100;
  ReachOrder order = ReachOrder::lexicographic;
  ReachSweep sweep = ReachSweep::automatic;
  // Vertices for which Pr(v,k) and C(v,k) are kept for every k = 0..bound (BoundedReachResult::
  // prob(v, k), cost(v, k)); costs O(|record| * (bound + 1)) memory. List every vertex for a full table.
  std::vector<VertexId> record = {};
  // Threads for dense steps; 0: the machine's hardware threads (at most 8). Results are the same
  // for every count (each step reads only the previous step's values).
  unsigned threads = 0;
  // Called after each step k = 1..bound (a progress line); may be empty.
  std::function<void(std::uint32_t k, std::uint32_t bound)> on_step;
  // Whether an MDP of the PRISM importer's shape (every passive vertex the choice of one active
  // vertex or of goals only, every edge of a non-goal active vertex to such a choice) is solved on
  // the folded choice model: a state's value at k comes from the states' values at k - 2 through
  // its choices, so one pass over the states is one MDP step (two moves), and the odd budgets
  // follow from the even ones without a pass of their own (docs/performance.md). The result is the
  // same in every respect (values, change points, frontier sizes). automatic: for such MDPs of at
  // least 65536 vertices when every recorded vertex is a state or a goal.
  ChoiceFolding fold_choices = ChoiceFolding::automatic;
  // Whether BoundedReachResult::frontier_sizes() is computed (how many vertices changed value at
  // each step). Off, the folded passes skip comparing and storing every choice's value (about a
  // quarter of their time on resource-gathering); every other result is the same.
  bool frontier_statistics = false;
};

namespace detail {
class ChangeLog;
class ReachStepper;
struct ReachResultAccess;
// A preorder behind a pointer (the solver's instantiation for caller-supplied preorders).
struct ReachPreorderRef {
  const void* self = nullptr;
  bool (*fn)(const void*, ReachValue, ReachValue) = nullptr;
  bool better(ReachValue a, ReachValue b) const { return fn(self, a, b); }
  template <ReachPreorder Order>
  static ReachPreorderRef of(const Order& o) {
    return {&o, [](const void* p, ReachValue a, ReachValue b) -> bool {
              return static_cast<const Order*>(p)->better(a, b);
            }};
  }
};
}  // namespace detail

// A change point: from remaining bound k on (until the vertex's next change point), S(v, k) = edge.
struct ReachChangePoint {
  std::uint32_t k = 0;
  EdgeId edge;
};

class BoundedReachResult {
 public:
  BoundedReachResult();
  ~BoundedReachResult();
  BoundedReachResult(const BoundedReachResult&);
  BoundedReachResult(BoundedReachResult&&) noexcept;
  BoundedReachResult& operator=(const BoundedReachResult&);
  BoundedReachResult& operator=(BoundedReachResult&&) noexcept;

  std::uint32_t bound() const { return bound_; }
  std::uint32_t num_vertices() const { return static_cast<std::uint32_t>(value_.size()); }
  double prob(VertexId v) const { return value_[v.index()].prob; }  // Pr(v, n) at the bound n
  double cost(VertexId v) const { return value_[v.index()].cost; }  // C(v, n) at the bound n
  // S(v, k) for 0 <= k <= n: the edge to take at v when at most k moves remain. EdgeId::none() when
  // null (goal, passive vertex, or no edge better than giving up). Throws UsageError if
  // k > bound(). O(1) at k = n, otherwise O(#change points of v) (they are stored compressed).
  EdgeId choice(VertexId v, std::uint32_t k) const;
  EdgeId choice(VertexId v) const;
  // S(v, .) as change points, increasing in k; before the first one S(v, k) is null. Decoded on each
  // call (O(#change points of v)).
  std::vector<ReachChangePoint> change_points(VertexId v) const;
  std::size_t num_change_points() const { return num_changes_; }
  // Bytes taken by the stored change points (about one per change point, plus O(V)).
  std::size_t change_point_bytes() const;

  // Full history for vertices listed in BoundedReachOptions::record (UsageError otherwise).
  bool is_recorded(VertexId v) const;
  double prob(VertexId v, std::uint32_t k) const { return recorded(v, k).prob; }
  double cost(VertexId v, std::uint32_t k) const { return recorded(v, k).cost; }

  // Step statistics: how many vertices changed value at step k (index k-1), k = 1..n; empty unless
  // BoundedReachOptions::frontier_statistics.
  const std::vector<std::uint32_t>& frontier_sizes() const { return frontier_sizes_; }

  // A proved bound on the rounding error of every probability: |prob(v) - Pr*(v, n)| <= this, where
  // Pr* is the exact optimum for the model's numbers as stored (doubles). A priori: n steps, each
  // a sum of at most d products rounded to nearest (|error| <= n (d + 1) u / (1 - (d + 1) u) times
  // the largest probability sum of a vertex to the power n, u = 2^-53). Maximum and comparison
  // are exact, so the optimum's error is the recursion's.
  double prob_error_bound() const { return prob_error_bound_; }

 private:
  friend struct detail::ReachResultAccess;
  ReachValue recorded(VertexId v, std::uint32_t k) const;

  std::uint32_t bound_ = 0;
  std::vector<ReachValue> value_;
  std::vector<EdgeId> choice_at_bound_;
  // Change point i of v (in increasing k) is the varint (k_i - k_{i-1} - 1) * (deg(v) + 1) + slot
  // with k_0 = 0 and slot 0 for null, j + 1 for v's j-th out-edge: one byte when changes are close.
  std::vector<std::uint32_t> first_edge_;  // the graph's out-edge offsets
  std::shared_ptr<const detail::ChangeLog> changes_;
  std::size_t num_changes_ = 0;
  std::vector<VertexId> record_vertices_;  // sorted
  std::vector<ReachValue> record_values_;  // record_vertices_[i] at k: [k * record_vertices_.size() + i]
  std::vector<std::uint32_t> frontier_sizes_;
  double prob_error_bound_ = 0;
};

// The algorithm of §3.3, one bound at a time: init() sets k = 0, each step() computes k + 1 from k,
// on the per-vertex choice model. Only predecessors of states whose value changed at the previous
// step are recomputed (the frontier) unless the sweep is dense; a vertex's value at k is a function
// of its successors' values at k - 1. Memory is O(V) plus one record per change of a choice.
//
// Differences from the paper's pseudo code, each needed for Pr = Prob_S and C = Cost_S (Prop. 1):
// the first step recomputes every vertex (a passive vertex's cost grows even when no goal is near),
// and a recomputed active vertex re-evaluates its current edge against the new successor values
// instead of comparing with its stale value.
namespace detail {
// The non-template stepper behind BoundedReachSolver (src/solve/bounded_reachability.cpp).
struct ReachStepperDeleter {
  void operator()(ReachStepper* p) const;
};
using ReachStepperPtr = std::unique_ptr<ReachStepper, ReachStepperDeleter>;
ReachStepperPtr make_reach_stepper(const TestGraph& g, std::span<const VertexId> goals, ReachPreorderRef order,
                                   ReachSweep sweep);
void stepper_init(ReachStepper& s);
void stepper_step(ReachStepper& s);
void stepper_threads(ReachStepper& s, unsigned t);
std::uint32_t stepper_k(const ReachStepper& s);
ReachValue stepper_value(const ReachStepper& s, VertexId v);
EdgeId stepper_choice(const ReachStepper& s, VertexId v);
bool stepper_is_goal(const ReachStepper& s, VertexId v);
std::span<const VertexId> stepper_changed(const ReachStepper& s);
std::size_t stepper_num_changes(const ReachStepper& s);
BoundedReachResult stepper_take(ReachStepper& s);
}  // namespace detail

// The algorithm of §3.3, one bound at a time: init() sets k = 0, each step() computes k + 1 from k,
// on the per-vertex choice model. Only predecessors of states whose value changed at the previous
// step are recomputed (the frontier) unless the sweep is dense; a vertex's value at k is a function
// of its successors' values at k - 1. Memory is O(V) plus one record per change of a choice.
//
// Differences from the paper's pseudo code, each needed for Pr = Prob_S and C = Cost_S (Prop. 1):
// the first step recomputes every vertex (a passive vertex's cost grows even when no goal is near),
// and a recomputed active vertex re-evaluates its current edge against the new successor values
// instead of comparing with its stale value.
template <ReachPreorder Order = LexicographicOrder>
class BoundedReachSolver {
 public:
  // Throws UsageError for goal ids out of range.
  BoundedReachSolver(const TestGraph& g, std::span<const VertexId> goals, Order order = {},
                     ReachSweep sweep = ReachSweep::automatic)
      : order_(std::make_unique<Order>(order)),
        impl_(detail::make_reach_stepper(g, goals, detail::ReachPreorderRef::of(*order_), sweep)) {}

  void init() { detail::stepper_init(*impl_); }
  // Computes Pr, C and S at k + 1 from the values at k.
  void step() { detail::stepper_step(*impl_); }
  // Threads for dense steps (see BoundedReachOptions::threads; 0: hardware threads, at most 8).
  void set_threads(unsigned t) { detail::stepper_threads(*impl_, t); }

  std::uint32_t k() const { return detail::stepper_k(*impl_); }
  ReachValue value(VertexId v) const { return detail::stepper_value(*impl_, v); }
  double prob(VertexId v) const { return value(v).prob; }
  double cost(VertexId v) const { return value(v).cost; }
  EdgeId choice(VertexId v) const { return detail::stepper_choice(*impl_, v); }
  bool is_goal(VertexId v) const { return detail::stepper_is_goal(*impl_, v); }
  // Vertices whose value changed at the last step (the goals after init()).
  std::span<const VertexId> changed() const { return detail::stepper_changed(*impl_); }
  std::size_t num_change_points() const { return detail::stepper_num_changes(*impl_); }
  // The result at the current k; the solver is left in its initial state (call init() to reuse).
  BoundedReachResult take_result() { return detail::stepper_take(*impl_); }

 private:
  std::unique_ptr<Order> order_;  // on the heap: the stepper keeps a pointer to it
  detail::ReachStepperPtr impl_;
};

namespace detail {
// solve_bounded_reachability with a caller-supplied preorder (on the per-vertex model).
BoundedReachResult solve_bounded_reachability_with(const TestGraph& g, std::span<const VertexId> goals,
                                                   const BoundedReachOptions& options, ReachPreorderRef order);
}  // namespace detail

// Runs the solver up to options.bound with the preorder options.order. Throws UsageError
// for goal or record ids out of range.
BoundedReachResult solve_bounded_reachability(const TestGraph& g, std::span<const VertexId> goals,
                                              const BoundedReachOptions& options = {});

// The same with a caller-supplied preorder (see ReachPreorder; options.order is ignored).
template <ReachPreorder Order>
BoundedReachResult solve_bounded_reachability(const TestGraph& g, std::span<const VertexId> goals,
                                              const BoundedReachOptions& options, Order order) {
  return detail::solve_bounded_reachability_with(g, goals, options, detail::ReachPreorderRef::of(order));
}

}  // namespace playtest
