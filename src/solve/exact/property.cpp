#include "playtest/solve/exact/property.hpp"

#include <fmt/format.h>

#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/exact/linear.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "solve/core/qualitative.hpp"
#include "solve/core/reach_sweep.hpp"
#include "solve/exact/property_paths.hpp"

namespace playtest {

namespace {

using exact::Rational;
using Clock = std::chrono::steady_clock;
using detail::QualStatus;
constexpr std::uint32_t no_target = std::numeric_limits<std::uint32_t>::max();

// Thrown inside when the exact budget runs out; turned into UsageError or "not certified".
struct BudgetExceeded {};

struct Budget {
  Clock::time_point deadline;
  bool expired() const { return Clock::now() > deadline; }
  void check() const {
    if (expired()) throw BudgetExceeded{};
  }
};

// Arithmetic that differs between double and Rational.
template <class T>
struct Arith;

template <>
struct Arith<double> {
  static bool better(bool max, double a, double b, double tol) {
    const double margin = tol * std::max(1.0, std::abs(b));
    return max ? a > b + margin : a < b - margin;
  }
  static bool positive(double x) { return x > 0; }
  static double to_d(double x) { return x; }
};

template <>
struct Arith<Rational> {
  static bool better(bool max, const Rational& a, const Rational& b, double) { return max ? a > b : a < b; }
  static bool positive(const Rational& x) { return sgn(x) > 0; }
  static double to_d(const Rational& x) { return exact::to_double(x); }
};

// The game in "choice form": every vertex has choices (an active vertex one per out-edge, a
// passive vertex one), each with a reward and successors; a successor is a vertex or a constant
// (a value known in advance: the lower budget levels of a reward bound).
enum class State : std::uint8_t { free, fixed, infinite };

template <class T>
struct Form {
  std::uint32_t n = 0;
  std::vector<State> state;
  std::vector<T> fixed;  // the value of fixed vertices
  std::vector<std::uint8_t> target;
  std::vector<std::uint32_t> cbeg;  // n + 1
  std::vector<EdgeId> cedge;        // per choice: the edge of an active vertex's choice
  std::vector<T> creward;
  std::vector<std::uint32_t> sbeg;  // choices + 1
  std::vector<std::uint32_t> starget;
  std::vector<T> sprob, sconst;
  std::vector<std::uint8_t> sclass;  // per successor: a constant's qualitative class (QualStatus)
  // Per vertex, after solve_unbounded (P): one / zero where the value is exactly 1 / 0 by the graph
  // algorithms, mid where it lies strictly between.
  std::vector<QualStatus> qclass;
  std::vector<std::uint8_t> active;

