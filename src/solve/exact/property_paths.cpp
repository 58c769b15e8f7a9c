#include "solve/exact/property_paths.hpp"

#include <fmt/format.h>

#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "playtest/base/error.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/exact/linear.hpp"
#include "solve/detail/scc_csr.hpp"

namespace playtest::detail {

namespace {

using exact::Rational;
using Clock = std::chrono::steady_clock;
constexpr double unit = 0x1p-53;
// The most vertex-and-edge visits a bounded pass may cost (step bound x graph size).
constexpr double max_pass_work = 0x1p40;

// The graph's numbers in T: per edge probability (normalized) and cost, per vertex state reward.
template <class T>
struct Nums {
  std::vector<T> prob, cost, state;
};

Nums<double> nums(const TestGraph& g, const PropertyQuery& q, double) {
  Nums<double> x;
  x.prob.assign(g.probabilities().begin(), g.probabilities().end());
  x.cost.assign(g.costs().begin(), g.costs().end());
  x.state = q.state_reward;
  x.state.resize(g.num_vertices(), 0.0);
  return x;
}

Nums<Rational> nums(const TestGraph& g, const PropertyQuery& q, const Rational&) {
  exact::ExactNumbers e = exact::exact_numbers(g);
  Nums<Rational> x;
  x.prob = std::move(e.prob);
  x.cost = std::move(e.cost);
  x.state.assign(g.num_vertices(), Rational(0));
  for (std::size_t v = 0; v < q.state_reward.size() && v < x.state.size(); ++v)
    x.state[v] = exact::from_double(q.state_reward[v]);
  return x;
}

// One backward move: y(v) from the values x one move later. A passive vertex averages over its
// edges, an active one takes the best (max) or worst (min) edge (recorded in `choice`), a dead end
// keeps its value (PRISM's self-loop). `with_cost` adds the edges' costs, and a dead end's state
// reward (C<=k). Outside `mask` (when given) the value is 0.
template <class T>
void move(const TestGraph& g, const Nums<T>& num, bool max, bool with_cost, const std::vector<std::uint8_t>* mask,
          const std::vector<T>& x, std::vector<T>& y, std::vector<EdgeId>* choice) {
  for (VertexId v : g.vertices()) {
    const std::uint32_t i = v.index();
    if (mask != nullptr && !(*mask)[i]) {
      y[i] = T(0);
      continue;
    }
    if (g.out_degree(v) == 0) {
      y[i] = x[i];
      if (with_cost) y[i] += num.state[i];
      continue;
    }
    if (g.is_passive(v)) {
      T s(0);
      for (EdgeId e : g.out_edges(v)) {
        const std::uint32_t t = g.target(e).index();
        if (with_cost)
          s += num.prob[e.index()] * (num.cost[e.index()] + x[t]);
        else
          s += num.prob[e.index()] * x[t];
      }
      y[i] = std::move(s);
      continue;
    }
    bool first = true;
    for (EdgeId e : g.out_edges(v)) {
      const std::uint32_t t = g.target(e).index();
      T val = with_cost ? T(num.cost[e.index()] + x[t]) : x[t];
      if (first || (max ? val > y[i] : val < y[i])) {
        y[i] = std::move(val);
        if (choice != nullptr) (*choice)[i] = e;
      }
      first = false;
    }
  }
}

// The qualitative class after one backward move (exact: it depends on the graph only).
void move_classes(const TestGraph& g, bool max, const std::vector<std::uint8_t>* mask,
                  const std::vector<ProbabilityClass>& x, std::vector<ProbabilityClass>& y) {
  for (VertexId v : g.vertices()) {
    const std::uint32_t i = v.index();
    if (mask != nullptr && !(*mask)[i]) {
      y[i] = ProbabilityClass::zero;
      continue;
    }
    if (g.out_degree(v) == 0) {
      y[i] = x[i];
      continue;
    }
    bool any_one = false, all_one = true, any_zero = false, all_zero = true;
    for (EdgeId e : g.out_edges(v)) {
      const ProbabilityClass c = x[g.target(e).index()];
      any_one = any_one || c == ProbabilityClass::one;
      all_one = all_one && c == ProbabilityClass::one;
      any_zero = any_zero || c == ProbabilityClass::zero;
      all_zero = all_zero && c == ProbabilityClass::zero;
    }
    const bool every = g.is_passive(v) || !max;  // the class needs every edge (average, worst)
    const bool one = every ? all_one : any_one;
    const bool zero = g.is_passive(v) || max ? all_zero : any_zero;
    y[i] = one ? ProbabilityClass::one : zero ? ProbabilityClass::zero : ProbabilityClass::between;
  }
}

void check_work(const TestGraph& g, std::uint64_t moves, const char* what) {
  const double work = static_cast<double>(moves) * (static_cast<double>(g.num_vertices()) + g.num_edges());
  if (work > max_pass_work)
    throw UsageError("property", fmt::format("{} of {} moves on {} vertices and {} edges is too much work (more than "
                                             "2^40 vertex and edge visits)",
                                             what, moves, g.num_vertices(), g.num_edges()));
}

struct Deadline {
  Clock::time_point at;
  double seconds;
  void check(const TestGraph& g) const {
    if (Clock::now() > at)
      throw UsageError("exact_seconds", fmt::format("exact solving did not finish within {} s ({} vertices); raise "
                                                    "the budget or drop the exact request",
                                                    seconds, g.num_vertices()));
  }
};

Deadline deadline(double seconds) {
  return {
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, seconds))),
      seconds};
}

