// Bounded reachability games (seed 000 §3): for a bound n, the strategy S(v,k), the winning
// probability Pr(v,k) and the worst-case path cost C(v,k) for k = 0..n, computed by the backward
// frontier algorithm of §3.3 and optimal (Theorem 1) for any acceptable preorder (Definition 1).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "playtest/error.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/choice_folding.hpp"
#include "playtest/solve/detail/change_log.hpp"
#include "playtest/solve/detail/huge_page_allocator.hpp"

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
  automatic,  // dense at the first step and whenever more than 1/16 of the vertices changed
  frontier,   // always the predecessors of the last step's changed vertices (after the first step)
  dense,      // always every vertex, in id order
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
  // vertex, every edge of an active vertex to such a choice or to a goal) is solved with its choice
  // vertices folded into their actions: the two interleaved halves of the recursion (even and odd
  // k: the states' values at k come from those at k - 2) then advance together, one pass over the
  // states per two steps, reading each successor's two values from one cache line. The result is
  // the same in every respect (values, change points, frontier sizes). automatic: for such MDPs of
  // at least 65536 vertices when no vertex is recorded. `sweep` does not apply: every step is dense.
  ChoiceFolding fold_choices = ChoiceFolding::automatic;
};

namespace detail {
class BoundedReachFolded;
}

// A change point: from remaining bound k on (until the vertex's next change point), S(v, k) = edge.
struct ReachChangePoint {
  std::uint32_t k = 0;
  EdgeId edge;
};

class BoundedReachResult {
 public:
  BoundedReachResult() = default;

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
  std::size_t change_point_bytes() const { return changes_.memory_bytes(); }

  // Full history for vertices listed in BoundedReachOptions::record (UsageError otherwise).
  bool is_recorded(VertexId v) const;
  double prob(VertexId v, std::uint32_t k) const { return recorded(v, k).prob; }
  double cost(VertexId v, std::uint32_t k) const { return recorded(v, k).cost; }

  // Step statistics: how many vertices changed value at step k (index k-1), k = 1..n.
  const std::vector<std::uint32_t>& frontier_sizes() const { return frontier_sizes_; }

 private:
  template <ReachPreorder Order>
  friend class BoundedReachSolver;
  friend class BoundedReachRecorder;
  friend class detail::BoundedReachFolded;
  ReachValue recorded(VertexId v, std::uint32_t k) const;

  // Calls f(k, edge) for v's change points in increasing k until f returns false.
  template <class F>
  void for_each_change(std::uint32_t v, F f) const {
    const std::uint32_t first = first_edge_[v], slots = first_edge_[v + 1] - first + 1;
    std::uint64_t k = 0;
    changes_.for_each(v, [&](std::uint64_t x) {
      k += x / slots + 1;
      const auto slot = static_cast<std::uint32_t>(x % slots);
      return f(static_cast<std::uint32_t>(k), slot == 0 ? EdgeId::none() : EdgeId{first + slot - 1});
    });
  }

  std::uint32_t bound_ = 0;
  std::vector<ReachValue> value_;
  std::vector<EdgeId> choice_at_bound_;
  // Change point i of v (in increasing k) is the varint (k_i - k_{i-1} - 1) * (deg(v) + 1) + slot
  // with k_0 = 0 and slot 0 for null, j + 1 for v's j-th out-edge: one byte when changes are close.
  std::vector<std::uint32_t> first_edge_;  // the graph's out-edge offsets
  detail::ChangeLog changes_;
  std::size_t num_changes_ = 0;
  std::vector<VertexId> record_vertices_;  // sorted
  std::vector<ReachValue> record_values_;  // record_vertices_[i] at k: [k * record_vertices_.size() + i]
  std::vector<std::uint32_t> frontier_sizes_;
};