  std::uint32_t choices(std::uint32_t v) const { return cbeg[v + 1] - cbeg[v]; }
};

// Numbers of the graph in T: per edge probability (normalized per passive vertex) and cost.
template <class T>
struct Numbers {
  std::vector<T> prob, cost;
};

Numbers<double> numbers_double(const TestGraph& g) {
  Numbers<double> x;
  x.prob.assign(g.probabilities().begin(), g.probabilities().end());
  x.cost.assign(g.costs().begin(), g.costs().end());
  return x;
}

Numbers<Rational> numbers_rational(const TestGraph& g) {
  Numbers<Rational> x;
  exact::ExactNumbers e = exact::exact_numbers(g);
  x.prob = std::move(e.prob);
  x.cost = std::move(e.cost);
  return x;
}

// The level-b form of a query: edges with cost c > 0 lead to the constant lower[b - c](t) when a
// reward bound is given (lower == nullptr: every successor is internal).
template <class T>
Form<T> build_form(const TestGraph& g, const Numbers<T>& num, const PropertyQuery& q,
                   const std::vector<std::uint8_t>& is_target, const std::vector<std::uint8_t>& is_allowed,
                   const std::vector<std::vector<T>>* levels, const std::vector<std::vector<QualStatus>>* level_class,
                   std::uint64_t b) {
  Form<T> f;
  const std::uint32_t n = g.num_vertices();
  f.n = n;
  f.state.assign(n, State::free);
  f.fixed.assign(n, T(0));
  f.target = is_target;
  f.active.assign(n, 0);
  f.cbeg.assign(1, 0);
  f.sbeg.assign(1, 0);
  const bool reward = q.kind == PropertyKind::reward;
  auto add_succ = [&](VertexId t, const T& p, const T& cost) {
    if (levels != nullptr && cost != 0) {
      // A reward bound: this edge spends `cost` of the budget b.
      const T zero(0);
      const double c = Arith<T>::to_d(cost);
      f.starget.push_back(no_target);
      f.sprob.push_back(p);
      if (c > static_cast<double>(b)) {
        f.sconst.push_back(zero);
        f.sclass.push_back(static_cast<std::uint8_t>(QualStatus::zero));
      } else {
        const std::uint64_t lower = b - static_cast<std::uint64_t>(c);
        f.sconst.push_back((*levels)[lower][t.index()]);
        f.sclass.push_back(static_cast<std::uint8_t>((*level_class)[lower][t.index()]));
      }
      return;
    }
    f.starget.push_back(t.value);
    f.sprob.push_back(p);
    f.sconst.push_back(T(0));
    f.sclass.push_back(static_cast<std::uint8_t>(QualStatus::free));
  };
  for (VertexId v : g.vertices()) {
    if (is_target[v.index()]) {
      f.state[v.index()] = State::fixed;
      f.fixed[v.index()] = reward ? T(0) : T(1);
    } else if (!is_allowed[v.index()]) {
      f.state[v.index()] = State::fixed;  // until: a vertex off the left side is lost
      f.fixed[v.index()] = T(0);
    }
    if (f.state[v.index()] == State::free) {
      if (g.is_active(v)) {
        f.active[v.index()] = 1;
        for (EdgeId e : g.out_edges(v)) {
          f.cedge.push_back(e);
          f.creward.push_back(reward ? num.cost[e.index()] : T(0));
          add_succ(g.target(e), T(1), num.cost[e.index()]);
          f.sbeg.push_back(static_cast<std::uint32_t>(f.starget.size()));
        }
      } else {
        T r(0);
        for (EdgeId e : g.out_edges(v)) {
          if (reward) r += num.prob[e.index()] * num.cost[e.index()];
          add_succ(g.target(e), num.prob[e.index()], num.cost[e.index()]);
        }
        f.cedge.push_back(EdgeId::none());
        f.creward.push_back(r);
        f.sbeg.push_back(static_cast<std::uint32_t>(f.starget.size()));
      }
    }
    f.cbeg.push_back(static_cast<std::uint32_t>(f.cedge.size()));
  }
  return f;
}

// The level form as a solve/core qualitative game: its vertices, then three absorbing sinks for the
// constant successors (a lower reward level's value), by the qualitative class of that value: n
// (one), n + 1 (zero), n + 2 (strictly between). A fixed vertex is one or zero (P: its value 1 or 0;
// R: a target, one).
template <class T>
class FormGame {
 public:
  FormGame(const Form<T>& f, bool reward) : f_(f), status_(std::size_t{f.n} + 3, QualStatus::free) {
    const std::uint32_t n = f.n;
    for (std::uint32_t v = 0; v < n; ++v)
      if (f.state[v] == State::fixed)
        status_[v] = reward || f.fixed[v] == T(1) ? QualStatus::one
                     : f.fixed[v] == T(0)         ? QualStatus::zero
                                                  : QualStatus::mid;
    status_[n] = QualStatus::one;
    status_[n + 1] = QualStatus::zero;
    status_[n + 2] = QualStatus::mid;
    const std::uint32_t num_choices = f.cbeg[n];
    cstate_.resize(num_choices);
    for (std::uint32_t v = 0; v < n; ++v)
      for (std::uint32_t c = f.cbeg[v]; c < f.cbeg[v + 1]; ++c) cstate_[c] = v;
    pbeg_.assign(std::size_t{n} + 4, 0);
    for (std::uint32_t s = 0; s < f.sbeg[num_choices]; ++s) ++pbeg_[succ(s) + 1];
    for (std::uint32_t v = 0; v < n + 3; ++v) pbeg_[v + 1] += pbeg_[v];
    plist_.resize(pbeg_[n + 3]);
    std::vector<std::uint32_t> pos(pbeg_.begin(), pbeg_.end() - 1);
    for (std::uint32_t c = 0; c < num_choices; ++c)
      for (std::uint32_t s = f.sbeg[c]; s < f.sbeg[c + 1]; ++s) plist_[pos[succ(s)]++] = {c, s};
  }
  std::uint32_t num_states() const { return f_.n + 3; }
  std::uint32_t num_choice_ids() const { return f_.cbeg[f_.n]; }
  QualStatus status(std::uint32_t s) const { return status_[s]; }
  std::pair<std::uint32_t, std::uint32_t> choices(std::uint32_t s) const {
    if (s >= f_.n) return {0, 0};
    return {f_.cbeg[s], f_.cbeg[s + 1]};
  }
  std::uint32_t choice_state(std::uint32_t c) const { return cstate_[c]; }
  template <class F>
  void for_entries(std::uint32_t c, F&& fn) const {
    for (std::uint32_t s = f_.sbeg[c]; s < f_.sbeg[c + 1]; ++s) fn(succ(s), s);
  }
  template <class F>
  void for_preds(std::uint32_t v, F&& fn) const {
    for (std::uint32_t i = pbeg_[v]; i < pbeg_[v + 1]; ++i)
      fn(cstate_[plist_[i].first], plist_[i].first, plist_[i].second);
  }

