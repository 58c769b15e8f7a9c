// Qualitative answers by graph algorithms (issue 32, item 1) against brute force: on random small
// MDPs with until sets, dead ends, self-loops and probabilities that double arithmetic cannot keep
// apart from 0 or 1 (a weight of 1e-17 beside 1, 0.1 / 0.9 retry loops), every vertex whose
// probability is exactly 0 or exactly 1 (optimal over every memoryless strategy, evaluated in
// rational arithmetic; step-bounded: by recursion over the steps) must be classified so, its value
// must be exactly 0 or 1, and every comparison must be decided right or said to be unknown; against
// 0 and 1 it must always be decided. Without the exact check (exact_check_vertices = 0) the double
// values have no proved bound: then only the graph may decide.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/exact/property.hpp"
#include "playtest/solve/property_report.hpp"

using namespace playtest;
using exact::Rational;

namespace {

struct Case {
  TestGraph g;    // the model
  TestGraph cut;  // the same with every vertex off the until's left side a dead end (brute force)
  std::vector<VertexId> targets;
  std::optional<std::vector<VertexId>> allowed;
  std::vector<std::uint8_t> is_target, is_allowed;
};

Case random_case(Rng& rng) {
  const std::uint32_t n = 2 + static_cast<std::uint32_t>(rng.below(7));
  std::vector<bool> passive(n);
  for (std::uint32_t i = 0; i < n; ++i) passive[i] = rng.below(2) == 0;
  struct E {
    std::uint32_t from, to;
    double weight;
  };
  std::vector<E> edges;
  // 1e-17 beside 1: a probability 1 - 1e-17 that is 1.0 in double; 0.1 / 0.9: retry loops.
  static const double weights[] = {1, 1, 2, 1e-17, 0.1, 0.9, 1e-9};
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t deg =
        passive[i] ? 1 + static_cast<std::uint32_t>(rng.below(3)) : static_cast<std::uint32_t>(rng.below(3));
    for (std::uint32_t k = 0; k < deg; ++k) {
      const std::uint32_t t = rng.below(4) == 0 ? i : static_cast<std::uint32_t>(rng.below(n));
      edges.push_back({i, t, weights[rng.below(7)]});
    }
  }
  Case c;
  c.is_target.assign(n, 0);
  c.is_allowed.assign(n, 1);
  for (std::uint32_t v = 0; v < n; ++v)
    if (rng.below(4) == 0) c.is_target[v] = 1;
  if (std::find(c.is_target.begin(), c.is_target.end(), 1) == c.is_target.end()) c.is_target[n - 1] = 1;
  const bool until = rng.below(2) == 0;
  if (until)
    for (std::uint32_t v = 0; v < n; ++v) c.is_allowed[v] = rng.below(4) != 0;
  auto build = [&](bool cut) {
    GraphBuilder b;
    std::vector<VertexId> vs;
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool dead = cut && !c.is_target[i] && !c.is_allowed[i];
      vs.push_back(
          b.add_vertex("v" + std::to_string(i), passive[i] && !dead ? VertexKind::passive : VertexKind::active));
    }
    b.set_initial(vs[0]);
    for (const E& e : edges) {
      if (cut && !c.is_target[e.from] && !c.is_allowed[e.from]) continue;
      EdgeSpec s{.from = vs[e.from], .to = vs[e.to], .label = "x"};
      if (passive[e.from]) s.weight = e.weight;
      b.add_edge(s);
    }
    return b.build();
  };
  c.g = build(false);
  c.cut = build(true);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (c.is_target[v]) c.targets.push_back(VertexId{v});
  }
  if (until) {
    c.allowed.emplace();
    for (std::uint32_t v = 0; v < n; ++v)
      if (c.is_allowed[v]) c.allowed->push_back(VertexId{v});
  }
  return c;
}

template <class F>
void for_each_strategy(const TestGraph& g, F f) {
  std::vector<VertexId> choosers;
  for (VertexId v : g.vertices())
    if (g.is_active(v) && g.out_degree(v) > 0) choosers.push_back(v);
  std::vector<EdgeId> s(g.num_vertices(), EdgeId::none());
  std::vector<std::uint32_t> pick(choosers.size(), 0);
  for (;;) {
    for (std::size_t i = 0; i < choosers.size(); ++i) s[choosers[i].index()] = g.out_edges(choosers[i])[pick[i]];
    f(s);
    std::size_t i = 0;
    while (i < choosers.size() && ++pick[i] == g.out_degree(choosers[i])) pick[i++] = 0;
    if (i == choosers.size()) return;
  }
}