// `moves` backward moves from x (the values `moves` moves later); the choice at each active vertex
// in the first move of the path (the last computed). Stops early at a fixed point (the values of
// every further move are the same).
template <class T>
std::vector<EdgeId> backward(const TestGraph& g, const Nums<T>& num, bool max, bool with_cost,
                             const std::vector<std::uint8_t>* mask, std::uint64_t moves, std::vector<T>& x,
                             const Deadline* limit) {
  std::vector<T> y(x.size(), T(0));
  std::vector<EdgeId> choice(g.num_vertices(), EdgeId::none());
  for (std::uint64_t k = 0; k < moves; ++k) {
    if (limit != nullptr && (k & 15) == 15) limit->check(g);
    move(g, num, max, with_cost, mask, x, y, &choice);
    if (!with_cost && y == x) break;
    x.swap(y);
  }
  return choice;
}

}  // namespace

double move_rounding(const TestGraph& g) {
  double worst = 4 * unit;
  for (VertexId v : g.vertices()) {
    if (!g.is_passive(v)) continue;
    double sum = 0;
    for (EdgeId e : g.out_edges(v)) sum += g.probability(e);
    const double d = g.out_degree(v);
    worst = std::max(worst, std::abs(1.0 - sum) + (3 * d + 6) * unit);
  }
  return worst * (1 + 1e-10);
}

PropertyResult solve_complement(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o) {
  PropertyQuery inner = q;
  inner.complement = false;
  inner.direction = q.direction == PropertyDirection::max ? PropertyDirection::min : PropertyDirection::max;
  PropertyResult r = solve_property(g, inner, o);
  const std::uint32_t n = g.num_vertices();
  for (std::uint32_t v = 0; v < n; ++v) {
    if (r.has_exact) {
      r.exact[v] = 1 - r.exact[v];
      r.value[v] = exact::to_double(r.exact[v]);
    } else {
      r.value[v] = 1 - r.value[v];
    }
    if (!r.probability_class.empty()) {
      ProbabilityClass& c = r.probability_class[v];
      c = c == ProbabilityClass::one ? ProbabilityClass::zero : c == ProbabilityClass::zero ? ProbabilityClass::one : c;
      if (c == ProbabilityClass::one) r.value[v] = 1;
      if (c == ProbabilityClass::zero) r.value[v] = 0;
    }
  }
  std::swap(r.num_zero, r.num_one);
  if (!r.lower.empty() && !r.upper.empty()) {
    for (std::uint32_t v = 0; v < n; ++v) {
      const double lo = std::nextafter(1 - r.upper[v], -1.0), hi = std::nextafter(1 - r.lower[v], 2.0);
      r.lower[v] = std::max(0.0, lo);
      r.upper[v] = std::min(1.0, hi);
    }
  }
  // 1 - v in double is off by at most half an ulp of 1 more.
  if (r.certified && !r.has_exact) r.error_bound = r.error_bound + unit;
  return r;
}