 private:
  std::uint32_t succ(std::uint32_t s) const {
    const std::uint32_t t = f_.starget[s];
    if (t != no_target) return t;
    switch (static_cast<QualStatus>(f_.sclass[s])) {
      case QualStatus::one:
        return f_.n;
      case QualStatus::zero:
        return f_.n + 1;
      default:
        return f_.n + 2;
    }
  }
  const Form<T>& f_;
  std::vector<QualStatus> status_;
  std::vector<std::uint32_t> cstate_, pbeg_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> plist_;  // (choice, entry)
};

// Solves the strategy's system on the free vertices: x_v = r_c + sum p * (x_t | fixed | const).
// Returns false when the budget ran out (rational) or the system was singular.
bool evaluate(const Form<double>& f, const std::vector<std::uint32_t>& strategy, std::vector<double>& x,
              const Budget&) {
  std::vector<std::int32_t> index(f.n, -1);
  std::int32_t m = 0;
  for (std::uint32_t v = 0; v < f.n; ++v)
    if (f.state[v] == State::free) index[v] = m++;
  using SpMat = Eigen::SparseMatrix<double>;
  std::vector<Eigen::Triplet<double>> trip;
  Eigen::VectorXd b = Eigen::VectorXd::Zero(m);
  for (std::uint32_t v = 0; v < f.n; ++v) {
    if (index[v] < 0) continue;
    const std::int32_t i = index[v];
    trip.emplace_back(i, i, 1.0);
    const std::uint32_t c = strategy[v];
    b[i] += f.creward[c];
    for (std::uint32_t s = f.sbeg[c]; s < f.sbeg[c + 1]; ++s) {
      const std::uint32_t t = f.starget[s];
      if (t == no_target)
        b[i] += f.sprob[s] * f.sconst[s];
      else if (index[t] >= 0)
        trip.emplace_back(i, index[t], -f.sprob[s]);
      else
        b[i] += f.sprob[s] * f.fixed[t];
    }
  }
  if (m > 0) {
    SpMat a(m, m);
    a.setFromTriplets(trip.begin(), trip.end());
    Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
    lu.compute(a);
    if (lu.info() != Eigen::Success) return false;
    const Eigen::VectorXd y = lu.solve(b);
    if (lu.info() != Eigen::Success) return false;
    for (std::uint32_t v = 0; v < f.n; ++v)
      if (index[v] >= 0) x[v] = y[index[v]];
  }
  for (std::uint32_t v = 0; v < f.n; ++v)
    if (f.state[v] == State::fixed) x[v] = f.fixed[v];
  return true;
}

bool evaluate(const Form<Rational>& f, const std::vector<std::uint32_t>& strategy, std::vector<Rational>& x,
              const Budget& budget, std::uint64_t* max_bits) {
  std::vector<std::uint32_t> index(f.n, no_target);
  std::uint32_t m = 0;
  for (std::uint32_t v = 0; v < f.n; ++v)
    if (f.state[v] == State::free) index[v] = m++;
  exact::SparseSystem sys(m);
  for (std::uint32_t v = 0; v < f.n; ++v) {
    if (index[v] == no_target) continue;
    const std::uint32_t i = index[v];
    sys.add(i, i, Rational(1));
    const std::uint32_t c = strategy[v];
    Rational b = f.creward[c];
    for (std::uint32_t s = f.sbeg[c]; s < f.sbeg[c + 1]; ++s) {
      const std::uint32_t t = f.starget[s];
      if (t == no_target)
        b += f.sprob[s] * f.sconst[s];
      else if (index[t] != no_target)
        sys.add(i, index[t], -f.sprob[s]);
      else
        b += f.sprob[s] * f.fixed[t];
    }
    sys.add_rhs(i, b);
  }
  exact::LinearSolution sol = exact::solve(std::move(sys), [&] { return budget.expired(); });
  if (sol.status == exact::LinearSolution::Status::cancelled) throw BudgetExceeded{};
  if (sol.status != exact::LinearSolution::Status::solved) return false;
  if (max_bits) *max_bits = std::max(*max_bits, sol.stats.max_bits);
  for (std::uint32_t v = 0; v < f.n; ++v) {
    if (index[v] != no_target)
      x[v] = std::move(sol.x[index[v]]);
    else if (f.state[v] == State::fixed)
      x[v] = f.fixed[v];
  }
  return true;
}

template <class T>
T choice_value(const Form<T>& f, std::uint32_t c, const std::vector<T>& x) {
  T q = f.creward[c];
  for (std::uint32_t s = f.sbeg[c]; s < f.sbeg[c + 1]; ++s) {
    const std::uint32_t t = f.starget[s];
    q += f.sprob[s] * (t == no_target ? f.sconst[s] : x[t]);
  }
  return q;
}

struct PiStats {
  std::uint32_t improvements = 0, evaluations = 0;
  std::uint64_t max_bits = 0;
  // double: a strategy's linear system was singular in floating point (probabilities below the
  // resolution of double next to 1, e.g. 1e-17 beside 1): the free vertices' values are unknown.
  bool numeric_failure = false;
};

// Policy iteration on the free vertices from `strategy` (a choice index per free vertex with
// choices, one that reaches the fixed vertices almost surely). `usable[c]`: the choices that may
// be taken (Rmin: those that stay finite). Leaves the optimal values in x.
template <class T>
bool policy_iteration(const Form<T>& f, bool max, const std::vector<std::uint8_t>& usable,
                      std::vector<std::uint32_t>& strategy, std::vector<T>& x, const PropertyOptions& o,
                      const Budget* budget, PiStats& st) {
  x.assign(f.n, T(0));
  const Budget no_budget{Clock::time_point::max()};
  const Budget& bud = budget ? *budget : no_budget;
  for (std::uint32_t round = 0;; ++round) {
    bool ok;
    if constexpr (std::is_same_v<T, Rational>)
      ok = evaluate(f, strategy, x, bud, &st.max_bits);
    else
      ok = evaluate(f, strategy, x, bud);
    ++st.evaluations;
    if (!ok) return false;  // the strategy does not reach the fixed vertices almost surely
    bool changed = false;
    for (std::uint32_t v = 0; v < f.n; ++v) {
      if (f.state[v] != State::free || !f.active[v] || f.choices(v) < 2) continue;
      std::uint32_t best = strategy[v];
      T best_q = choice_value(f, best, x);
      for (std::uint32_t c = f.cbeg[v]; c < f.cbeg[v + 1]; ++c) {
        if (c == best || !usable[c]) continue;
        T q = choice_value(f, c, x);
        if (Arith<T>::better(max, q, best_q, o.improvement_tolerance)) {
          best = c;
          best_q = std::move(q);
        }
      }
      if (best != strategy[v]) {
        strategy[v] = best;
        changed = true;
      }
    }
    if (!changed) return true;
    ++st.improvements;
    if (budget) budget->check();
    if (round + 1 >= o.max_iterations)
      throw InternalError("solve_property: policy iteration did not converge within max_iterations");
  }
}

// One unbounded problem (a level of a reward bound, or the whole query): qualitative
// precomputation, then policy iteration. `warm`: a strategy to start from (choice per vertex, or
// empty). Returns the values (+infinity marked by State::infinite in f) and the strategy.
template <class T>
void solve_unbounded(Form<T>& f, const PropertyQuery& q, const PropertyOptions& o, const Budget* budget,
                     const std::vector<std::uint32_t>* warm, std::vector<T>& x, std::vector<std::uint32_t>& strategy,
                     PiStats& st) {
  const bool max = q.direction == PropertyDirection::max;
  const std::uint32_t num_choices = f.cbeg[f.n];
  std::vector<std::uint8_t> usable(num_choices, 1);
  strategy.assign(f.n, no_target);
  const bool reward = q.kind == PropertyKind::reward;
  // The qualitative precomputation on the graph (solve/core/qualitative.hpp), exact in either
  // arithmetic: where the value is 0 or 1 (P), or infinite (R).
  const FormGame<T> game(f, reward);
  if (!reward) {
    std::vector<std::uint32_t> choice, attractor;
    const auto positive = detail::positive_region(game, !max, &choice);
    const auto one = max ? detail::prob1_exists(game, &attractor) : detail::prob1_every(game, positive);
    f.qclass.assign(f.n, QualStatus::mid);
    for (std::uint32_t v = 0; v < f.n; ++v) {
      if (f.state[v] != State::free) {
        f.qclass[v] = game.status(v) == QualStatus::one    ? QualStatus::one
                      : game.status(v) == QualStatus::zero ? QualStatus::zero
                                                           : QualStatus::mid;
        continue;
      }
      if (!positive[v]) {
        // Pmax: every choice is lost; Pmin: the choice that keeps the probability 0.
        f.state[v] = State::fixed, f.fixed[v] = T(0), f.qclass[v] = QualStatus::zero;
        strategy[v] = max ? no_target : choice[v];
      } else if (one[v]) {
        // Pmax: the almost-sure attractor's choice; Pmin: every choice reaches the targets.
        f.state[v] = State::fixed, f.fixed[v] = T(1), f.qclass[v] = QualStatus::one;
        strategy[v] = max ? attractor[v] : f.cbeg[v];
      } else {
        // Pmax: the attractor towards a positive value (it reaches the fixed vertices almost
        // surely); Pmin: any choice does, no free vertex being able to stay among the free ones.
        strategy[v] = max ? choice[v] : f.cbeg[v];
      }
    }
    for (std::uint32_t v = 0; v < f.n; ++v)
      if (strategy[v] != no_target && (strategy[v] < f.cbeg[v] || strategy[v] >= f.cbeg[v + 1]))
        strategy[v] = no_target;
  } else if (max) {
    // Rmax is finite where every scheduler reaches a target almost surely (prob1A).
    const auto positive = detail::positive_region(game, true, nullptr);
    const auto finite = detail::prob1_every(game, positive);
    for (std::uint32_t v = 0; v < f.n; ++v) {
      if (f.state[v] != State::free) continue;
      if (!finite[v])
        f.state[v] = State::infinite;
      else
        strategy[v] = f.cbeg[v];
    }
  } else {
    // Rmin is finite where some scheduler reaches a target almost surely (prob1E).
    std::vector<std::uint32_t> attractor;
    const auto region = detail::prob1_exists(game, &attractor);
    for (std::uint32_t v = 0; v < f.n; ++v) {
      if (f.state[v] != State::free) continue;
      if (!region[v]) {
        f.state[v] = State::infinite;
      } else {
        strategy[v] = attractor[v];
      }
    }
    for (std::uint32_t v = 0; v < f.n; ++v)
      for (std::uint32_t c = f.cbeg[v]; c < f.cbeg[v + 1]; ++c)
        for (std::uint32_t s = f.sbeg[c]; s < f.sbeg[c + 1]; ++s) {
          const std::uint32_t t = f.starget[s];
          if (t == no_target || f.state[t] == State::infinite) usable[c] = 0;
        }
  }
  // A warm start replaces the initial strategy where it is usable; strict improvement from it is
  // then sound only when it, too, reaches the fixed vertices almost surely. A double-derived
  // strategy is such a one when it came out of the same precomputation and policy iteration
  // (which preserves that property); the qualitative sets are the same in both arithmetics.
  // A warm start whose system is singular (it does not reach them in this arithmetic: a value that
  // underflowed in double) is dropped for the cold start.
  if (warm != nullptr) {
    std::vector<std::uint32_t> from_warm = strategy;
    for (std::uint32_t v = 0; v < f.n; ++v)
      if (f.state[v] == State::free && (*warm)[v] != no_target && (*warm)[v] >= f.cbeg[v] &&
          (*warm)[v] < f.cbeg[v + 1] && usable[(*warm)[v]])
        from_warm[v] = (*warm)[v];
    if (policy_iteration(f, max, usable, from_warm, x, o, budget, st)) {
      strategy = std::move(from_warm);
      return;
    }
  }
  if (!policy_iteration(f, max, usable, strategy, x, o, budget, st)) {
    if constexpr (std::is_same_v<T, double>) {
      st.numeric_failure = true;
      for (std::uint32_t v = 0; v < f.n; ++v)
        x[v] = f.state[v] == State::fixed ? f.fixed[v] : std::numeric_limits<double>::quiet_NaN();
      return;
    }
    throw InternalError("solve_property: the initial strategy's linear system is singular");
  }
}

template <class T>
struct Solved {
  std::vector<T> x;
  std::vector<State> state;
  std::vector<EdgeId> strategy;                              // per vertex
  std::vector<std::vector<std::uint32_t>> level_strategies;  // reward-bounded: per level (choice indices)
  std::vector<std::uint32_t> choice_strategy;                // unbounded: choice indices
  std::vector<QualStatus> qclass;                            // P: per vertex, one / zero / mid (between)
  PiStats st;
  std::uint32_t levels = 0;
};

template <class T>
std::vector<EdgeId> to_edges(const Form<T>& f, const std::vector<std::uint32_t>& strategy) {
  std::vector<EdgeId> e(f.n, EdgeId::none());
  for (std::uint32_t v = 0; v < f.n; ++v)
    if (f.active[v] && strategy[v] != no_target) e[v] = f.cedge[strategy[v]];
  return e;
}

// Step-bounded P: where the value is exactly 0 or 1, by breadth-first searches on the graph
// (solve/core's step_distance): positive within k moves under the best (max) or worst (min)
// scheduler, and surely (= with probability 1, the horizon being finite) within k moves.
std::vector<QualStatus> step_bounded_classes(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                             const std::vector<std::uint8_t>& is_allowed, bool max, std::uint64_t k) {
  const std::vector<QualStatus> status = detail::graph_status(g, is_target, is_allowed);
  const detail::GraphGame game(g, status);
  const auto positive = detail::step_distance(game, !max, false, k);
  const auto sure = detail::step_distance(game, !max, true, k);
  std::vector<QualStatus> out(g.num_vertices(), QualStatus::mid);
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
    out[v] = sure[v] <= k ? QualStatus::one : positive[v] <= k ? QualStatus::mid : QualStatus::zero;
  return out;
}

template <class T>
Solved<T> solve_query(const TestGraph& g, const Numbers<T>& num, const PropertyQuery& q,
                      const std::vector<std::uint8_t>& is_target, const std::vector<std::uint8_t>& is_allowed,
                      const PropertyOptions& o, const Budget* budget, const Solved<double>* warm) {
  Solved<T> out;
  const bool max = q.direction == PropertyDirection::max;
  if (q.step_bound) {
    Form<T> f = build_form<T>(g, num, q, is_target, is_allowed, nullptr, nullptr, 0);
    out.qclass = step_bounded_classes(g, is_target, is_allowed, max, *q.step_bound);
    std::vector<T> x(f.n, T(0)), y(f.n, T(0));
    for (std::uint32_t v = 0; v < f.n; ++v)
      if (f.state[v] == State::fixed) x[v] = f.fixed[v];
    std::vector<std::uint32_t> strategy(f.n, no_target);
    for (std::uint64_t k = 0; k < *q.step_bound; ++k) {
      if (budget && (k & 15) == 15) budget->check();
      const bool last = k + 1 == *q.step_bound;
      for (std::uint32_t v = 0; v < f.n; ++v) {
        if (f.state[v] != State::free) {
          y[v] = x[v];
          continue;
        }
        if (f.choices(v) == 0) {
          y[v] = T(0);
          continue;
        }
        std::uint32_t best = f.cbeg[v];
        T best_q = choice_value(f, best, x);
        for (std::uint32_t c = f.cbeg[v] + 1; c < f.cbeg[v + 1]; ++c) {
          T qv = choice_value(f, c, x);
          if (Arith<T>::better(max, qv, best_q, 0.0)) best = c, best_q = std::move(qv);
        }
        y[v] = std::move(best_q);
        if (last) strategy[v] = best;
      }
      x.swap(y);
    }
    // The graph's exact answer where the value is 0 or 1 (value iteration in double may stop at
    // 1 - 2^-53 there).
    for (std::uint32_t v = 0; v < f.n; ++v) {
      if (out.qclass[v] == QualStatus::one) x[v] = T(1);
      if (out.qclass[v] == QualStatus::zero) x[v] = T(0);
    }
    out.x = std::move(x);
    out.state = f.state;
    out.strategy = to_edges(f, strategy);
    return out;
  }
  if (q.reward_bound) {
    const std::uint64_t bound = *q.reward_bound;
    std::vector<std::vector<T>> levels;
    std::vector<std::vector<QualStatus>> classes;
    std::vector<std::uint32_t> strategy;
    for (std::uint64_t b = 0; b <= bound; ++b) {
      Form<T> f = build_form(g, num, q, is_target, is_allowed, &levels, &classes, b);
      std::vector<T> x;
      const std::vector<std::uint32_t>* w =
          warm != nullptr && b < warm->level_strategies.size() ? &warm->level_strategies[b] : nullptr;
      solve_unbounded(f, q, o, budget, w, x, strategy, out.st);
      if constexpr (std::is_same_v<T, double>) out.level_strategies.push_back(strategy);
      levels.push_back(std::move(x));
      classes.push_back(std::move(f.qclass));
      if (b == bound) {
        out.state = f.state;
        out.strategy = to_edges(f, strategy);
      }
      ++out.levels;
    }
    out.x = std::move(levels.back());
    out.qclass = std::move(classes.back());
    return out;
  }
  Form<T> f = build_form<T>(g, num, q, is_target, is_allowed, nullptr, nullptr, 0);
  std::vector<std::uint32_t> strategy;
  solve_unbounded(f, q, o, budget, warm != nullptr ? &warm->choice_strategy : nullptr, out.x, strategy, out.st);
  out.state = f.state;
  out.strategy = to_edges(f, strategy);
  out.choice_strategy = std::move(strategy);
  out.qclass = std::move(f.qclass);
  return out;
}

// A proved bound on the rounding error of step-bounded value iteration in double against the
// exact model (exact_numbers): per step, each passive sum of d products of numbers in [0, 1] is
// off by at most d * 2^-53 (relative, with the input's rounding to double and the normalization of
// probabilities whose sum is not exactly 1: delta), errors add up over the steps.
double rounding_bound(const TestGraph& g, std::uint64_t steps) {
  double worst = 0;
  for (VertexId v : g.vertices()) {
    if (!g.is_passive(v)) continue;
    double sum = 0;
    for (EdgeId e : g.out_edges(v)) sum += g.probability(e);
    const double d = g.out_degree(v);
    worst = std::max(worst, std::abs(1.0 - sum) + (3 * d + 2) * 0x1p-53);
  }
  return static_cast<double>(steps) * worst * (1 + 1e-10) + 0x1p-60;
}

// Pmax and Pmin of F<=k and of `a U<=k b` on the solver core (the vertices outside a and b fixed
// at 0): the bounded-reachability sweep (seed 000 §3.3,
// probability only) on solve/core's choice model, with its threads and, on an MDP of the PRISM
// importer's shape, its folded passes of one MDP step. For Pmax the sweep's value at an active
// vertex is the best of its edges or 0 (giving up), which is Pmax's: a probability is never below 0;
// for Pmin (MinProbabilityOrder) the least of its edges, no giving up. The error bound adds the
// sweep's proved rounding bound (against the graph's doubles; min and max are 1-Lipschitz, so it
// holds for both) to the one of the doubles against the export's numbers. The exact 0 / 1 classes
// are the graph's (step_distance under the best (max) or worst (min) scheduler), searched only where
// the numbers leave them open: a positive double proves a positive path (without one every term is
// exactly 0), a value below 1 - bound proves the value below 1; a value of 0 (which may be an
// underflow) or within the bound of 1 asks the graph. The strategy: Pmax's choice where the value is
// positive; Pmin's at every active vertex with an edge (keeping the value at 0 is its point).
PropertyResult p_step_bounded(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                              const std::vector<std::uint8_t>& is_allowed, std::uint32_t k, bool max,
                              const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  std::vector<VertexId> goals;
  std::vector<std::uint8_t> zero(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (is_target[v]) goals.emplace_back(v);
    zero[v] = !is_target[v] && !is_allowed[v];
  }
  BoundedReachOptions bo;
  bo.bound = k;
  bo.threads = o.threads;
  const BoundedReachResult br = detail::solve_bounded_probability(g, goals, max, zero, bo);
  PropertyResult r;
  r.certified = true;
  r.error_bound = br.prob_error_bound() + rounding_bound(g, k);
  bool open_zero = false, open_one = false;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (is_target[v]) continue;
    const double p = br.prob(VertexId(v));
    open_zero = open_zero || p == 0;
    open_one = open_one || p >= 1 - r.error_bound;
  }
  std::vector<std::uint64_t> positive, sure;
  if (open_zero || open_one) {
    const std::vector<QualStatus> status = detail::graph_status(g, is_target, is_allowed);
    const detail::GraphGame game(g, status);
    if (open_zero) positive = detail::step_distance(game, !max, false, k);
    if (open_one) sure = detail::step_distance(game, !max, true, k);
  }
  r.value.assign(n, 0.0);
  r.strategy.assign(n, EdgeId::none());
  r.infinite.assign(n, 0);
  r.probability_class.assign(n, ProbabilityClass::between);
  for (std::uint32_t v = 0; v < n; ++v) {
    const VertexId u(v);
    const double p = br.prob(u);
    if (!zero[v] && !is_target[v] && g.is_active(u) && (!max || p > 0)) r.strategy[v] = br.choice(u);
    if (is_target[v] || (p >= 1 - r.error_bound && sure[v] <= k)) {
      r.value[v] = 1;
      r.probability_class[v] = ProbabilityClass::one;
      ++r.num_one;
    } else if (p == 0 && positive[v] > k) {
      r.probability_class[v] = ProbabilityClass::zero;
      ++r.num_zero;
    } else {
      r.value[v] = p;
    }
  }
  return r;
}

}  // namespace