// The optimum within k moves, by recursion over the moves (no solver code involved).
std::vector<Rational> bounded_brute(const Case& c, const exact::ExactNumbers& x, bool max, std::uint64_t k) {
  const TestGraph& g = c.g;
  const std::uint32_t n = g.num_vertices();
  std::vector<Rational> cur(n, 0), next(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) cur[v] = c.is_target[v] ? 1 : 0;
  for (std::uint64_t step = 0; step < k; ++step) {
    for (std::uint32_t v = 0; v < n; ++v) {
      const VertexId u{v};
      if (c.is_target[v] || !c.is_allowed[v]) {
        next[v] = cur[v];
        continue;
      }
      if (g.is_passive(u)) {
        Rational s = 0;
        for (EdgeId e : g.out_edges(u)) s += x.prob[e.index()] * cur[g.target(e).index()];
        next[v] = s;
        continue;
      }
      std::optional<Rational> best;
      for (EdgeId e : g.out_edges(u)) {
        const Rational& q = cur[g.target(e).index()];
        if (!best || (max ? q > *best : q < *best)) best = q;
      }
      next[v] = best ? *best : Rational(0);
    }
    cur.swap(next);
  }
  return cur;
}

bool holds(PropertyComparison c, const Rational& x, const Rational& t) {
  switch (c) {
    case PropertyComparison::ge:
      return x >= t;
    case PropertyComparison::gt:
      return x > t;
    case PropertyComparison::le:
      return x <= t;
    case PropertyComparison::lt:
      return x < t;
    case PropertyComparison::query:
      break;
  }
  return false;
}

ProbabilityClass class_of(const Rational& p) {
  return p == 0 ? ProbabilityClass::zero : p == 1 ? ProbabilityClass::one : ProbabilityClass::between;
}

// Checks the classes, the 0 / 1 values and every verdict of `r` against the exact optimum `want`.
// `decided`: every verdict must be decided (the values are certified).
void check(const PropertyResult& r, const std::vector<Rational>& want, bool decided, int& open, int& by_graph) {
  static const Rational thresholds[] = {Rational(0), Rational(1), Rational(1, 2), *exact::parse_decimal("1e-17"),
                                        1 - *exact::parse_decimal("1e-17")};
  static const PropertyComparison comparisons[] = {PropertyComparison::ge, PropertyComparison::gt,
                                                   PropertyComparison::le, PropertyComparison::lt};
  ASSERT_EQ(r.probability_class.size(), want.size());
  for (std::uint32_t v = 0; v < want.size(); ++v) {
    SCOPED_TRACE("vertex v" + std::to_string(v) + " exact " + want[v].get_str());
    EXPECT_EQ(r.probability_class[v], class_of(want[v]));
    if (want[v] == 0) {
      EXPECT_EQ(r.value[v], 0.0);
    }
    if (want[v] == 1) {
      EXPECT_EQ(r.value[v], 1.0);
    }
    for (const Rational& t : thresholds)
      for (PropertyComparison c : comparisons) {
        const PropertyVerdict verdict = property_verdict(r, PropertyKind::probability, VertexId{v}, c, t);
        if (verdict.truth == PropertyTruth::unknown) {
          EXPECT_FALSE(decided) << "threshold " << t.get_str();
          EXPECT_TRUE(t != 0 && t != 1 && class_of(want[v]) == ProbabilityClass::between) << t.get_str();
          ++open;
          continue;
        }
        EXPECT_EQ(verdict.truth == PropertyTruth::yes, holds(c, want[v], t))
            << "threshold " << t.get_str() << " decided by " << verdict.how;
        by_graph += verdict.how == "graph analysis";
      }
  }
}

