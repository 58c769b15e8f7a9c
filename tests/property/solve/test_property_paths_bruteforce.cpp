// The property paths beyond reachability (issue 32, item 5) against brute force. On random small
// games (dead ends, self-loops, tiny probabilities), every step-bounded path (F[a,b], X, U[a,b],
// G<=k, W<=k, R<=k) and step reward (C<=k, I=k) is evaluated over the tree of all histories up to
// its horizon, straight from the path's definition (no complement, no backward pass), in exact
// rational arithmetic: the best (max) or worst (min) history-dependent choice at every node.
// solve_property must return that exactly with PropertyOptions::exact, its double answers must lie
// within their proved error bound of it, and its graph-decided classes must say exactly where it is
// 0 or 1. Steady state (S, R [ S ]) on random DTMCs is compared with the Cesaro average of the
// chain's distributions over many steps, computed forwards.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/exact/property.hpp"
#include "solve/exact/property_paths.hpp"

using namespace playtest;
using exact::Rational;

namespace {

std::string fmt_name(std::uint32_t copy, const char* kind, std::uint32_t i) {
  return "k" + std::to_string(copy) + "." + kind + std::to_string(i);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int rounds = 60;
#else
constexpr int rounds = 400;
#endif
// The end-component and Rmax tests are cheap (0.1 s for 400 games under ASan) and count what they
// cover, so they play every game in every build.
constexpr int games = 400;

struct Case {
  TestGraph g;
  std::vector<std::uint8_t> a, b;  // two labels
  std::vector<double> state_reward;
};

Case random_case(Rng& rng, bool dtmc, bool tiny) {
  GraphBuilder b;
  const std::uint32_t n = 2 + static_cast<std::uint32_t>(rng.below(5));
  std::vector<VertexId> vs;
  std::vector<bool> passive(n);
  std::vector<std::uint32_t> deg(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    passive[i] = dtmc || rng.below(2) == 0;
    deg[i] = static_cast<std::uint32_t>(rng.below(3)) + (passive[i] ? 1 : 0);
    // A DTMC's vertex without edges is a dead end: an active vertex, as PRISM's deadlocks import.
    if (dtmc && rng.below(6) == 0) {
      deg[i] = 0;
      passive[i] = false;
    }
    vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active));
  }
  b.set_initial(vs[0]);
  static const double probs[] = {0.1, 0.25, 0.5, 1.0 / 3, 0.7, 1e-9};
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t k = 0; k < deg[i]; ++k) {
      const VertexId t = rng.below(5) == 0 ? vs[i] : vs[rng.below(n)];
      EdgeSpec e{.from = vs[i], .to = t, .label = "x", .cost = static_cast<double>(rng.below(3)) * 0.5};
      if (passive[i]) e.weight = probs[rng.below(tiny ? 6 : 5)];
      b.add_edge(e);
    }
  }
  Case out;
  out.g = b.build();
  out.a.resize(n);
  out.b.resize(n);
  out.state_reward.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    out.a[v] = rng.below(3) != 0;
    out.b[v] = rng.below(3) == 0;
    out.state_reward[v] = static_cast<double>(rng.below(4));
  }
  return out;
}

std::vector<VertexId> where(const std::vector<std::uint8_t>& x, bool value = true) {
  std::vector<VertexId> out;
  for (std::uint32_t v = 0; v < x.size(); ++v)
    if ((x[v] != 0) == value) out.push_back(VertexId{v});
  return out;
}

// The optimum over every history of `horizon` moves of the expectation of `payoff(path)`.
Rational tree_value(const TestGraph& g, const exact::ExactNumbers& num, bool max, std::uint32_t horizon, VertexId from,
                    const std::function<Rational(const std::vector<std::uint32_t>&)>& payoff,
                    const std::function<Rational(std::uint32_t, std::uint32_t, EdgeId)>& step_reward = {}) {
  std::vector<std::uint32_t> path{from.value};
  std::function<Rational()> rec = [&]() -> Rational {
    if (path.size() == horizon + 1) return payoff(path);
    const VertexId v{path.back()};
    if (g.out_degree(v) == 0) {  // PRISM's self-loop
      const Rational r = step_reward ? step_reward(v.index(), v.index(), EdgeId::none()) : Rational(0);
      path.push_back(v.value);
      const Rational x = rec();
      path.pop_back();
      return r + x;
    }
    Rational best(0);
    bool first = true;
    for (EdgeId e : g.out_edges(v)) {
      path.push_back(g.target(e).value);
      Rational x = rec();
      path.pop_back();
      if (step_reward) x += step_reward(v.index(), g.target(e).index(), e);
      if (g.is_passive(v)) {
        best += num.prob[e.index()] * x;
      } else if (first || (max ? x > best : x < best)) {
        best = x;
      }
      first = false;
    }
    return best;
  };
  return rec();
}