PropertyResult solve_lower_bounded(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o) {
  const std::uint64_t a = *q.step_lower;
  if (q.step_bound && *q.step_bound < a)
    throw UsageError("property", fmt::format("the step interval [{}, {}] is empty", a, *q.step_bound));
  if (q.reward_bound) throw UsageError("property", "a lower step bound and a reward bound together are not supported");
  PropertyQuery inner = q;
  inner.step_lower.reset();
  if (q.step_bound) inner.step_bound = *q.step_bound - a;
  PropertyResult r = solve_property(g, inner, o);
  if (a == 0) return r;
  check_work(g, a, "a lower step bound");
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> mask;
  if (q.allowed) {
    mask.assign(n, 0);
    for (VertexId v : *q.allowed) mask[v.index()] = 1;
  }
  const std::vector<std::uint8_t>* m = q.allowed ? &mask : nullptr;
  const bool max = q.direction == PropertyDirection::max;
  // The classes: exact, move by move.
  std::vector<ProbabilityClass> cls = r.probability_class, next(n);
  for (std::uint64_t k = 0; k < a; ++k) {
    move_classes(g, max, m, cls, next);
    if (next == cls) break;
    cls.swap(next);
  }
  if (o.exact) {
    const Deadline limit = deadline(o.exact_seconds);
    const Nums<Rational> num = nums(g, q, Rational(0));
    r.strategy = backward(g, num, max, false, m, a, r.exact, &limit);
    for (std::uint32_t v = 0; v < n; ++v) r.value[v] = exact::to_double(r.exact[v]);
  } else {
    r.has_exact = false;
    r.exact.clear();
    const Nums<double> num = nums(g, q, 0.0);
    r.strategy = backward(g, num, max, false, m, a, r.value, nullptr);
    if (r.certified) r.error_bound = r.error_bound + static_cast<double>(a) * move_rounding(g);
  }
  r.lower.clear();  // the inner until's per-vertex bounds are not this path's
  r.upper.clear();
  r.probability_class = cls;
  r.num_zero = r.num_one = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (cls[v] == ProbabilityClass::one) {
      r.value[v] = 1;
      if (r.has_exact) r.exact[v] = 1;
      ++r.num_one;
    } else if (cls[v] == ProbabilityClass::zero) {
      r.value[v] = 0;
      if (r.has_exact) r.exact[v] = 0;
      ++r.num_zero;
    } else {
      r.value[v] = std::clamp(r.value[v], 0.0, 1.0);
    }
  }
  return r;
}

PropertyResult solve_step_reward(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o) {
  const std::uint64_t k = q.step_bound.value_or(0);
  check_work(g, k, q.measure == RewardMeasure::cumulative ? "a cumulative reward" : "an instantaneous reward");
  const std::uint32_t n = g.num_vertices();
  const bool max = q.direction == PropertyDirection::max;
  const bool cumulative = q.measure == RewardMeasure::cumulative;
  PropertyResult r;
  r.infinite.assign(n, 0);
  if (o.exact) {
    const Deadline limit = deadline(o.exact_seconds);
    const Nums<Rational> num = nums(g, q, Rational(0));
    r.exact = cumulative ? std::vector<Rational>(n, Rational(0)) : num.state;
    r.strategy = backward(g, num, max, cumulative, nullptr, k, r.exact, &limit);
    r.value.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) r.value[v] = exact::to_double(r.exact[v]);
    r.has_exact = true;
    r.certified = true;
    r.error_bound = 0;
    return r;
  }
  const Nums<double> num = nums(g, q, 0.0);
  r.value = cumulative ? std::vector<double>(n, 0.0) : num.state;
  r.strategy = backward(g, num, max, cumulative, nullptr, k, r.value, nullptr);
  double cmax = 0;
  for (double c : num.state) cmax = std::max(cmax, c);
  const double state_max = cmax;
  for (double c : num.cost) cmax = std::max(cmax, c);
  // Each move's rounding is at most move_rounding times the largest value then: i * cmax after i
  // moves of C<=k, the largest state reward for I=k; the inputs' own rounding to double adds one
  // unit of the largest value.
  const double kk = static_cast<double>(k);
  const double d = move_rounding(g);
  r.error_bound = cumulative ? d * cmax * kk * (kk + 1) / 2 + unit * cmax * kk : d * state_max * kk + unit * state_max;
  r.error_bound = r.error_bound * (1 + 1e-10);
  r.certified = std::isfinite(r.error_bound);
  if (!r.certified) r.not_certified = "the rewards are too large for a proved bound in double";
  return r;
}