TEST(QualitativeBruteForce, ZeroAndOneAreDecidedOnTheGraphAndNoVerdictIsWrong) {
  Rng rng(3232);
  int cases = 0, near_one = 0, open = 0, by_graph = 0, ones = 0, pmin_certified = 0;
  for (int round = 0; round < 1000; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const Case c = random_case(rng);
    const std::uint32_t n = c.g.num_vertices();
    const auto x = exact::exact_numbers(c.cut);
    std::vector<std::optional<Rational>> pmax(n), pmin(n);
    for_each_strategy(c.cut, [&](const std::vector<EdgeId>& s) {
      const auto p = exact::strategy_reach_probability(c.cut, x, c.targets, s);
      for (std::uint32_t v = 0; v < n; ++v) {
        if (!pmax[v] || p[v] > *pmax[v]) pmax[v] = p[v];
        if (!pmin[v] || p[v] < *pmin[v]) pmin[v] = p[v];
      }
    });
    ++cases;
    for (bool max : {true, false}) {
      SCOPED_TRACE(max ? "Pmax" : "Pmin");
      std::vector<Rational> want(n);
      for (std::uint32_t v = 0; v < n; ++v) {
        want[v] = max ? *pmax[v] : *pmin[v];
        ones += want[v] == 1;
        near_one += want[v] != 1 && 1 - want[v] < Rational(1, 1000000000);
      }
      const PropertyQuery q{.direction = max ? PropertyDirection::max : PropertyDirection::min,
                            .targets = c.targets,
                            .allowed = c.allowed};
      // The double answer without its exact check (issue 32, item 3): Pmin is the solver core's
      // certified expected cost, Pmax the same on the end-component quotient; their proved bounds
      // must hold the exact value.
      const PropertyResult plain = solve_property(c.g, q, {.exact_check_vertices = 0, .threads = 1});
      if (plain.certified) {
        ++pmin_certified;
        ASSERT_EQ(plain.lower.size(), n);
        for (std::uint32_t v = 0; v < n; ++v) {
          EXPECT_LE(Rational(plain.lower[v]), want[v]) << v;
          EXPECT_GE(Rational(plain.upper[v]), want[v]) << v;
        }
      }
      check(plain, want, false, open, by_graph);
      // With the exact check: every verdict decided.
      const PropertyResult checked = solve_property(c.g, q);
      ASSERT_TRUE(checked.certified) << checked.not_certified;
      check(checked, want, true, open, by_graph);
      // Within k moves.
      const std::uint64_t k = rng.below(6);
      PropertyQuery b = q;
      b.step_bound = k;
      const PropertyResult bounded = solve_property(c.g, b);
      ASSERT_TRUE(bounded.certified);
      const auto bx = exact::exact_numbers(c.g);
      check(bounded, bounded_brute(c, bx, max, k), false, open, by_graph);
    }
  }
  EXPECT_EQ(cases, 1000);
  // The random models do reach the cases the test is about.
  EXPECT_GT(ones, 200);
  EXPECT_GT(near_one, 30);
  std::printf("qualitative: %d probabilities 1, %d within 1e-9 of 1 but below, %d verdicts open, %d by the graph\n",
              ones, near_one, open, by_graph);
  EXPECT_GT(open, 100);
  EXPECT_GT(by_graph, 1000);
  EXPECT_GT(pmin_certified, 1800);  // Pmin and Pmax
}