struct PathCase {
  const char* name;
  PropertyQuery q;
  std::uint32_t horizon;
  std::function<bool(const std::vector<std::uint32_t>&)> holds;
};

void check(const TestGraph& g, const PropertyQuery& q, const std::vector<Rational>& expected, const std::string& what) {
  PropertyOptions exact_o;
  exact_o.exact = true;
  const PropertyResult e = solve_property(g, q, exact_o);
  ASSERT_TRUE(e.has_exact) << what;
  const PropertyResult d = solve_property(g, q, {});
  ASSERT_TRUE(d.certified) << what << ": " << d.not_certified;
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
    ASSERT_EQ(e.exact[v], expected[v]) << what << " at v" << v << ": " << e.exact[v].get_str() << " vs "
                                       << expected[v].get_str();
    const double want = exact::to_double(expected[v]);
    ASSERT_LE(std::abs(d.value[v] - want), d.error_bound + 1e-300) << what << " at v" << v;
    if (!d.probability_class.empty()) {
      ASSERT_EQ(d.probability_class[v] == ProbabilityClass::one, expected[v] == 1) << what << " at v" << v;
      ASSERT_EQ(d.probability_class[v] == ProbabilityClass::zero, expected[v] == 0) << what << " at v" << v;
    }
  }
}