namespace {

// A DTMC's bottom strongly connected components: per vertex its component, per component whether
// it is bottom (no edge leaves it), in Tarjan's order (successors first).
struct Components {
  std::vector<std::uint32_t> comp;
  std::vector<std::uint8_t> bottom;
  std::uint32_t count = 0;
};

Components components(const TestGraph& g) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint32_t> off(n + 1, 0), adj;
  adj.reserve(g.num_edges());
  for (VertexId v : g.vertices()) {
    for (EdgeId e : g.out_edges(v)) adj.push_back(g.target(e).index());
    off[v.index() + 1] = static_cast<std::uint32_t>(adj.size());
  }
  Components c;
  c.count = scc_csr(off, adj, c.comp);
  c.bottom.assign(c.count, 1);
  for (EdgeId e : g.edges())
    if (c.comp[g.source(e).index()] != c.comp[g.target(e).index()]) c.bottom[c.comp[g.source(e).index()]] = 0;
  return c;
}

// Per vertex, the quantity averaged in the long run: 1 / 0 at targets / elsewhere (S), the
// expected reward of one move (R [ S ]; a dead end: its state reward).
template <class T>
std::vector<T> long_run_quantity(const TestGraph& g, const PropertyQuery& q, const Nums<T>& num) {
  std::vector<T> f(g.num_vertices(), T(0));
  if (q.kind == PropertyKind::steady_state) {
    for (VertexId v : q.targets) f[v.index()] = T(1);
    return f;
  }
  for (VertexId v : g.vertices()) {
    if (g.out_degree(v) == 0) {
      f[v.index()] = num.state[v.index()];
      continue;
    }
    T s(0);
    for (EdgeId e : g.out_edges(v)) s += (g.is_passive(v) ? num.prob[e.index()] : T(1)) * num.cost[e.index()];
    f[v.index()] = std::move(s);
  }
  return f;
}

// The probability of edge e (1 out of an active vertex with one edge).
template <class T>
T edge_prob(const TestGraph& g, const Nums<T>& num, EdgeId e) {
  return g.is_passive(g.source(e)) ? num.prob[e.index()] : T(1);
}

// Solves A x = b (given as triplets) in T: Eigen's sparse LU in double, exact elimination in
// rationals. nullopt when singular (or, exact, out of time).
std::optional<std::vector<double>> solve_system(std::uint32_t m,
                                                const std::vector<std::tuple<std::uint32_t, std::uint32_t, double>>& a,
                                                const std::vector<double>& b, const Deadline*) {
  if (m == 0) return std::vector<double>{};
  using SpMat = Eigen::SparseMatrix<double>;
  std::vector<Eigen::Triplet<double>> trip;
  trip.reserve(a.size());
  for (const auto& [i, j, x] : a) trip.emplace_back(static_cast<int>(i), static_cast<int>(j), x);
  SpMat mat(static_cast<int>(m), static_cast<int>(m));
  mat.setFromTriplets(trip.begin(), trip.end());
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
  lu.compute(mat);
  if (lu.info() != Eigen::Success) return std::nullopt;
  Eigen::VectorXd rhs(static_cast<int>(m));
  for (std::uint32_t i = 0; i < m; ++i) rhs[static_cast<int>(i)] = b[i];
  const Eigen::VectorXd x = lu.solve(rhs);
  if (lu.info() != Eigen::Success) return std::nullopt;
  return std::vector<double>(x.data(), x.data() + m);
}