namespace detail {

// Pmin above the exact check's limit, as the solver core's certified expected cost: once the
// graph has fixed the vertices with probability 0 (prob0E) and 1 (prob1A), no scheduler can stay
// among the others forever (it would avoid the targets: prob0E), so Pmin is the least expected
// cost to reach a vertex of either class on a copy of the graph whose edges cost 1 into a
// probability-1 vertex and 0 elsewhere: every strategy is proper, and solve_expected_cost's
// certificate (proved per-vertex bounds with outward rounding on that copy's own numbers) bounds
// Pmin itself.
PropertyResult pmin_by_expected_cost(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                     const std::vector<std::uint8_t>& is_allowed, const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  const std::vector<QualStatus> status = detail::graph_status(g, is_target, is_allowed);
  const detail::GraphGame game(g, status);
  std::vector<std::uint32_t> avoid;
  const auto positive = detail::positive_region(game, true, &avoid);
  const auto one = detail::prob1_every(game, positive);
  PropertyResult r;
  r.probability_class.assign(n, ProbabilityClass::between);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (one[v]) {
      r.probability_class[v] = ProbabilityClass::one;
      ++r.num_one;
    } else if (!positive[v]) {
      r.probability_class[v] = ProbabilityClass::zero;
      ++r.num_zero;
    }
  }
  if (r.num_zero + r.num_one == n) {
    // The graph has decided every vertex (consensus `P>=1 [ F "finished" ]`: all 6.3M): nothing
    // is left to compute, and the answer is exact.
    r.value.assign(n, 0.0);
    r.infinite.assign(n, 0);
    r.strategy.assign(n, EdgeId::none());
    for (std::uint32_t v = 0; v < n; ++v) {
      if (r.probability_class[v] == ProbabilityClass::one)
        r.value[v] = 1;
      else if (g.is_active(VertexId{v}) && avoid[v] != detail::no_choice)
        r.strategy[v] = EdgeId{avoid[v]};
    }
    r.certified = true;
    r.error_bound = 0;
    r.lower = r.value;
    r.upper = r.value;
    return r;
  }
  GraphBuilder b;
  b.reserve(n, g.num_edges());
  b.names_are_distinct();
  for (std::uint32_t v = 0; v < n; ++v)
    b.add_unique_vertex(fmt::format("v{}", v), g.is_passive(VertexId{v}) ? VertexKind::passive : VertexKind::active,
                        r.probability_class[v] != ProbabilityClass::between);
  b.set_initial(g.initial());
  std::vector<EdgeId> edge_of;
  for (EdgeId e : g.edges()) {
    const VertexId from = g.source(e), to = g.target(e);
    EdgeSpec spec{.from = from,
                  .to = to,
                  .label = "x",
                  .cost = r.probability_class[to.index()] == ProbabilityClass::one ? 1.0 : 0.0};
    if (g.is_passive(from)) spec.prob = g.probability(e);
    b.add_edge(spec);
  }
  const TestGraph h = b.build({}, &edge_of);
  std::vector<VertexId> goals;
  for (std::uint32_t v = 0; v < n; ++v)
    if (r.probability_class[v] != ProbabilityClass::between) goals.push_back(VertexId{v});
  const ExpectedCostResult e = solve_expected_cost(h, goals, {.threads = o.threads});
  std::vector<EdgeId> back(h.num_edges(), EdgeId::none());
  for (std::uint32_t i = 0; i < edge_of.size(); ++i) back[edge_of[i].index()] = EdgeId{i};
  r.value.assign(n, 0.0);
  r.infinite.assign(n, 0);
  r.strategy.assign(n, EdgeId::none());
  for (std::uint32_t v = 0; v < n; ++v) {
    switch (r.probability_class[v]) {
      case ProbabilityClass::one:
        r.value[v] = 1;
        break;
      case ProbabilityClass::zero:
        r.value[v] = 0;
        if (g.is_active(VertexId{v}) && avoid[v] != detail::no_choice) r.strategy[v] = EdgeId{avoid[v]};
        break;
      case ProbabilityClass::between:
        r.value[v] = std::clamp(e.value[v], 0.0, 1.0);
        if (!e.strategy[v].is_none()) r.strategy[v] = back[e.strategy[v].index()];
        break;
    }
  }
  r.evaluations = e.evaluations;
  r.improvements = e.improvements;
  r.certified = e.certified;
  r.not_certified = e.not_certified;
  if (e.certified && !e.lower_bound.empty() && !e.upper_bound.empty()) {
    r.lower.assign(n, 0.0);
    r.upper.assign(n, 0.0);
    double bound = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      const bool between = r.probability_class[v] == ProbabilityClass::between;
      r.lower[v] = between ? std::max(0.0, e.lower_bound[v]) : r.value[v];
      r.upper[v] = between ? std::min(1.0, e.upper_bound[v]) : r.value[v];
      bound = std::max({bound, r.upper[v] - r.value[v], r.value[v] - r.lower[v]});
    }
    r.error_bound = std::nextafter(bound, std::numeric_limits<double>::infinity());
  }
  return r;
}

}  // namespace detail