TEST(PropertyPathsBruteForce, StepBoundedPathsAndRewards) {
  Rng rng(3232);
  for (int round = 0; round < rounds; ++round) {
    const Case c = random_case(rng, round % 4 == 0, true);
    const TestGraph& g = c.g;
    const exact::ExactNumbers num = exact::exact_numbers(g);
    const auto& A = c.a;
    const auto& B = c.b;
    const std::uint32_t lo = static_cast<std::uint32_t>(rng.below(3));
    const std::uint32_t hi = lo + static_cast<std::uint32_t>(rng.below(3));
    const bool max = rng.below(2) == 0;
    std::vector<PathCase> cases;
    PropertyQuery base;
    base.direction = max ? PropertyDirection::max : PropertyDirection::min;
    {
      PropertyQuery q = base;  // F[lo,hi] b
      q.targets = where(B);
      q.step_lower = lo;
      q.step_bound = hi;
      cases.push_back({"F[lo,hi]", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = lo; i <= hi; ++i)
                           if (B[p[i]]) return true;
                         return false;
                       }});
    }
    {
      PropertyQuery q = base;  // F<=hi b (Pmax: the solver core's bounded-reachability sweep)
      q.targets = where(B);
      q.step_bound = hi;
      cases.push_back({"F<=hi", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = 0; i <= hi; ++i)
                           if (B[p[i]]) return true;
                         return false;
                       }});
    }
    {
      PropertyQuery q = base;  // a U[lo,hi] b
      q.targets = where(B);
      q.allowed = where(A);
      q.step_lower = lo;
      q.step_bound = hi;
      cases.push_back({"U[lo,hi]", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = 0; i <= hi; ++i) {
                           if (i >= lo && B[p[i]]) return true;
                           if (!A[p[i]]) return false;
                         }
                         return false;
                       }});
    }
    {
      PropertyQuery q = base;  // G<=hi a = !(F<=hi !a)
      q.complement = true;
      q.targets = where(A, false);
      q.step_bound = hi;
      cases.push_back({"G<=hi", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = 0; i <= hi; ++i)
                           if (!A[p[i]]) return false;
                         return true;
                       }});
    }
    {
      PropertyQuery q = base;  // G[lo,hi] a = !(F[lo,hi] !a)
      q.complement = true;
      q.targets = where(A, false);
      q.step_lower = lo;
      q.step_bound = hi;
      cases.push_back({"G[lo,hi]", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = lo; i <= hi; ++i)
                           if (!A[p[i]]) return false;
                         return true;
                       }});
    }
    {
      // a W<=hi b = !((!b) U<=hi (!a & !b)).
      PropertyQuery q = base;
      q.complement = true;
      std::vector<std::uint8_t> t(A.size());
      for (std::size_t v = 0; v < t.size(); ++v) t[v] = !A[v] && !B[v];
      q.targets = where(t);
      q.allowed = where(B, false);
      q.step_bound = hi;
      cases.push_back({"W<=hi", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = 0; i <= hi; ++i) {
                           if (B[p[i]]) return true;
                           if (!A[p[i]]) return false;
                         }
                         return true;  // a throughout
                       }});
    }
    {
      // a R<=hi b = !((!a) U<=hi (!b)): b holds at every step up to and including the first a.
      PropertyQuery q = base;
      q.complement = true;
      q.targets = where(B, false);
      q.allowed = where(A, false);
      q.step_bound = hi;
      cases.push_back({"R<=hi", q, hi, [&](const auto& p) {
                         for (std::uint32_t i = 0; i <= hi; ++i) {
                           if (!B[p[i]]) return false;
                           if (A[p[i]]) return true;
                         }
                         return true;
                       }});
    }
    for (const auto& pc : cases) {
      std::vector<Rational> expected;
      for (VertexId v : g.vertices())
        expected.push_back(
            tree_value(g, num, max, pc.horizon, v, [&](const auto& p) { return Rational(pc.holds(p) ? 1 : 0); }));
      check(g, pc.q, expected, std::string(pc.name) + " round " + std::to_string(round));
    }
    // C<=hi: the costs of the first hi moves (a dead end's state reward per move); I=hi: the state
    // reward where the path is after hi moves.
    std::vector<Rational> sr;
    for (double x : c.state_reward) sr.push_back(exact::from_double(x));
    PropertyQuery cq = base;
    cq.kind = PropertyKind::reward;
    cq.measure = RewardMeasure::cumulative;
    cq.step_bound = hi;
    cq.state_reward = c.state_reward;
    std::vector<Rational> expected;
    for (VertexId v : g.vertices())
      expected.push_back(tree_value(
          g, num, max, hi, v, [](const auto&) { return Rational(0); },
          [&](std::uint32_t from, std::uint32_t, EdgeId e) { return e.is_none() ? sr[from] : num.cost[e.index()]; }));
    check(g, cq, expected, "C<=hi round " + std::to_string(round));
    PropertyQuery iq = cq;
    iq.measure = RewardMeasure::instantaneous;
    expected.clear();
    for (VertexId v : g.vertices())
      expected.push_back(tree_value(g, num, max, hi, v, [&](const auto& p) { return sr[p.back()]; }));
    check(g, iq, expected, "I=hi round " + std::to_string(round));
  }
}