// The algorithm of §3.3, one bound at a time: init() sets k = 0, each step() computes k + 1 from k.
// Only predecessors of vertices whose value changed at the previous step are recomputed (the
// frontier); a vertex's value at k is a function of its successors' values at k - 1. Memory is O(V)
// plus one record per change of a vertex's choice.
//
// Differences from the paper's pseudo code, each needed for Pr = Prob_S and C = Cost_S (Prop. 1):
// the first step recomputes every vertex (a passive vertex's cost grows even when no goal is near),
// and a recomputed active vertex re-evaluates its current edge against the new successor values
// instead of comparing with its stale value.
template <ReachPreorder Order = LexicographicOrder>
class BoundedReachSolver {
 public:
  BoundedReachSolver(const TestGraph& g, std::span<const VertexId> goals, Order order = {},
                     ReachSweep sweep = ReachSweep::automatic)
      : g_(&g), order_(order), sweep_(sweep), goal_(g.num_vertices(), 0) {
    for (VertexId v : goals) {
      if (v.index() >= g.num_vertices()) throw UsageError("goals", "BoundedReachSolver: goal vertex id out of range");
      goal_[v.index()] = 1;
    }
    init();
  }

  void init() {
    const std::uint32_t n = g_->num_vertices();
    k_ = 0;
    val_.assign(n, ReachValue{});
    choice_.assign(n, EdgeId::none());
    stamp_.assign(n, 0);
    last_change_.assign(n, 0);
    changed_.clear();
    for (std::uint32_t v = 0; v < n; ++v)
      if (goal_[v]) {
        val_[v].prob = 1.0;
        changed_.push_back(VertexId{v});
      }
    log_.reset(n);
    num_changes_ = 0;
    frontier_sizes_.clear();
  }

  // Computes Pr, C and S at k + 1 from the values at k. Sparse steps recompute the predecessors of
  // the last frontier; when the frontier is large (and at the first step, where every passive
  // vertex's cost changes) a dense step sweeps all vertices in order, which is cheaper than
  // collecting predecessors through the in-edges.
  void step() {
    const std::uint32_t next = k_ + 1;
    const std::uint32_t n = g_->num_vertices();
    const bool dense =
        k_ == 0 || sweep_ == ReachSweep::dense || (sweep_ == ReachSweep::automatic && changed_.size() > n / 16);
    if (dense) {
      next_val_.resize(n);
      changed_.clear();
      // Each vertex's new value depends only on the old values, so blocks of vertices can be
      // computed in parallel; the choice changes are then logged, and the changed vertices
      // listed, block by block in id order, exactly as one thread would.
      const unsigned t = std::min<unsigned>(threads_, std::max<std::uint32_t>(1, n / min_vertices_per_thread));
      if (t <= 1) {
        dense_range(0, n, changed_, nullptr);
      } else {
        parts_.resize(t);
        auto lo = [&](unsigned i) { return static_cast<std::uint32_t>(std::uint64_t{n} * i / t); };
        {
          std::vector<std::jthread> workers;
          for (unsigned i = 1; i < t; ++i)
            workers.emplace_back([&, i] { dense_range(lo(i), lo(i + 1), parts_[i].changed, &parts_[i].choices); });
          dense_range(lo(0), lo(1), parts_[0].changed, &parts_[0].choices);
        }
        for (Part& part : parts_) {
          for (auto [u, c] : part.choices) log_change(u, next, c);
          changed_.insert(changed_.end(), part.changed.begin(), part.changed.end());
        }
      }
      val_.swap(next_val_);
    } else {
      cand_.clear();
      for (VertexId v : changed_)
        for (EdgeId e : g_->in_edges(v)) {
          const VertexId u = g_->source(e);
          if (goal_[u.index()] || stamp_[u.index()] == next) continue;
          stamp_[u.index()] = next;
          cand_.push_back(u);
        }
      new_value_.resize(cand_.size());
      new_choice_.resize(cand_.size());
      for (std::size_t i = 0; i < cand_.size(); ++i) new_value_[i] = compute(cand_[i].value, new_choice_[i]);
      changed_.clear();
      for (std::size_t i = 0; i < cand_.size(); ++i) {
        const std::uint32_t u = cand_[i].value;
        if (new_value_[i] != val_[u]) {
          val_[u] = new_value_[i];
          changed_.push_back(cand_[i]);
        }
        if (new_choice_[i] != choice_[u]) log_change(u, next, new_choice_[i]);
      }
    }
    frontier_sizes_.push_back(static_cast<std::uint32_t>(changed_.size()));
    k_ = next;
  }