namespace {

// The query's targets and until left side as per-vertex flags, and its shape checked: what the
// solvers below cannot answer is a UsageError naming the field.
struct QueryMasks {
  std::vector<std::uint8_t> is_target, is_allowed;
};

QueryMasks check_query(const TestGraph& g, const PropertyQuery& q) {
  const std::uint32_t n = g.num_vertices();
  QueryMasks m{std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 1)};
  for (VertexId v : q.targets) {
    if (v.index() >= n) throw UsageError("targets", "solve_property: target vertex id out of range");
    m.is_target[v.index()] = 1;
  }
  if (q.allowed) {
    std::fill(m.is_allowed.begin(), m.is_allowed.end(), 0);
    for (VertexId v : *q.allowed) {
      if (v.index() >= n) throw UsageError("allowed", "solve_property: vertex id out of range");
      m.is_allowed[v.index()] = 1;
    }
  }
  if (q.complement && q.kind != PropertyKind::probability)
    throw UsageError("property", "only a probability (P) has a complement path (G, W, R)");
  if (q.state_reward.size() > n) throw UsageError("state_reward", "solve_property: more state rewards than vertices");
  return m;
}

// The until and reachability queries solve_query answers: bounds that go together, integer rewards
// under a reward bound, and an unfolding of at most 200M vertices.
void check_reach_query(const TestGraph& g, const PropertyQuery& q) {
  const std::uint32_t n = g.num_vertices();
  if (q.kind == PropertyKind::reward && (q.step_bound || q.reward_bound || q.allowed))
    throw UsageError("property", "a reward (R) property takes neither a bound nor an until (R [ F target ] only)");
  if (q.step_bound && q.reward_bound)
    throw UsageError("property", "a step bound and a reward bound together are not supported");
  if (!q.reward_bound) return;
  for (EdgeId e : g.edges()) {
    const double c = g.cost(e);
    if (c != std::floor(c) || c > 0x1p53)
      throw UsageError("property",
                       fmt::format("a reward bound needs integer rewards; edge '{}' costs {}", g.name(e), c));
  }
  if ((*q.reward_bound + 1) * std::uint64_t{std::max<std::uint32_t>(n, 1)} > 200'000'000)
    throw UsageError("property",
                     fmt::format("the reward bound {} times {} vertices is too large to unfold", *q.reward_bound, n));
}