// Pmax and Pmin of F<=k in double are the solver core's sweep: its choice at each active vertex
// (Pmax: where the value is between 0 and 1; Pmin: also where it is 0, which the choice keeps),
// with all k moves left, is an optimal first move (the exact value of its successor with k - 1
// moves left is the exact optimum, up to twice the proved bound where options differ by less than
// the doubles can tell), and the value lies within the proved bound of the exact one.
TEST(PropertyPathsBruteForce, PmaxAndPminWithinKMovesChooseAnOptimalFirstMove) {
  Rng rng(3233);
  int checked = 0, ones = 0, min_checked = 0, min_zero_kept = 0, exact_first_moves = 0;
  static const double probs[] = {0.1, 0.25, 0.5, 1.0 / 3, 0.7, 1e-9};
  for (int round = 0; round < games; ++round) {
    // An MDP as PRISM's importer makes it: states (active) choose among choices (passive), each a
    // distribution over states; some states without choices (dead ends), some targets.
    GraphBuilder b;
    const std::uint32_t states = 2 + static_cast<std::uint32_t>(rng.below(6));
    std::vector<VertexId> s;
    std::vector<std::uint8_t> target(states);
    for (std::uint32_t i = 0; i < states; ++i) {
      s.push_back(b.add_vertex("s" + std::to_string(i), VertexKind::active));
      target[i] = rng.below(4) == 0;
    }
    b.set_initial(s[0]);
    for (std::uint32_t i = 0; i < states; ++i) {
      const std::uint32_t choices = static_cast<std::uint32_t>(rng.below(4));
      for (std::uint32_t j = 0; j < choices; ++j) {
        const VertexId ch = b.add_vertex("s" + std::to_string(i) + "." + std::to_string(j), VertexKind::passive);
        b.add_edge({.from = s[i], .to = ch, .label = "a"});
        const std::uint32_t succ = 1 + static_cast<std::uint32_t>(rng.below(3));
        for (std::uint32_t t = 0; t < succ; ++t)
          b.add_edge({.from = ch, .to = s[rng.below(states)], .label = "x", .weight = probs[rng.below(6)]});
      }
    }
    const TestGraph g = b.build();
    const std::uint64_t k = 1 + rng.below(8);
    const bool max = round % 2 == 0;
    PropertyQuery q;
    q.direction = max ? PropertyDirection::max : PropertyDirection::min;
    for (std::uint32_t i = 0; i < states; ++i)
      if (target[i]) q.targets.push_back(s[i]);
    q.step_bound = k;
    PropertyOptions exact_o;
    exact_o.exact = true;
    const PropertyResult d = solve_property(g, q);
    const PropertyResult e = solve_property(g, q, exact_o);
    PropertyQuery shorter = q;
    shorter.step_bound = k - 1;
    const PropertyResult e1 = solve_property(g, shorter, exact_o);
    ASSERT_TRUE(d.certified);
    for (VertexId v : g.vertices()) {
      const std::uint32_t i = v.index();
      ASSERT_LE(std::abs(d.value[i] - exact::to_double(e.exact[i])), d.error_bound + 1e-300) << round << " v" << i;
      ASSERT_EQ(d.probability_class[i], e.probability_class[i]) << round << " v" << i;
      if (d.probability_class[i] == ProbabilityClass::one) {
        ++ones;
        continue;
      }
      if (g.is_passive(v) || g.out_degree(v) == 0) continue;
      if (max && d.probability_class[i] != ProbabilityClass::between) continue;
      ASSERT_FALSE(d.strategy[i].is_none()) << round << " v" << i;
      // Options whose exact values differ by less than the doubles' error look equal to the sweep:
      // its choice is optimal within twice the proved bound, and exactly optimal almost always.
      const Rational& chosen = e1.exact[g.target(d.strategy[i]).index()];
      EXPECT_LE(std::abs(exact::to_double(chosen - e.exact[i])), 2 * d.error_bound) << round << " v" << i;
      exact_first_moves += chosen == e.exact[i];
      ++checked;
      min_checked += !max;
      min_zero_kept += !max && d.probability_class[i] == ProbabilityClass::zero;
    }
  }
  EXPECT_GT(checked, 200);
  EXPECT_GE(exact_first_moves, checked - checked / 50);
  EXPECT_GT(min_checked, 100);
  EXPECT_GT(min_zero_kept, 20);  // Pmin's choice that keeps the value at 0 (the null option would not)
  EXPECT_GT(ones, 300);          // targets and surely reached states (decided by the graph)
}