  // Threads for dense steps (see BoundedReachOptions::threads; 0: hardware threads, at most 8).
  void set_threads(unsigned t) { threads_ = t != 0 ? t : std::clamp(std::thread::hardware_concurrency(), 1u, 8u); }

  std::uint32_t k() const { return k_; }
  double prob(VertexId v) const { return val_[v.index()].prob; }
  double cost(VertexId v) const { return val_[v.index()].cost; }
  ReachValue value(VertexId v) const { return val_[v.index()]; }
  EdgeId choice(VertexId v) const { return choice_[v.index()]; }
  bool is_goal(VertexId v) const { return goal_[v.index()] != 0; }
  // Vertices whose value changed at the last step (the goals after init()).
  std::span<const VertexId> changed() const { return changed_; }
  std::size_t num_change_points() const { return num_changes_; }

  // The result at the current k; the solver is left in its initial state (call init() to reuse).
  BoundedReachResult take_result() {
    BoundedReachResult r;
    const std::uint32_t n = g_->num_vertices();
    r.bound_ = k_;
    const auto offsets = g_->out_offsets();
    r.first_edge_.assign(offsets.begin(), offsets.begin() + n + 1);
    log_.finish_appending();
    r.changes_ = std::move(log_);
    r.num_changes_ = num_changes_;
    r.choice_at_bound_ = std::move(choice_);
    r.value_.assign(val_.begin(), val_.end());
    r.frontier_sizes_ = std::move(frontier_sizes_);
    log_ = {};
    init();
    return r;
  }

 private:
  // The value of non-goal vertex u at k + 1 (from val_ at k) and its choice there.
  ReachValue compute(std::uint32_t u, EdgeId& choice) const {
    const auto targets = g_->targets();
    const auto costs = g_->costs();
    const auto offsets = g_->out_offsets();
    const std::uint32_t b = offsets[u], end = offsets[u + 1];
    if (g_->is_passive(VertexId{u})) {
      const auto probs = g_->probabilities();
      double p = 0.0, c = 0.0;
      for (std::uint32_t e = b; e < end; ++e) {
        const ReachValue& y = val_[targets[e].index()];
        p += probs[e] * y.prob;
        c = std::max(c, costs[e] + y.cost);
      }
      choice = EdgeId::none();
      return {p, c};
    }
    // Keep the current choice unless an option is strictly better (first such edge wins ties).
    EdgeId best_edge = choice_[u];
    ReachValue best{};
    if (!best_edge.is_none()) {
      const ReachValue& y = val_[targets[best_edge.index()].index()];
      best = {y.prob, costs[best_edge.index()] + y.cost};
    }
    for (std::uint32_t e = b; e < end; ++e) {
      const ReachValue& y = val_[targets[e].index()];
      const ReachValue x{y.prob, costs[e] + y.cost};
      const bool take = order_.better(x, best);
      best.prob = take ? x.prob : best.prob;
      best.cost = take ? x.cost : best.cost;
      best_edge = take ? EdgeId{e} : best_edge;
    }
    if (!best_edge.is_none() && order_.better(ReachValue{}, best)) {
      best = ReachValue{};
      best_edge = EdgeId::none();
    }
    choice = best_edge;
    return best;
  }

  // The dense step on vertices [lo, hi): new values into next_val_, changed vertices into
  // `changed`; choice changes logged at once, or, when `choices` is given, collected there.
  void dense_range(std::uint32_t lo, std::uint32_t hi, std::vector<VertexId>& changed,
                   std::vector<std::pair<std::uint32_t, EdgeId>>* choices) {
    const std::uint32_t next = k_ + 1;
    if (choices) {
      changed.clear();
      choices->clear();
    }
    // The sweep reads the successors' values at random; prefetching them a few dozen edges ahead
    // overlaps the cache misses that otherwise dominate the step.
    const auto targets = g_->targets();
    const auto offsets = g_->out_offsets();
    const std::uint32_t num_edges = static_cast<std::uint32_t>(targets.size());
    const auto probs = g_->probabilities();
    for (std::uint32_t u = lo; u < hi; ++u) {
      const std::uint32_t ahead = std::min(offsets[u] + prefetch_distance, num_edges),
                          ahead_end = std::min(offsets[u + 1] + prefetch_distance, num_edges);
      for (std::uint32_t e = ahead; e < ahead_end; ++e) __builtin_prefetch(&val_[targets[e].index()]);
      // Only passive vertices read their edges' probabilities, a pattern the hardware prefetcher misses.
      if (ahead < ahead_end) __builtin_prefetch(&probs[ahead_end - 1]);
      if (goal_[u]) {
        next_val_[u] = val_[u];
        continue;
      }
      EdgeId c;
      next_val_[u] = compute(u, c);
      if (c != choice_[u]) {
        if (choices)
          choices->emplace_back(u, c);
        else
          log_change(u, next, c);
      }
      if (next_val_[u] != val_[u]) changed.push_back(VertexId{u});
    }
  }

