#include "solve/core/certificate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace playtest::detail {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The next double above / below x, for x >= 0 (and +inf): an upper / lower bound of any real that
// rounds to nearest to x.
inline double up(double x) {
  if (x == 0) return std::numeric_limits<double>::denorm_min();
  if (x == inf) return x;
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) + 1);
}
inline double down(double x) {
  if (!(x > 0)) return 0;
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) - 1);
}
// Operations rounded up / down: to nearest, then one step outwards when the error-free
// transformation (TwoSum for sums, fma for products and quotients) shows that the rounding went
// the wrong way; exact results stay exact (a zero-cost self-loop must not creep). Non-negative
// operands; results near the underflow threshold always step (their fma error is not exact).
constexpr double tiny = std::numeric_limits<double>::min() * 0x1p54;
inline double sum_error(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
inline double add_up(double a, double b) {
  const double s = a + b;
  return sum_error(a, b, s) > 0 ? up(s) : s;
}
inline double add_down(double a, double b) {
  const double s = a + b;
  return sum_error(a, b, s) < 0 ? down(s) : s;
}
// a - b for a >= b >= 0
inline double sub_up(double a, double b) {
  const double s = a - b;
  return sum_error(a, -b, s) > 0 ? up(s) : s;
}
inline double sub_down(double a, double b) {
  const double s = a - b;
  if (!(s > 0)) return 0;
  return sum_error(a, -b, s) < 0 ? down(s) : s;
}
inline double mul_up(double a, double b) {
  const double p = a * b;
  if (p < tiny) return a == 0 || b == 0 ? 0 : up(p);
  return std::fma(a, b, -p) > 0 ? up(p) : p;
}
inline double mul_down(double a, double b) {
  const double p = a * b;
  if (p < tiny) return a == 0 || b == 0 ? 0 : down(p);
  return std::fma(a, b, -p) < 0 ? down(p) : p;
}
// a / b for a >= 0, b > 0
inline double div_down(double a, double b) {
  const double q = a / b;
  if (q < tiny) return a == 0 ? 0 : down(q);
  return std::fma(q, b, -a) > 0 ? down(q) : q;
}

// Graph-search properness: every vertex of the order reaches a goal along edges the strategy takes
// (all edges at passive vertices).
bool proper(const TestGraph& g, std::span<const std::uint8_t> is_goal, std::span<const std::uint8_t> in_region,
            std::span<const VertexId> order, std::span<const EdgeId> strategy) {
  const std::uint32_t nv = g.num_vertices();
  const auto src = g.sources();
  std::vector<std::uint8_t> reach(nv, 0);
  std::vector<VertexId> queue;
  for (std::uint32_t v = 0; v < nv; ++v)
    if (is_goal[v]) {
      reach[v] = 1;
      queue.push_back(VertexId{v});
    }
  for (VertexId v : order) {
    if (g.is_passive(v)) continue;
    const EdgeId e = strategy[v.index()];
    if (e.is_none() || e.index() >= g.num_edges() || src[e.index()] != v) return false;
    if (!in_region[g.target(e).index()]) return false;
  }
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (EdgeId e : g.in_edges(queue[h])) {
      const VertexId u = src[e.index()];
      if (reach[u.index()] || is_goal[u.index()] || !in_region[u.index()]) continue;
      if (g.is_active(u) && strategy[u.index()] != e) continue;
      reach[u.index()] = 1;
      queue.push_back(u);
    }
  for (VertexId v : order)
    if (!reach[v.index()]) return false;
  return true;
}

}  // namespace