TEST(PropertyPathsBruteForce, SteadyStateIsTheCesaroLimit) {
  Rng rng(777);
  int with_between = 0;
  for (int round = 0; round < rounds / 2; ++round) {
    const Case c = random_case(rng, true, false);
    const TestGraph& g = c.g;
    const std::uint32_t n = g.num_vertices();
    for (const bool reward : {false, true}) {
      PropertyQuery q;
      q.kind = reward ? PropertyKind::reward : PropertyKind::steady_state;
      if (reward) q.measure = RewardMeasure::long_run;
      q.targets = where(c.b);
      q.state_reward = c.state_reward;
      // f per vertex: target indicator, or one move's expected reward (a dead end's state reward).
      std::vector<double> f(n, 0.0);
      for (VertexId v : g.vertices()) {
        if (!reward) {
          f[v.index()] = c.b[v.index()];
        } else if (g.out_degree(v) == 0) {
          f[v.index()] = c.state_reward[v.index()];
        } else {
          for (EdgeId e : g.out_edges(v)) f[v.index()] += g.probability(e) * g.cost(e);
        }
      }
      const PropertyResult r = solve_property(g, q, {});
      ASSERT_TRUE(r.certified) << r.not_certified;
      ASSERT_TRUE(r.has_exact);
      for (VertexId s : g.vertices()) {
        // Forwards: the distribution after t moves from s, averaged over t < N.
        constexpr int N = 40000;
        std::vector<double> x(n, 0.0), y(n);
        x[s.index()] = 1;
        double avg = 0;
        for (int t = 0; t < N; ++t) {
          for (std::uint32_t v = 0; v < n; ++v) avg += x[v] * f[v];
          std::fill(y.begin(), y.end(), 0.0);
          for (VertexId v : g.vertices()) {
            if (g.out_degree(v) == 0) y[v.index()] += x[v.index()];
            for (EdgeId e : g.out_edges(v)) y[g.target(e).index()] += x[v.index()] * g.probability(e);
          }
          x.swap(y);
        }
        avg /= N;
        ASSERT_NEAR(r.value[s.index()], avg, 2e-3)
            << (reward ? "R [ S ]" : "S") << " round " << round << " at v" << s.index();
        if (!reward) {
          const bool one = r.probability_class[s.index()] == ProbabilityClass::one;
          const bool zero = r.probability_class[s.index()] == ProbabilityClass::zero;
          ASSERT_EQ(one, r.exact[s.index()] == 1);
          ASSERT_EQ(zero, r.exact[s.index()] == 0);
          with_between += !one && !zero;
        }
      }
    }
  }
  EXPECT_GT(with_between, 10);
}

// Pmax above the exact check's limit (here forced with exact_check_vertices = 0): the maximal end
// components collapsed, then 1 - the certified Pmin of ending lost. Its proved interval must hold
// the exact optimum, its classes must be exact, and its strategy (inside a component: towards the
// exit the quotient chose) must achieve the optimum.
TEST(PropertyPathsBruteForce, PmaxIsCertifiedOnTheEndComponentQuotient) {
  Rng rng(4242);
  int with_component_choice = 0;  // active vertices of end components that reach a target
  for (int round = 0; round < games; ++round) {
    const Case c = random_case(rng, false, round % 3 == 0);
    const TestGraph& g = c.g;
    PropertyQuery q;
    q.direction = PropertyDirection::max;
    q.targets = where(c.b);
    const bool until = round % 2 == 1;
    if (until) q.allowed = where(c.a);
    PropertyOptions exact_o;
    exact_o.exact = true;
    const PropertyResult e = solve_property(g, q, exact_o);
    PropertyOptions big;
    big.exact_check_vertices = 0;
    const PropertyResult d = solve_property(g, q, big);
    ASSERT_TRUE(d.certified) << "round " << round << ": " << d.not_certified;
    ASSERT_FALSE(d.has_exact);
    ASSERT_EQ(d.lower.size(), g.num_vertices());
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      const double want = exact::to_double(e.exact[v]);
      ASSERT_LE(std::abs(d.value[v] - want), d.error_bound) << "round " << round << " v" << v;
      ASSERT_LE(Rational(d.lower[v]), e.exact[v]) << "round " << round << " v" << v;
      ASSERT_GE(Rational(d.upper[v]), e.exact[v]) << "round " << round << " v" << v;
      ASSERT_EQ(d.probability_class[v] == ProbabilityClass::one, e.exact[v] == 1) << "round " << round << " v" << v;
      ASSERT_EQ(d.probability_class[v] == ProbabilityClass::zero, e.exact[v] == 0) << "round " << round << " v" << v;
    }
    if (until) continue;
    // The strategy achieves the optimum (in exact arithmetic, to the solver's tolerance), also at
    // the active vertices of end components, which must leave them towards the right exit.
    std::vector<std::uint8_t> region(g.num_vertices(), 1), in_component(g.num_vertices(), 0);
    for (VertexId t : q.targets) region[t.index()] = 0;
    std::vector<std::uint32_t> mec;
    detail::maximal_end_components(g, region, mec);
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) in_component[v] = mec[v] != UINT32_MAX;
    const exact::ExactNumbers num = exact::exact_numbers(g);
    const std::vector<Rational> got = exact::strategy_reach_probability(g, num, q.targets, d.strategy);
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      ASSERT_GE(exact::to_double(got[v]), exact::to_double(e.exact[v]) - 1e-6)
          << "round " << round << " v" << v << ": the strategy reaches " << got[v].get_str() << " of "
          << e.exact[v].get_str();
      with_component_choice += in_component[v] && g.is_active(VertexId{v}) && e.exact[v] > 0;
    }
  }
  EXPECT_GT(with_component_choice, 20);
}