// The trap the issue found (consensus: "P>=1" answered false from 0.9999999999999998), and its
// mirror: a value 1 - 1e-17 that double arithmetic computes as exactly 1.
TEST(QualitativeBruteForce, ValuesWithinOneEMinusSixteenOfOne) {
  // a passive: weight 1 to the goal, weight 1e-17 to a dead end. b passive: 0.1 to the goal, 0.9
  // back to b (probability 1, a retry loop); c active: to a or to b.
  GraphBuilder bld;
  const VertexId a = bld.add_vertex("a", VertexKind::passive), b = bld.add_vertex("b", VertexKind::passive),
                 c = bld.add_vertex("c", VertexKind::active), goal = bld.add_vertex("goal", VertexKind::active),
                 dead = bld.add_vertex("dead", VertexKind::active);
  bld.set_initial(c);
  bld.add_edge({.from = a, .to = goal, .label = "x", .weight = 1});
  bld.add_edge({.from = a, .to = dead, .label = "y", .weight = 1e-17});
  bld.add_edge({.from = b, .to = goal, .label = "x", .weight = 0.1});
  bld.add_edge({.from = b, .to = b, .label = "y", .weight = 0.9});
  bld.add_edge({.from = c, .to = a, .label = "to_a"});
  bld.add_edge({.from = c, .to = b, .label = "to_b"});
  const TestGraph g = bld.build();
  const PropertyResult mx = solve_property(g, {.targets = {goal}}, {.exact_check_vertices = 0});
  const PropertyResult mn =
      solve_property(g, {.direction = PropertyDirection::min, .targets = {goal}}, {.exact_check_vertices = 0});
  // In double, a's value is 1 (the trap); the graph knows it is below 1.
  EXPECT_GE(mx.value[a.index()], 1 - 1e-16);
  EXPECT_EQ(mx.probability_class[a.index()], ProbabilityClass::between);
  EXPECT_EQ(mx.probability_class[b.index()], ProbabilityClass::one);
  EXPECT_EQ(mx.value[b.index()], 1.0);
  EXPECT_EQ(mx.probability_class[c.index()], ProbabilityClass::one);
  EXPECT_EQ(mn.probability_class[c.index()], ProbabilityClass::between);
  auto verdict = [](const PropertyResult& r, VertexId v, PropertyComparison cmp) {
    return property_verdict(r, PropertyKind::probability, v, cmp, Rational(1)).truth;
  };
  EXPECT_EQ(verdict(mx, a, PropertyComparison::ge), PropertyTruth::no);
  EXPECT_EQ(verdict(mx, a, PropertyComparison::lt), PropertyTruth::yes);
  EXPECT_EQ(verdict(mx, b, PropertyComparison::ge), PropertyTruth::yes);
  EXPECT_EQ(verdict(mx, c, PropertyComparison::ge), PropertyTruth::yes);  // Pmax: choose b
  EXPECT_EQ(verdict(mn, c, PropertyComparison::ge), PropertyTruth::no);   // Pmin: a misses
  // The report: P>=1 from c over all schedulers is false (exit 0), Pmax>=1 true.
  PropertyRequest req;
  req.query = {.direction = PropertyDirection::min, .targets = {goal}};
  req.options.exact_check_vertices = 0;
  req.states = {c};
  req.comparison = PropertyComparison::ge;
  req.threshold = 1;
  req.threshold_text = "1";
  const PropertyReport r = solve_property_report(g, req);
  ASSERT_TRUE(r.holds);
  EXPECT_EQ(*r.holds, PropertyTruth::no);
  EXPECT_TRUE(r.certified);
  EXPECT_EQ(r.decided_by, "graph analysis");
  req.query.direction = PropertyDirection::max;
  const PropertyReport r2 = solve_property_report(g, req);
  EXPECT_EQ(*r2.holds, PropertyTruth::yes);
  EXPECT_TRUE(r2.certified);
  // A threshold strictly inside (0, 1) decided by Pmax's proved bound (the end-component
  // quotient): Pmax at a is 1 / (1 + 1e-17) >= 1/2.
  req.threshold = Rational(1, 2);
  req.threshold_text = "0.5";
  req.states = {a};
  const PropertyReport r3 = solve_property_report(g, req);
  EXPECT_EQ(*r3.holds, PropertyTruth::yes);
  EXPECT_TRUE(r3.certified);
  EXPECT_EQ(r3.decided_by, "proved error bound");
  // A threshold the proved interval straddles (1 - 1e-17): unknown, not certified (exit 5).
  req.threshold = Rational(99999999999999999, 100000000000000000);
  req.threshold_text = "0.99999999999999999";
  const PropertyReport r3b = solve_property_report(g, req);
  EXPECT_EQ(*r3b.holds, PropertyTruth::unknown);
  EXPECT_FALSE(r3b.certified);
  EXPECT_NE(r3b.not_certified.find("only known to lie in"), std::string::npos) << r3b.not_certified;
  // ... and with the exact check it is decided: 1 / (1 + 1e-17) >= 1 - 1e-17.
  req.options.exact_check_vertices = 20000;
  const PropertyReport r4 = solve_property_report(g, req);
  EXPECT_EQ(*r4.holds, PropertyTruth::yes);
  EXPECT_EQ(r4.decided_by, "exact values");
}