std::optional<std::vector<Rational>> solve_system(
    std::uint32_t m, const std::vector<std::tuple<std::uint32_t, std::uint32_t, Rational>>& a,
    const std::vector<Rational>& b, const Deadline* limit) {
  exact::SparseSystem s(m);
  for (const auto& [i, j, x] : a) s.add(i, j, x);
  for (std::uint32_t i = 0; i < m; ++i) s.add_rhs(i, b[i]);
  exact::LinearSolution x = exact::solve(std::move(s), [&] { return limit != nullptr && Clock::now() > limit->at; });
  if (x.status != exact::LinearSolution::Status::solved) return std::nullopt;
  return std::move(x.x);
}

// The long-run values in T: per bottom component the stationary average of f (pi with
// pi_r = 1 for a chosen r and pi_s = sum_t pi_t P(t, s) on the rest: a nonsingular system), then
// the transient vertices' expectation of their bottom component's value.
template <class T>
std::optional<std::vector<T>> long_run_values(const TestGraph& g, const PropertyQuery& q, const Components& c,
                                              const Deadline* limit) {
  const std::uint32_t n = g.num_vertices();
  const Nums<T> num = nums(g, q, T(0));
  const std::vector<T> f = long_run_quantity(g, q, num);
  std::vector<std::vector<std::uint32_t>> members(c.count);
  for (std::uint32_t v = 0; v < n; ++v) members[c.comp[v]].push_back(v);
  std::vector<T> comp_value(c.count, T(0));
  std::vector<std::uint32_t> local(n, 0);
  for (std::uint32_t k = 0; k < c.count; ++k) {
    if (!c.bottom[k]) continue;
    const auto& b = members[k];
    if (b.size() == 1) {
      comp_value[k] = f[b[0]];
      continue;
    }
    const std::uint32_t r = b[0];
    for (std::uint32_t i = 1; i < b.size(); ++i) local[b[i]] = i - 1;
    const auto m = static_cast<std::uint32_t>(b.size() - 1);
    std::vector<std::tuple<std::uint32_t, std::uint32_t, T>> a;
    std::vector<T> rhs(m, T(0));
    for (std::uint32_t i = 0; i < m; ++i) a.emplace_back(i, i, T(1));
    for (std::uint32_t t : b)
      for (EdgeId e : g.out_edges(VertexId{t})) {
        const std::uint32_t s = g.target(e).index();
        if (s == r) continue;
        const T p = edge_prob(g, num, e);
        if (t == r)
          rhs[local[s]] += p;
        else
          a.emplace_back(local[s], local[t], T(-p));
      }
    auto pi = solve_system(m, a, rhs, limit);
    if (!pi) return std::nullopt;
    T total(1), avg = f[r];
    for (std::uint32_t i = 0; i < m; ++i) {
      total += (*pi)[i];
      avg += (*pi)[i] * f[b[i + 1]];
    }
    comp_value[k] = avg / total;
  }
  // Transient vertices: x_v - sum over transient w of p x_w = sum over bottom w of p value(w).
  std::vector<std::uint32_t> transient;
  for (std::uint32_t v = 0; v < n; ++v)
    if (!c.bottom[c.comp[v]]) {
      local[v] = static_cast<std::uint32_t>(transient.size());
      transient.push_back(v);
    }
  const auto m = static_cast<std::uint32_t>(transient.size());
  std::vector<std::tuple<std::uint32_t, std::uint32_t, T>> a;
  std::vector<T> rhs(m, T(0));
  for (std::uint32_t i = 0; i < m; ++i) {
    a.emplace_back(i, i, T(1));
    for (EdgeId e : g.out_edges(VertexId{transient[i]})) {
      const std::uint32_t w = g.target(e).index();
      const T p = edge_prob(g, num, e);
      if (c.bottom[c.comp[w]])
        rhs[i] += p * comp_value[c.comp[w]];
      else
        a.emplace_back(i, local[w], T(-p));
    }
  }
  auto x = solve_system(m, a, rhs, limit);
  if (!x) return std::nullopt;
  std::vector<T> out(n, T(0));
  for (std::uint32_t v = 0; v < n; ++v) out[v] = c.bottom[c.comp[v]] ? comp_value[c.comp[v]] : (*x)[local[v]];
  return out;
}