// Rmax above the exact check's limit: the double answer with a proved interval (a super-solution
// of Bellman's equations, a sub-solution of its strategy's) that must hold the exact optimum.
TEST(PropertyPathsBruteForce, RmaxIsCertifiedAboveTheExactLimit) {
  Rng rng(99);
  int finite_between = 0, certified = 0, core_certified = 0;
  for (int round = 0; round < games; ++round) {
    const Case c = random_case(rng, false, round % 3 == 0);
    const TestGraph& g = c.g;
    PropertyQuery q;
    q.kind = PropertyKind::reward;
    q.direction = PropertyDirection::max;
    q.targets = where(c.b);
    PropertyOptions exact_o;
    exact_o.exact = true;
    const PropertyResult e = solve_property(g, q, exact_o);
    PropertyOptions big;
    big.exact_check_vertices = 0;
    big.check_seconds = 0.05;  // value iteration's budget, then policy iteration
    const PropertyResult d = solve_property(g, q, big);
    // The solver core's policy iteration (solve_property's first try) on its own.
    const PropertyResult p = detail::rmax_by_policy_iteration(g, c.b, big);
    if (p.certified) {
      ++core_certified;
      for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
        ASSERT_EQ(p.infinite[v], e.infinite[v]) << "round " << round << " v" << v;
        if (e.infinite[v]) continue;
        ASSERT_LE(Rational(p.lower[v]), e.exact[v]) << "round " << round << " v" << v;
        ASSERT_GE(Rational(p.upper[v]), e.exact[v]) << "round " << round << " v" << v;
      }
    }
    if (!d.certified) {
      // Only a numerically hard case (1e-9 probabilities) may stay uncertified, and says so.
      ASSERT_FALSE(d.not_certified.empty());
      continue;
    }
    ++certified;
    ASSERT_EQ(d.lower.size(), g.num_vertices()) << "round " << round;
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      ASSERT_EQ(d.infinite[v], e.infinite[v]) << "round " << round << " v" << v;
      if (e.infinite[v]) continue;
      ASSERT_LE(Rational(d.lower[v]), e.exact[v])
          << "round " << round << " v" << v << " exact " << e.exact[v].get_str();
      ASSERT_GE(Rational(d.upper[v]), e.exact[v])
          << "round " << round << " v" << v << " exact " << e.exact[v].get_str();
      ASSERT_LE(std::abs(d.value[v] - exact::to_double(e.exact[v])), d.error_bound) << "round " << round;
      finite_between += e.exact[v] > 0;
    }
  }
  EXPECT_GT(finite_between, 50);
  EXPECT_GT(certified, games * 9 / 10);
  EXPECT_GT(core_certified, games * 9 / 10);
}

// The Rmax certificate refuses a value that is not the optimum, even with a strategy that
// achieves it: the upper bound must hold against every edge.
TEST(PropertyPathsBruteForce, RmaxCertificateRefusesASuboptimalAnswer) {
  GraphBuilder b;
  const VertexId v = b.add_vertex("v", VertexKind::active);
  const VertexId p = b.add_vertex("p", VertexKind::passive);
  const VertexId goal = b.add_vertex("goal", VertexKind::active, true);
  b.set_initial(v);
  b.add_edge({.from = v, .to = goal, .label = "cheap", .cost = 1});
  b.add_edge({.from = v, .to = p, .label = "dear", .cost = 5});
  b.add_edge({.from = p, .to = goal, .label = "x", .cost = 0, .weight = 1});
  const TestGraph g = b.build();
  std::vector<std::uint8_t> target(3, 0);
  target[goal.index()] = 1;
  PropertyResult r;
  r.value = {1, 0, 0};
  r.infinite.assign(3, 0);
  r.strategy = {g.out_edges(v)[0], EdgeId::none(), EdgeId::none()};
  EXPECT_FALSE(detail::certify_rmax(g, target, r));
  EXPECT_FALSE(r.certified);
  r.value = {5, 0, 0};
  r.strategy = {g.out_edges(v)[1], EdgeId::none(), EdgeId::none()};
  ASSERT_TRUE(detail::certify_rmax(g, target, r));
  EXPECT_LE(r.lower[0], 5);
  EXPECT_GE(r.upper[0], 5);
}

