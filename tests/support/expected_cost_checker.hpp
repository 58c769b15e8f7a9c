// An independent judge of expected-cost answers (issue 27 item 7): it shares no code with the
// solver. It computes the almost-sure region itself, checks that the strategy is proper there (its
// own backward search), that the values satisfy the strategy's and Bellman's equations (residuals
// computed in long double), and, on small graphs, compares with the exact optimum computed by
// policy iteration in rational arithmetic (fractions of 128-bit integers; a graph whose numbers
// overflow them is reported as not checked exactly).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/expected_cost.hpp"

namespace playtest::testing {

// --- exact fractions -----------------------------------------------------------------------------

struct Overflow : std::runtime_error {
  Overflow() : std::runtime_error("fraction overflow") {}
};

__extension__ typedef __int128 Int128;  // GCC's 128-bit integers (not ISO C++, hence __extension__)

class Fraction {
 public:
  using I = Int128;
  Fraction() = default;
  Fraction(long long v) : n_(v), d_(1) {}  // NOLINT: implicit from integers
  static Fraction of(I n, I d) {
    Fraction f;
    f.n_ = n;
    f.d_ = d;
    f.normalize();
    return f;
  }
  // The exact value of a double (every finite double is a dyadic rational).
  static Fraction of_double(double x) {
    if (!std::isfinite(x)) throw Overflow();
    int e = 0;
    const double m = std::frexp(x, &e);  // x = m 2^e, 0.5 <= |m| < 1
    I mant = static_cast<I>(std::ldexp(m, 53));
    e -= 53;
    while (e < 0 && (mant & 1) == 0) {
      mant /= 2;
      ++e;
    }
    if (e >= 0) {
      if (e > 60) throw Overflow();
      return of(mul(mant, I{1} << e), 1);
    }
    if (-e > 120) throw Overflow();
    return of(mant, I{1} << (-e));
  }
  friend Fraction operator+(Fraction a, Fraction b) {
    const I g = gcd(a.d_, b.d_);
    const I da = a.d_ / g;
    return of(add(mul(a.n_, b.d_ / g), mul(b.n_, da)), mul(da, b.d_));
  }
  friend Fraction operator-(Fraction a, Fraction b) { return a + Fraction::of(-b.n_, b.d_); }
  friend Fraction operator*(Fraction a, Fraction b) {
    const I g1 = gcd(abs(a.n_), b.d_), g2 = gcd(abs(b.n_), a.d_);
    return of(mul(a.n_ / g1, b.n_ / g2), mul(a.d_ / g2, b.d_ / g1));
  }
  friend Fraction operator/(Fraction a, Fraction b) {
    if (b.n_ == 0) throw std::domain_error("division by zero");
    return a * Fraction::of(b.n_ < 0 ? -b.d_ : b.d_, b.n_ < 0 ? -b.n_ : b.n_);
  }
  friend bool operator<(Fraction a, Fraction b) { return (a - b).n_ < 0; }
  friend bool operator==(Fraction a, Fraction b) { return a.n_ == b.n_ && a.d_ == b.d_; }
  bool is_zero() const { return n_ == 0; }
  long double to_long_double() const { return static_cast<long double>(n_) / static_cast<long double>(d_); }

 private:
  static I abs(I x) { return x < 0 ? -x : x; }
  static I gcd(I a, I b) {
    a = abs(a);
    b = abs(b);
    while (b != 0) {
      const I t = a % b;
      a = b;
      b = t;
    }
    return a == 0 ? 1 : a;
  }
  static I mul(I a, I b) {
    I r;
    if (__builtin_mul_overflow(a, b, &r)) throw Overflow();
    return r;
  }
  static I add(I a, I b) {
    I r;
    if (__builtin_add_overflow(a, b, &r)) throw Overflow();
    return r;
  }
  void normalize() {
    if (d_ == 0) throw std::domain_error("zero denominator");
    if (d_ < 0) {
      n_ = -n_;
      d_ = -d_;
    }
    const I g = gcd(n_, d_);
    n_ /= g;
    d_ /= g;
  }
  I n_ = 0, d_ = 1;
};

// --- the judge -----------------------------------------------------------------------------------

// The almost-sure region (greatest fixpoint: a vertex stays if a goal is reachable through
// vertices of the set, passive vertices keeping all their edges in it).
inline std::vector<std::uint8_t> reference_region(const TestGraph& g, const std::vector<std::uint8_t>& goal) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> in(n, 1);
  for (;;) {
    std::vector<std::uint8_t> reach(n, 0);
    for (std::uint32_t v = 0; v < n; ++v) reach[v] = goal[v];
    bool grew = true;
    while (grew) {
      grew = false;
      for (VertexId v : g.vertices()) {
        if (reach[v.index()] || !in[v.index()]) continue;
        bool ok;
        if (g.is_passive(v)) {
          ok = true;
          bool some = false;
          for (EdgeId e : g.out_edges(v)) {
            ok = ok && in[g.target(e).index()];
            some = some || reach[g.target(e).index()];
          }
          ok = ok && some;
        } else {
          ok = false;
          for (EdgeId e : g.out_edges(v)) ok = ok || (reach[g.target(e).index()] && in[g.target(e).index()]);
        }
        if (ok) {
          reach[v.index()] = 1;
          grew = true;
        }
      }
    }
    if (reach == in) return in;
    in = reach;
  }
}