// S: where the long-run probability is exactly 0 (no reachable bottom component holds a target)
// or 1 (every reachable one holds only targets); components come successors first.
std::vector<ProbabilityClass> steady_classes(const TestGraph& g, const PropertyQuery& q, const Components& c) {
  std::vector<std::uint8_t> target(g.num_vertices(), 0), some(c.count, 0), all(c.count, 1);
  for (VertexId v : q.targets) target[v.index()] = 1;
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
    if (c.bottom[c.comp[v]]) {
      some[c.comp[v]] |= target[v];
      all[c.comp[v]] &= target[v];
    }
  // A transient component reaches a non-zero / non-one bottom when a successor component does.
  std::vector<std::uint8_t> nonzero(c.count, 0), nonone(c.count, 0);
  for (std::uint32_t k = 0; k < c.count; ++k)
    if (c.bottom[k]) nonzero[k] = some[k], nonone[k] = !all[k];
  std::vector<std::vector<std::uint32_t>> out_comps(c.count);
  for (EdgeId e : g.edges()) {
    const std::uint32_t a = c.comp[g.source(e).index()], b = c.comp[g.target(e).index()];
    if (a != b) out_comps[a].push_back(b);
  }
  for (std::uint32_t k = 0; k < c.count; ++k)
    for (std::uint32_t b : out_comps[k]) {
      nonzero[k] |= nonzero[b];
      nonone[k] |= nonone[b];
    }
  std::vector<ProbabilityClass> cls(g.num_vertices());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
    const std::uint32_t k = c.comp[v];
    cls[v] = !nonzero[k] ? ProbabilityClass::zero : !nonone[k] ? ProbabilityClass::one : ProbabilityClass::between;
  }
  return cls;
}

}  // namespace

PropertyResult solve_steady_state(const TestGraph& g, const PropertyQuery& q, const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  for (VertexId v : g.vertices())
    if (g.is_active(v) && g.out_degree(v) > 1)
      throw UsageError("property", fmt::format("S and R [ S ] are answered on DTMCs (every vertex random); vertex '{}' "
                                               "is a choice of {} edges (an MDP)",
                                               g.name(v), g.out_degree(v)));
  const Components c = components(g);
  PropertyResult r;
  r.infinite.assign(n, 0);
  r.strategy.assign(n, EdgeId::none());
  const bool probability = q.kind == PropertyKind::steady_state;
  if (probability) {
    r.probability_class = steady_classes(g, q, c);
    for (auto k : r.probability_class) {
      r.num_zero += k == ProbabilityClass::zero;
      r.num_one += k == ProbabilityClass::one;
    }
  }
  auto settle = [&] {
    if (!probability) return;
    for (std::uint32_t v = 0; v < n; ++v) {
      const auto k = r.probability_class[v];
      r.value[v] = k == ProbabilityClass::one    ? 1.0
                   : k == ProbabilityClass::zero ? 0.0
                                                 : std::clamp(r.value[v], 0.0, 1.0);
      if (r.has_exact && k != ProbabilityClass::between) r.exact[v] = k == ProbabilityClass::one ? 1 : 0;
    }
  };
  if (o.exact || n <= o.exact_check_vertices) {
    const Deadline limit = deadline(o.exact ? o.exact_seconds : o.check_seconds);
    auto x = long_run_values<Rational>(g, q, c, &limit);
    if (x) {
      r.exact = std::move(*x);
      r.has_exact = true;
      r.value.resize(n);
      for (std::uint32_t v = 0; v < n; ++v) r.value[v] = exact::to_double(r.exact[v]);
      r.certified = true;
      r.error_bound = 0;
      settle();
      return r;
    }
    if (o.exact) limit.check(g);
    if (o.exact) throw UsageError("property", "the long-run system is singular");
  }
  auto x = long_run_values<double>(g, q, c, nullptr);
  if (!x) {
    r.value.assign(n, std::numeric_limits<double>::quiet_NaN());
    r.not_certified = "the floating-point long-run system is singular";
    settle();
    return r;
  }
  r.value = std::move(*x);
  r.not_certified =
      n > o.exact_check_vertices
          ? fmt::format(
                "{} vertices, above the exact check's limit of {}; the long-run answer (sparse LU in double) "
                "has no proved bound",
                n, o.exact_check_vertices)
          : fmt::format("the exact check did not finish within {} s (--check-seconds)", o.check_seconds);
  settle();
  return r;
}

}  // namespace playtest::detail