// Rmax where most moves cost nothing (as the wireless LAN's expected time, where only the clock's
// ticks cost and a widening by multiples of the values did not close: docs/performance.md): a random
// walk on a line absorbed at both ends, at each state a free fair step or a costly biased one. The
// solver core's policy iteration on its own, with the widening by the most expected moves from its
// second policy iteration (no time for Gauss-Seidel sweeps): certified, the proved interval holds
// the exact optimum, and it is tight.
TEST(PropertyPathsBruteForce, RmaxOverZeroCostMovesIsCertified) {
  for (const std::uint32_t len : {40u, 400u}) {
    GraphBuilder b;
    std::vector<VertexId> s;
    for (std::uint32_t i = 0; i <= len; ++i)
      s.push_back(b.add_vertex("s" + std::to_string(i), VertexKind::active, i == 0 || i == len));
    b.set_initial(s[len / 2]);
    for (std::uint32_t i = 1; i < len; ++i) {
      const VertexId fair = b.add_vertex("f" + std::to_string(i), VertexKind::passive);
      const VertexId tick = b.add_vertex("t" + std::to_string(i), VertexKind::passive);
      b.add_edge({.from = s[i], .to = fair, .label = "fair"});
      b.add_edge({.from = s[i], .to = tick, .label = "tick"});
      b.add_edge({.from = fair, .to = s[i - 1], .label = "l", .weight = 0.5});
      b.add_edge({.from = fair, .to = s[i + 1], .label = "r", .weight = 0.5});
      b.add_edge({.from = tick, .to = s[i - 1], .label = "l", .cost = 1, .weight = 0.3});
      b.add_edge({.from = tick, .to = s[i + 1], .label = "r", .cost = 1, .weight = 0.7});
    }
    const TestGraph g = b.build();
    PropertyQuery q;
    q.kind = PropertyKind::reward;
    q.direction = PropertyDirection::max;
    q.targets = {s[0], s[len]};
    std::vector<std::uint8_t> target(g.num_vertices(), 0);
    target[s[0].index()] = target[s[len].index()] = 1;
    PropertyOptions o;
    o.check_seconds = 0;  // no time for Gauss-Seidel sweeps: the widening comes from policy iteration
    const PropertyResult d = detail::rmax_by_policy_iteration(g, target, o);
    ASSERT_TRUE(d.certified) << len << ": " << d.not_certified;
    ASSERT_EQ(d.lower.size(), g.num_vertices());
    double top = 0;
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      ASSERT_LE(d.lower[v], d.value[v]);
      ASSERT_GE(d.upper[v], d.value[v]);
      top = std::max(top, d.value[v]);
    }
    EXPECT_GT(top, len / 4.0);  // the costly steps are worth taking far from the right end
    // About (the checks' rounding) x (the most expected moves): 600 000 moves on the long line.
    EXPECT_LE(d.error_bound, 1e-7 * top) << len;
    if (len > 40) continue;
    PropertyOptions exact_o;
    exact_o.exact = true;
    const PropertyResult e = solve_property(g, q, exact_o);
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      ASSERT_LE(Rational(d.lower[v]), e.exact[v]) << "v" << v;
      ASSERT_GE(Rational(d.upper[v]), e.exact[v]) << "v" << v;
    }
  }
}