struct ExactOptimum {
  bool computed = false;           // false: the numbers overflowed the fractions
  std::vector<long double> value;  // per vertex; +inf outside the region
  std::vector<EdgeId> strategy;    // an optimal strategy
};

// Policy iteration in exact arithmetic from the attractor strategy (small graphs: Gaussian
// elimination over fractions).
inline ExactOptimum exact_optimum(const TestGraph& g, const std::vector<VertexId>& goals) {
  ExactOptimum out;
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> goal(n, 0);
  for (VertexId v : goals) goal[v.index()] = 1;
  const auto region = reference_region(g, goal);
  std::vector<std::uint32_t> idx(n, UINT32_MAX);
  std::vector<VertexId> states;
  for (VertexId v : g.vertices())
    if (region[v.index()] && !goal[v.index()]) {
      idx[v.index()] = static_cast<std::uint32_t>(states.size());
      states.push_back(v);
    }
  const std::size_t m = states.size();
  // Attractor strategy: backward search from the goals.
  std::vector<EdgeId> sigma(n, EdgeId::none());
  {
    std::vector<std::uint8_t> reached(goal);
    bool grew = true;
    while (grew) {
      grew = false;
      for (VertexId v : states) {
        if (reached[v.index()]) continue;
        if (g.is_passive(v)) {
          for (EdgeId e : g.out_edges(v))
            if (reached[g.target(e).index()]) {
              reached[v.index()] = 1;
              grew = true;
              break;
            }
        } else {
          for (EdgeId e : g.out_edges(v))
            if (reached[g.target(e).index()] && region[g.target(e).index()]) {
              sigma[v.index()] = e;
              reached[v.index()] = 1;
              grew = true;
              break;
            }
        }
      }
    }
  }
  try {
    std::vector<Fraction> x(m);
    auto xval = [&](VertexId t) { return goal[t.index()] ? Fraction(0) : x[idx[t.index()]]; };
    for (int round = 0; round < 1000; ++round) {
      // (I - P) x = c
      std::vector<std::vector<Fraction>> a(m, std::vector<Fraction>(m + 1, Fraction(0)));
      for (std::size_t i = 0; i < m; ++i) {
        const VertexId v = states[i];
        a[i][i] = a[i][i] + Fraction(1);
        auto add_edge = [&](EdgeId e, Fraction p) {
          a[i][m] = a[i][m] + p * Fraction::of_double(g.cost(e));
          const VertexId t = g.target(e);
          if (!goal[t.index()]) a[i][idx[t.index()]] = a[i][idx[t.index()]] - p;
        };
        if (g.is_passive(v))
          for (EdgeId e : g.out_edges(v)) add_edge(e, Fraction::of_double(g.probability(e)));
        else
          add_edge(sigma[v.index()], Fraction(1));
      }
      for (std::size_t c = 0; c < m; ++c) {
        std::size_t p = c;
        while (p < m && a[p][c].is_zero()) ++p;
        if (p == m) return out;  // singular: not proper (cannot happen from a proper start)
        std::swap(a[p], a[c]);
        for (std::size_t r = 0; r < m; ++r) {
          if (r == c || a[r][c].is_zero()) continue;
          const Fraction f = a[r][c] / a[c][c];
          for (std::size_t k = c; k <= m; ++k) a[r][k] = a[r][k] - f * a[c][k];
        }
      }
      for (std::size_t i = 0; i < m; ++i) x[i] = a[i][m] / a[i][i];
      bool changed = false;
      for (VertexId v : states) {
        if (g.is_passive(v)) continue;
        const EdgeId cur = sigma[v.index()];
        Fraction best = Fraction::of_double(g.cost(cur)) + xval(g.target(cur));
        for (EdgeId e : g.out_edges(v)) {
          const VertexId t = g.target(e);
          if (!region[t.index()]) continue;
          const Fraction q = Fraction::of_double(g.cost(e)) + xval(t);
          if (q < best) {
            best = q;
            sigma[v.index()] = e;
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
    out.value.assign(n, std::numeric_limits<long double>::infinity());
    for (VertexId v : g.vertices())
      if (goal[v.index()])
        out.value[v.index()] = 0;
      else if (region[v.index()])
        out.value[v.index()] = x[idx[v.index()]].to_long_double();
    out.strategy = sigma;
    out.computed = true;
  } catch (const Overflow&) {
    out.computed = false;
  }
  return out;
}

struct Judgement {
  bool ok = true;
  std::string why;
  void fail(const std::string& s) {
    if (ok) why = s;
    ok = false;
  }
};

// Checks an answer: region, goals, strategy properness, residuals (relative `tol`), and, when
// `exact` is given and the answer is certified, that every value lies within the proved bound of
// the exact optimum (`slack` for the rounding of the exact value itself).
inline Judgement judge_expected_cost(const TestGraph& g, const std::vector<VertexId>& goals,
                                     const ExpectedCostResult& r, double tol, const ExactOptimum* exact = nullptr) {
  Judgement j;
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> goal(n, 0);
  for (VertexId v : goals) goal[v.index()] = 1;
  const auto region = reference_region(g, goal);
  std::ostringstream s;
  for (VertexId v : g.vertices()) {
    const double x = r.value[v.index()];
    if (goal[v.index()] && x != 0) j.fail("a goal's value is not 0: " + std::string(g.name(v)));
    if (!region[v.index()] && !std::isinf(x)) j.fail("finite value outside the region: " + std::string(g.name(v)));
    if (region[v.index()] && !std::isfinite(x)) j.fail("infinite value inside the region: " + std::string(g.name(v)));
    if (x < 0) j.fail("negative expected cost at " + std::string(g.name(v)));
  }
  if (!j.ok) return j;
  // The strategy: an edge of its own vertex into the region at every active non-goal region vertex.
  for (VertexId v : g.vertices()) {
    const EdgeId e = r.strategy[v.index()];
    const bool needs = region[v.index()] && !goal[v.index()] && g.is_active(v);
    if (!needs) {
      if (!e.is_none()) j.fail("a strategy edge where none belongs: " + std::string(g.name(v)));
      continue;
    }
    if (e.is_none() || g.source(e) != v || !region[g.target(e).index()])
      j.fail("no valid strategy edge at " + std::string(g.name(v)));
  }
  if (!j.ok) return j;
  // Properness: every region vertex reaches a goal under the strategy (backward search).
  std::vector<std::uint8_t> reach(goal);
  for (bool grew = true; grew;) {
    grew = false;
    for (VertexId v : g.vertices()) {
      if (reach[v.index()] || !region[v.index()]) continue;
      bool ok = false;
      if (g.is_passive(v)) {
        for (EdgeId e : g.out_edges(v)) ok = ok || reach[g.target(e).index()];
      } else {
        ok = reach[g.target(r.strategy[v.index()]).index()];
      }
      if (ok) {
        reach[v.index()] = 1;
        grew = true;
      }
    }
  }
  for (VertexId v : g.vertices())
    if (region[v.index()] && !reach[v.index()]) j.fail("the strategy is not proper at " + std::string(g.name(v)));
  if (!j.ok) return j;
  // Residuals in long double (skipped for tol < 0).
  for (VertexId v : g.vertices()) {
    if (tol < 0) break;
    if (!region[v.index()] || goal[v.index()]) continue;
    const long double x = r.value[v.index()];
    long double pol, bel;
    if (g.is_passive(v)) {
      long double sum = 0;
      for (EdgeId e : g.out_edges(v))
        sum += static_cast<long double>(g.probability(e)) *
               (g.cost(e) + static_cast<long double>(r.value[g.target(e).index()]));
      pol = bel = sum;
    } else {
      const EdgeId e = r.strategy[v.index()];
      pol = g.cost(e) + static_cast<long double>(r.value[g.target(e).index()]);
      bel = std::numeric_limits<long double>::infinity();
      for (EdgeId f : g.out_edges(v))
        if (region[g.target(f).index()])
          bel = std::min(bel, g.cost(f) + static_cast<long double>(r.value[g.target(f).index()]));
    }
    const long double scale = std::max<long double>(1, std::abs(x));
    if (std::abs(pol - x) > tol * scale) {
      s << "strategy residual " << static_cast<double>(std::abs(pol - x)) << " at " << g.name(v);
      j.fail(s.str());
      return j;
    }
    if (std::abs(bel - x) > tol * scale) {
      s << "Bellman residual " << static_cast<double>(std::abs(bel - x)) << " at " << g.name(v);
      j.fail(s.str());
      return j;
    }
  }
  if (exact && exact->computed && r.certified) {
    for (VertexId v : g.vertices()) {
      if (!region[v.index()] || goal[v.index()]) continue;
      const long double e = exact->value[v.index()], x = r.value[v.index()];
      const long double allowed = static_cast<long double>(r.error_bound) * std::max<long double>(1, std::abs(x)) +
                                  1e-15L * std::max<long double>(1, std::abs(e));
      if (std::abs(x - e) > allowed) {
        s << "certified value " << static_cast<double>(x) << " at " << g.name(v) << " is "
          << static_cast<double>(std::abs(x - e)) << " from the exact " << static_cast<double>(e)
          << ", beyond the bound " << r.error_bound;
        j.fail(s.str());
        return j;
      }
    }
  }
  return j;
}

}  // namespace playtest::testing