// The result's values, strategy, statistics and classes from a solved query (double or exact).
template <class T>
void fill_result(const Solved<T>& s, const PropertyQuery& q, std::uint32_t n, PropertyResult& r) {
  r.value.assign(n, 0.0);
  r.strategy = s.strategy;
  r.improvements = s.st.improvements;
  r.evaluations = s.st.evaluations;
  r.levels = s.levels;
  r.max_bits = std::max(r.max_bits, s.st.max_bits);
  r.num_infinite = 0;
  r.infinite.assign(n, 0);
  r.probability_class.clear();
  r.num_zero = r.num_one = 0;
  if (q.kind == PropertyKind::probability) {
    r.probability_class.assign(n, ProbabilityClass::between);
    for (std::uint32_t v = 0; v < n; ++v) {
      if (s.qclass[v] == QualStatus::one) {
        r.probability_class[v] = ProbabilityClass::one;
        ++r.num_one;
      } else if (s.qclass[v] == QualStatus::zero) {
        r.probability_class[v] = ProbabilityClass::zero;
        ++r.num_zero;
      }
    }
  }
  for (std::uint32_t v = 0; v < n; ++v) {
    if (s.state[v] == State::infinite) {
      r.value[v] = std::numeric_limits<double>::infinity();
      r.infinite[v] = 1;
      ++r.num_infinite;
    } else {
      r.value[v] = Arith<T>::to_d(s.x[v]);
    }
  }
}