// Rmax on the folded choice model (policy iteration folds MDPs of the PRISM importer's shape from
// 65536 region vertices on): thousands of copies of one random gadget (states choosing among
// choice vertices with costs on the choices' edges), every copy's values within its proved interval
// around the gadget's exact Rmax, at the states and at the folded choice vertices alike.
TEST(PropertyPathsBruteForce, RmaxOnTheFoldedModelHoldsTheExactValues) {
  Rng rng(4242);
  static const double probs[] = {0.1, 0.25, 0.5, 1.0 / 3, 0.7};
  const auto build = [&](std::uint32_t copies, std::uint64_t seed, std::vector<std::uint8_t>& target) {
    GraphBuilder b;
    target.clear();
    for (std::uint32_t k = 0; k < copies; ++k) {
      Rng r(seed);  // the same gadget in every copy
      const std::uint32_t states = 3 + static_cast<std::uint32_t>(r.below(4));
      std::vector<VertexId> s;
      for (std::uint32_t i = 0; i < states; ++i) {
        s.push_back(b.add_vertex(fmt_name(k, "s", i), VertexKind::active));
        target.push_back(i == 0);
      }
      if (k == 0) b.set_initial(s[1]);
      for (std::uint32_t i = 1; i < states; ++i) {
        const std::uint32_t choices = 1 + static_cast<std::uint32_t>(r.below(3));
        for (std::uint32_t j = 0; j < choices; ++j) {
          const VertexId ch = b.add_vertex(fmt_name(k, "c", i * 8 + j), VertexKind::passive);
          target.push_back(0);
          b.add_edge({.from = s[i], .to = ch, .label = "a"});
          const std::uint32_t succ = 1 + static_cast<std::uint32_t>(r.below(3));
          for (std::uint32_t t = 0; t < succ; ++t)
            b.add_edge({.from = ch,
                        .to = s[r.below(states)],
                        .label = "x",
                        .cost = static_cast<double>(r.below(3)),
                        .weight = probs[r.below(5)]});
        }
      }
    }
    return b.build();
  };
  int checked = 0;
  for (int trial = 0; trial < 40 && checked < 2; ++trial) {
    const std::uint64_t seed = rng.below(1u << 30);
    std::vector<std::uint8_t> t1;
    const TestGraph one = build(1, seed, t1);
    PropertyQuery q;
    q.kind = PropertyKind::reward;
    q.direction = PropertyDirection::max;
    for (std::uint32_t v = 0; v < one.num_vertices(); ++v)
      if (t1[v]) q.targets.emplace_back(v);
    PropertyOptions exact_o;
    exact_o.exact = true;
    const PropertyResult e = solve_property(one, q, exact_o);
    std::uint32_t finite_positive = 0;
    for (std::uint32_t v = 0; v < one.num_vertices(); ++v) finite_positive += !e.infinite[v] && e.exact[v] > 0;
    if (finite_positive < 4) continue;  // a gadget with little to check
    const std::uint32_t per = one.num_vertices();
    const std::uint32_t copies = 70000 / finite_positive + 1;
    std::vector<std::uint8_t> target;
    const TestGraph g = build(copies, seed, target);
    const PropertyResult d = detail::rmax_by_policy_iteration(g, target, {});
    ASSERT_TRUE(d.certified) << d.not_certified;
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      const std::uint32_t u = v % per;
      ASSERT_EQ(d.infinite[v], e.infinite[u]) << "v" << v;
      if (e.infinite[u]) continue;
      ASSERT_LE(Rational(d.lower[v]), e.exact[u]) << "v" << v << " exact " << e.exact[u].get_str();
      ASSERT_GE(Rational(d.upper[v]), e.exact[u]) << "v" << v << " exact " << e.exact[u].get_str();
    }
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(PropertyPathsBruteForce, SteadyStateRefusesChoices) {
  GraphBuilder b;
  const VertexId s = b.add_vertex("s", VertexKind::active);
  const VertexId t = b.add_vertex("t", VertexKind::active);
  b.set_initial(s);
  b.add_edge({.from = s, .to = t, .label = "a"});
  b.add_edge({.from = s, .to = s, .label = "b"});
  const TestGraph g = b.build();
  PropertyQuery q;
  q.kind = PropertyKind::steady_state;
  q.targets = {t};
  EXPECT_THROW(solve_property(g, q, {}), UsageError);
}

}  // namespace