// Reward bounds: a passive vertex that loops at no cost reaches the goal with probability 1
// within any budget, though no bound on its number of moves exists (so "surely within B" would be
// wrong); the level-by-level classes say 1.
TEST(QualitativeBruteForce, RewardBoundWithAZeroCostLoopIsProbabilityOne) {
  GraphBuilder bld;
  const VertexId p = bld.add_vertex("p", VertexKind::passive), goal = bld.add_vertex("goal", VertexKind::active),
                 s = bld.add_vertex("s", VertexKind::active), q = bld.add_vertex("q", VertexKind::passive);
  bld.set_initial(s);
  bld.add_edge({.from = p, .to = goal, .label = "x", .cost = 1, .weight = 1});
  bld.add_edge({.from = p, .to = p, .label = "y", .cost = 0, .weight = 1});
  bld.add_edge({.from = s, .to = p, .label = "to_p", .cost = 0});
  bld.add_edge({.from = s, .to = q, .label = "to_q", .cost = 0});
  bld.add_edge({.from = q, .to = goal, .label = "x", .cost = 2, .weight = 1});
  bld.add_edge({.from = q, .to = q, .label = "y", .cost = 1, .weight = 1});
  const TestGraph g = bld.build();
  for (std::uint64_t budget : {0u, 1u, 2u, 3u}) {
    SCOPED_TRACE("budget " + std::to_string(budget));
    const PropertyResult r = solve_property(g, {.targets = {goal}, .reward_bound = budget});
    const PropertyResult e = solve_property(g, {.targets = {goal}, .reward_bound = budget}, {.exact = true});
    EXPECT_EQ(r.probability_class[p.index()], budget >= 1 ? ProbabilityClass::one : ProbabilityClass::zero);
    EXPECT_EQ(r.probability_class[s.index()], budget >= 1 ? ProbabilityClass::one : ProbabilityClass::zero);
    // q needs cost 2 at least, and loses 1 per loop: probability 1/2 with budget 2 or 3.
    EXPECT_EQ(r.probability_class[q.index()], budget >= 2 ? ProbabilityClass::between : ProbabilityClass::zero);
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) EXPECT_EQ(class_of(e.exact[v]), r.probability_class[v]);
  }
}

}  // namespace

namespace {

// Issue 32, item 3 (in part): Rmin above the exact check's limit is the solver core's certified
// expected cost; its proved per-vertex bounds must hold the exact optimum, its infinite vertices be
// the exact ones, and its verdicts never be wrong.
TEST(QualitativeBruteForce, RminAboveTheExactLimitHasProvedBounds) {
  Rng rng(3233);
  int certified = 0, checked = 0;
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    Case c = random_case(rng);
    const std::uint32_t n = c.g.num_vertices();
    const PropertyQuery q{.kind = PropertyKind::reward, .direction = PropertyDirection::min, .targets = c.targets};
    const PropertyResult e = solve_property(c.g, q, {.exact = true});
    const PropertyResult d = solve_property(c.g, q, {.exact_check_vertices = 0, .threads = 1});
    EXPECT_FALSE(d.has_exact);
    for (std::uint32_t v = 0; v < n; ++v) EXPECT_EQ(d.infinite[v], e.infinite[v]) << v;
    if (!d.certified) continue;
    ++certified;
    ASSERT_EQ(d.lower.size(), n);
    for (std::uint32_t v = 0; v < n; ++v) {
      if (e.infinite[v]) continue;
      ++checked;
      EXPECT_LE(Rational(d.lower[v]), e.exact[v]) << v;
      EXPECT_GE(Rational(d.upper[v]), e.exact[v]) << v;
      for (const Rational& t : {e.exact[v], Rational(d.value[v]), Rational(1)})
        for (PropertyComparison cmp : {PropertyComparison::ge, PropertyComparison::lt}) {
          const PropertyVerdict verdict = property_verdict(d, PropertyKind::reward, VertexId{v}, cmp, t);
          if (verdict.truth != PropertyTruth::unknown) {
            EXPECT_EQ(verdict.truth == PropertyTruth::yes, holds(cmp, e.exact[v], t)) << verdict.how;
          }
        }
    }
  }
  EXPECT_GT(certified, 250);
  EXPECT_GT(checked, 200);
}

}  // namespace