  static constexpr std::uint32_t min_vertices_per_thread = 1u << 15;
  static constexpr std::uint32_t prefetch_distance = 64;  // edges
  // Records S(u, k) = c (c differs from the current choice) in the compact form BoundedReachResult reads.
  void log_change(std::uint32_t u, std::uint32_t k, EdgeId c) {
    choice_[u] = c;
    const auto offsets = g_->out_offsets();
    const std::uint64_t slots = offsets[u + 1] - offsets[u] + 1;
    const std::uint32_t slot = c.is_none() ? 0 : c.value - offsets[u] + 1;
    log_.append(u, static_cast<std::uint64_t>(k - last_change_[u] - 1) * slots + slot);
    last_change_[u] = k;
    ++num_changes_;
  }
  const TestGraph* g_;
  Order order_;
  ReachSweep sweep_;
  std::vector<std::uint8_t> goal_;
  std::uint32_t k_ = 0;
  std::vector<ReachValue, detail::HugePageAllocator<ReachValue>> val_, next_val_;
  std::vector<EdgeId> choice_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint32_t> last_change_;  // k of each vertex's last change point (0: none yet)
  std::vector<VertexId> changed_, cand_;
  std::vector<ReachValue> new_value_;
  std::vector<EdgeId> new_choice_;
  detail::ChangeLog log_;
  std::size_t num_changes_ = 0;
  unsigned threads_ = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  struct Part {
    std::vector<VertexId> changed;
    std::vector<std::pair<std::uint32_t, EdgeId>> choices;
  };
  std::vector<Part> parts_;
  std::vector<std::uint32_t> frontier_sizes_;
};

// Keeps Pr(v, k), C(v, k) for a few vertices while a solver steps (BoundedReachOptions::record).
class BoundedReachRecorder {
 public:
  // Throws UsageError for ids out of range.
  BoundedReachRecorder(const TestGraph& g, std::vector<VertexId> vertices, std::uint32_t bound);
  template <class Solver>
  void capture(const Solver& s) {
    for (VertexId v : vertices_) values_.push_back(s.value(v));
  }
  // Moves the recorded values into `r` (whose bound must be the one given at construction).
  void attach_to(BoundedReachResult& r);

 private:
  std::vector<VertexId> vertices_;
  std::vector<ReachValue> values_;  // k-major while capturing
  std::uint32_t bound_;
};

extern template class BoundedReachSolver<LexicographicOrder>;
extern template class BoundedReachSolver<ProbabilityOrder>;

// Runs the solver up to options.bound with the preorder options.order. Throws UsageError
// for goal or record ids out of range.
BoundedReachResult solve_bounded_reachability(const TestGraph& g, std::span<const VertexId> goals,
                                              const BoundedReachOptions& options = {});

// The same with a caller-supplied preorder (see ReachPreorder; options.order is ignored).
template <ReachPreorder Order>
BoundedReachResult solve_bounded_reachability(const TestGraph& g, std::span<const VertexId> goals,
                                              const BoundedReachOptions& options, Order order) {
  BoundedReachRecorder recorder(g, options.record, options.bound);
  BoundedReachSolver<Order> solver(g, goals, order, options.sweep);
  solver.set_threads(options.threads);
  recorder.capture(solver);
  for (std::uint32_t k = 0; k < options.bound; ++k) {
    solver.step();
    recorder.capture(solver);
    if (options.on_step) options.on_step(k + 1, options.bound);
  }
  BoundedReachResult r = solver.take_result();
  recorder.attach_to(r);
  return r;
}

}  // namespace playtest