ExpectedCertificate certify_expected_cost(const TestGraph& g, std::span<const std::uint8_t> is_goal,
                                          std::span<const std::uint8_t> in_region, std::span<const VertexId> order,
                                          std::span<const double> value, std::span<const EdgeId> strategy,
                                          double tolerance, double residual_hint, std::uint32_t max_rounds) {
  ExpectedCertificate c;
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  c.value.assign(value.begin(), value.end());
  for (VertexId v : order) c.value[v.index()] = std::isnan(c.value[v.index()]) ? 0 : std::max(0.0, c.value[v.index()]);
  c.proper = proper(g, is_goal, in_region, order, strategy);
  if (!c.proper) {
    c.why = "the strategy does not reach a goal with probability 1 from every vertex";
    return c;
  }
  for (VertexId v : order)
    if (!std::isfinite(c.value[v.index()])) {
      c.why = "a value is not a finite number";
      return c;
    }
  // The region's non-goal vertices in id order (the passes read the graph's rows in order).
  std::vector<VertexId> work(order.begin(), order.end());
  std::sort(work.begin(), work.end());
  // The right-hand sides, rounded outwards: the strategy's for U, Bellman's for L.
  // A passive vertex's distribution is its stored probabilities divided by their sum (which may
  // differ from 1 in the last bits), so its probabilities sum to exactly 1 and
  //   sum p y = m + sum p (y - m) = M - sum p (M - y)   (m, M the least and largest y).
  // Each p is bounded below by p / (the sum rounded up), so m + (a lower bound of the sum of the
  // non-negative p (y - m)) is a lower bound, and M - (the same for M - y) an upper bound: both
  // exact when all y are equal (a zero-cost cycle neither creeps up nor down).
  auto prob_total_up = [&](std::uint32_t u) {
    double t = 0;
    for (std::uint32_t e = off[u]; e < off[u + 1]; ++e) t = add_up(t, prob[e]);
    return t;
  };
  auto rhs_up = [&](std::uint32_t u, const std::vector<double>& x) {
    if (g.is_passive(VertexId{u})) {
      const double total = prob_total_up(u);
      double big = 0;
      for (std::uint32_t e = off[u]; e < off[u + 1]; ++e) big = std::max(big, add_up(cost[e], x[tg[e].index()]));
      double gap = 0;
      for (std::uint32_t e = off[u]; e < off[u + 1]; ++e)
        gap = add_down(gap, mul_down(div_down(prob[e], total), sub_down(big, add_up(cost[e], x[tg[e].index()]))));
      return sub_up(big, gap);
    }
    const EdgeId e = strategy[u];
    return add_up(cost[e.index()], x[tg[e.index()].index()]);
  };
  auto rhs_down = [&](std::uint32_t u, const std::vector<double>& x) {
    if (g.is_passive(VertexId{u})) {
      const double total = prob_total_up(u);
      double least = inf;
      for (std::uint32_t e = off[u]; e < off[u + 1]; ++e) least = std::min(least, add_down(cost[e], x[tg[e].index()]));
      double gap = 0;
      for (std::uint32_t e = off[u]; e < off[u + 1]; ++e)
        gap = add_down(gap, mul_down(div_down(prob[e], total), sub_down(add_down(cost[e], x[tg[e].index()]), least)));
      return add_down(least, gap);
    }
    double best = inf;
    for (std::uint32_t e = off[u]; e < off[u + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      if (!in_region[t]) continue;
      best = std::min(best, add_down(cost[e], x[t]));
    }
    return best;
  };
  // Where the values violate their equations (absolute residual r) and how large they are: after
  // the passive vertices are repaired by about r + rounding, an active vertex keeps its inequality
  // when the widening s times its move's cost exceeds that, so the first widening is sized by the
  // least positive cost of a strategy move.
  // (The residual only sizes the first widening; the caller's estimate of it is enough.)
  double r = residual_hint, vmax = 0, cpos = inf;
  for (VertexId v : work) {
    const double x = c.value[v.index()];
    vmax = std::max(vmax, x);
    if (g.is_active(v)) {
      const double cost_s = cost[strategy[v.index()].index()];
      if (cost_s > 0) cpos = std::min(cpos, cost_s);
    }
  }
  if (!std::isfinite(cpos)) cpos = 1;
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> U(nv, 0.0), L(nv, 0.0);
  // Widenings tried: from the residual's size up to a tenth of the tolerance.
  std::vector<double> widths;
  for (double s = std::max(16 * eps, (4 * r + 64 * eps * (vmax + 1)) / cpos); s <= tolerance / 10; s *= 10) {
    widths.push_back(s);
    if (widths.size() == 3) break;
  }
  if (widths.empty()) widths.push_back(tolerance / 10);
  // Repair by a worklist: a vertex whose inequality fails takes its right-hand side (U rises, L
  // falls: each step keeps what the final check proves), and its predecessors are checked again.
  // At most `max_rounds` updates per vertex on average; then one full pass must find no violation.
  const auto src = g.sources();
  std::vector<std::uint8_t> queued(nv, 0), is_work(nv, 0);
  for (VertexId v : work) is_work[v.index()] = 1;
  std::vector<std::uint32_t> queue;
  auto repair = [&](std::vector<double>& x, bool upper) {
    auto violated = [&](std::uint32_t v, double& rhs) {
      rhs = upper ? rhs_up(v, x) : rhs_down(v, x);
      return upper ? rhs > x[v] : rhs < x[v];
    };
    queue.clear();
    std::uint64_t budget = std::uint64_t{max_rounds} * work.size() + 1000;
    auto push_preds = [&](std::uint32_t v) {
      for (EdgeId e : g.in_edges(VertexId{v})) {
        const std::uint32_t u = src[e.index()].index();
        if (is_work[u] && !queued[u]) {
          queued[u] = 1;
          queue.push_back(u);
        }
      }
    };
    double rhs;
    for (VertexId v : work)
      if (violated(v.index(), rhs)) {
        x[v.index()] = rhs;
        push_preds(v.index());
      }
    for (std::size_t h = 0; h < queue.size(); ++h) {
      if (budget-- == 0) {
        for (std::size_t k = h; k < queue.size(); ++k) queued[queue[k]] = 0;
        return false;
      }
      const std::uint32_t v = queue[h];
      queued[v] = 0;
      if (violated(v, rhs)) {
        x[v] = rhs;
        push_preds(v);
      }
    }
    // Every vertex that could fail was checked after its last input changed: none fails.
    return true;
  };
  for (double s : widths) {
    if (!c.upper) {
      for (VertexId v : work) U[v.index()] = up(c.value[v.index()] * (1 + s) + s);
      c.upper = repair(U, true);
    }
    if (!c.lower) {
      for (VertexId v : work) L[v.index()] = std::max(0.0, down(c.value[v.index()] * (1 - s) - s));
      c.lower = repair(L, false);
    }
    if (c.upper && c.lower) {
      double bound = 0;
      for (VertexId v : order) {
        const std::uint32_t i = v.index();
        const double x = std::clamp(c.value[i], L[i], U[i]);
        c.value[i] = x;
        bound = std::max(bound, std::max(U[i] - x, x - L[i]) / std::max(1.0, x));
      }
      if (bound <= tolerance) {
        c.error_bound = up(bound);
        c.certified = true;
        break;
      }
      // Too wide: try a wider start? No: a wider start only widens. Report the proved bound.
      c.error_bound = up(bound);
      break;
    }
  }
  if (c.upper) {
    c.upper_bound = U;
    for (std::uint32_t v = 0; v < nv; ++v)
      if (!in_region[v]) c.upper_bound[v] = inf;
  }
  if (c.lower) {
    c.lower_bound = L;
    for (std::uint32_t v = 0; v < nv; ++v)
      if (!in_region[v]) c.lower_bound[v] = inf;
    for (VertexId v : order) c.value[v.index()] = std::max(c.value[v.index()], L[v.index()]);
  }
  if (!c.certified) {
    if (!c.upper)
      c.why = "no upper bound proved (the values do not satisfy the strategy's equations closely enough)";
    else if (!c.lower)
      c.why = "no lower bound proved (the values do not satisfy Bellman's equations closely enough)";
    else
      c.why = "the proved bounds are wider than the tolerance";
  }
  return c;
}

}  // namespace playtest::detail