// The exact rational values of a solved query into r (0 where the value is infinite).
void fill_exact(const Solved<Rational>& s, std::uint32_t n, PropertyResult& r) {
  r.has_exact = true;
  r.exact = s.x;
  for (std::uint32_t v = 0; v < n; ++v)
    if (s.state[v] == State::infinite) r.exact[v] = 0;
  r.certified = true;
  r.error_bound = 0;
}

Budget budget_of(double seconds) {
  return Budget{Clock::now() +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, seconds)))};
}

// --exact: the query in rationals within --exact-seconds, else a UsageError saying so.
PropertyResult solve_exactly(const TestGraph& g, const PropertyQuery& q, const QueryMasks& m,
                             const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  const Budget budget = budget_of(o.exact_seconds);
  try {
    PropertyResult r;
    const Solved<Rational> s = solve_query(g, numbers_rational(g), q, m.is_target, m.is_allowed, o, &budget, nullptr);
    fill_result(s, q, n, r);
    fill_exact(s, n, r);
    return r;
  } catch (const BudgetExceeded&) {
    throw UsageError("exact_seconds",
                     fmt::format("exact solving did not finish within {} s ({} vertices); raise the budget or "
                                 "drop the exact request",
                                 o.exact_seconds, n));
  }
}

// Rmin above the exact check's limit: the least expected cost to the targets, the solver core's,
// with its certificate.
PropertyResult rmin_by_expected_cost(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  PropertyResult r;
  ExpectedCostResult e = solve_expected_cost(g, q.targets, {.threads = o.threads});
  r.value = std::move(e.value);
  r.strategy = std::move(e.strategy);
  r.infinite.assign(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    r.infinite[v] = std::isinf(r.value[v]) ? 1 : 0;
    r.num_infinite += r.infinite[v];
  }
  r.evaluations = e.evaluations;
  r.improvements = e.improvements;
  r.certified = e.certified;
  r.not_certified = std::move(e.not_certified);
  if (r.certified && !e.lower_bound.empty() && !e.upper_bound.empty()) {
    double bound = 0;
    for (std::uint32_t v = 0; v < n; ++v)
      if (!r.infinite[v]) bound = std::max({bound, e.upper_bound[v] - r.value[v], r.value[v] - e.lower_bound[v]});
    // The subtractions are rounded to nearest: one ulp more is a bound.
    r.error_bound = r.certified ? std::nextafter(bound, std::numeric_limits<double>::infinity()) : -1;
    r.lower = std::move(e.lower_bound);
    r.upper = std::move(e.upper_bound);
  }
  return r;
}

// The double answer `r` of `s` checked: in rationals up to the exact check's limit (within
// --check-seconds), certified by Rmax's certificate above it, or said to be unproved.
void check_double_answer(const TestGraph& g, const PropertyQuery& q, const QueryMasks& m, const PropertyOptions& o,
                         const Solved<double>& s, PropertyResult& r) {
  const std::uint32_t n = g.num_vertices();
  if (s.st.numeric_failure && n > o.exact_check_vertices) {
    r.not_certified = fmt::format(
        "the floating-point linear system is singular (probabilities too close to 0 or 1 for double), and {} "
        "vertices are above the exact check's limit of {}; only the vertices with probability exactly 0 or 1 "
        "are known",
        n, o.exact_check_vertices);
    return;
  }
  if (n > o.exact_check_vertices) {
    // (the certificate's search for expected moves gets --check-seconds, as the exact check would)
    if (q.kind == PropertyKind::reward && q.direction == PropertyDirection::max &&
        detail::certify_rmax(g, m.is_target, r, budget_of(o.check_seconds).deadline))
      return;
    r.not_certified = fmt::format(
        "{} vertices, above the exact check's limit of {}; the double answer has no proved "
        "bound",
        n, o.exact_check_vertices);
    return;
  }
  const Budget check_budget = budget_of(o.check_seconds);
  try {
    const Solved<Rational> e = solve_query(g, numbers_rational(g), q, m.is_target, m.is_allowed, o, &check_budget, &s);
    const PropertyResult x = r;
    fill_result(e, q, n, r);
    fill_exact(e, n, r);
    // Report what the double solver needed, with the exact check's extra work added.
    r.improvements += x.improvements;
    r.evaluations += x.evaluations;
  } catch (const BudgetExceeded&) {
    r.not_certified = fmt::format("the exact check did not finish within {} s (--check-seconds)", o.check_seconds);
  }
}

}  // namespace

PropertyResult solve_property(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  const QueryMasks m = check_query(g, q);
  if (q.complement) return detail::solve_complement(g, q, o);
  if (q.kind == PropertyKind::probability && q.step_lower) return detail::solve_lower_bounded(g, q, o);
  if (q.kind == PropertyKind::steady_state || (q.kind == PropertyKind::reward && q.measure == RewardMeasure::long_run))
    return detail::solve_steady_state(g, q, o);
  if (q.kind == PropertyKind::reward && q.measure != RewardMeasure::reach) {
    if (!q.step_bound) throw UsageError("property", "C<=k and I=k need their step count k");
    return detail::solve_step_reward(g, q, o);
  }
  check_reach_query(g, q);
  if (o.exact) return solve_exactly(g, q, m, o);
  const bool large = n > o.exact_check_vertices;
  const bool unbounded = !q.step_bound && !q.reward_bound;
  // Without a choice anywhere (a DTMC) Rmin and Rmax are one number: the solver core's expected cost.
  auto no_choice = [&] {
    return std::none_of(g.vertices().begin(), g.vertices().end(),
                        [&](VertexId v) { return g.is_active(v) && g.out_degree(v) > 1; });
  };
  if (q.kind == PropertyKind::reward && large && (q.direction == PropertyDirection::min || no_choice()))
    return rmin_by_expected_cost(g, q, o);
  if (q.kind == PropertyKind::probability && q.direction == PropertyDirection::min && unbounded && large)
    return detail::pmin_by_expected_cost(g, m.is_target, m.is_allowed, o);
  if (q.kind == PropertyKind::probability && q.direction == PropertyDirection::max && unbounded && large)
    return detail::pmax_by_quotient(g, m.is_target, m.is_allowed, o);
  if (q.kind == PropertyKind::reward && q.direction == PropertyDirection::max && large) {
    // The solver core's policy iteration, certified; else value iteration, certified, within
    // --check-seconds; else the policy iteration below, certified when its answer is.
    PropertyResult pi = detail::rmax_by_policy_iteration(g, m.is_target, o);
    if (pi.certified) return pi;
    PropertyResult vi = detail::rmax_by_value_iteration(g, m.is_target, o);
    if (vi.certified) return vi;
  }
  if (q.kind == PropertyKind::probability && q.step_bound && *q.step_bound <= std::numeric_limits<std::uint32_t>::max())
    return p_step_bounded(g, m.is_target, m.is_allowed, static_cast<std::uint32_t>(*q.step_bound),
                          q.direction == PropertyDirection::max, o);
  PropertyResult r;
  const Solved<double> s = solve_query(g, numbers_double(g), q, m.is_target, m.is_allowed, o, nullptr, nullptr);
  fill_result(s, q, n, r);
  if (q.step_bound) {
    r.certified = true;
    r.error_bound = rounding_bound(g, *q.step_bound);
    return r;
  }
  check_double_answer(g, q, m, o, s, r);
  return r;
}

}  // namespace playtest
