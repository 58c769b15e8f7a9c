// Exact rational arithmetic (issue 23, item 2): decimal literals read exactly, correctly rounded
// conversion back to double, the sparse rational solver against dense elimination, and exact
// solving on chains whose answers are known in closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/exact/linear.hpp"
#include "playtest/solve/exact/property.hpp"
#include "playtest/solve/exact_rational.hpp"
#include "playtest/solve/expected_cost.hpp"

using namespace playtest;
using exact::Rational;

namespace {

Rational q(const char* s) {
  Rational x(s);
  x.canonicalize();
  return x;
}

TEST(ExactRational, DecimalLiteralsAreExact) {
  EXPECT_EQ(*exact::parse_decimal("0.1"), q("1/10"));
  EXPECT_EQ(*exact::parse_decimal("-2.50e2"), Rational(-250));
  EXPECT_EQ(*exact::parse_decimal("1e-9"), q("1/1000000000"));
  EXPECT_EQ(*exact::parse_decimal(".5"), q("1/2"));
  EXPECT_EQ(*exact::parse_decimal("007"), Rational(7));
  EXPECT_EQ(*exact::parse_number("4/6"), q("2/3"));
  for (const char* bad : {"", "-", ".", "1e", "1e+", "abc", "1.2.3", "inf", "nan", "0x10", "1/0", "1e99999"})
    EXPECT_FALSE(exact::parse_number(bad).has_value()) << bad;
}

TEST(ExactRational, ShortestDecimalOfADoubleIsTheLiteral) {
  EXPECT_EQ(exact::from_double(0.1), q("1/10"));
  EXPECT_EQ(exact::from_double(1e-9), q("1/1000000000"));
  EXPECT_EQ(exact::from_double(0.3333), q("3333/10000"));
  EXPECT_EQ(exact::from_double(123456789012345.0), Rational(123456789012345));
  EXPECT_EQ(exact::from_double(-0.75), q("-3/4"));
  // Every 15-digit literal comes back exactly.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t mant = 100000000000000ULL + rng() % 900000000000000ULL;
    const int exp10 = static_cast<int>(rng() % 40) - 30;
    const std::string lit = std::to_string(mant) + "e" + std::to_string(exp10);
    EXPECT_EQ(exact::from_double(std::stod(lit)), *exact::parse_decimal(lit)) << lit;
  }
}

TEST(ExactRational, ToDoubleRoundsCorrectly) {
  EXPECT_EQ(exact::to_double(q("1/3")), 1.0 / 3.0);
  EXPECT_EQ(exact::to_double(q("2/3")), 2.0 / 3.0);
  EXPECT_EQ(exact::to_double(q("1/10")), 0.1);
  EXPECT_EQ(exact::to_double(Rational(0)), 0.0);
  // Halfway between 1 and its successor: ties to even (1); a hair above: up.
  const Rational ulp_half = Rational(1) / Rational(mpz_class(1) << 53);
  EXPECT_EQ(exact::to_double(1 + ulp_half), 1.0);
  EXPECT_EQ(exact::to_double(1 + ulp_half + Rational(1) / Rational(mpz_class(1) << 200)), std::nextafter(1.0, 2.0));
  // Halfway between 1+ulp and 1+2ulp: ties to even (1+2ulp).
  EXPECT_EQ(exact::to_double(1 + 3 * ulp_half), 1.0 + 4 * 0x1p-53);
  // Subnormals and the extremes.
  EXPECT_EQ(exact::to_double(Rational(std::numeric_limits<double>::denorm_min())),
            std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(exact::to_double(Rational(std::numeric_limits<double>::max())), std::numeric_limits<double>::max());
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1e6, 1e6);
  for (int i = 0; i < 5000; ++i) {
    const double x = u(rng) * std::pow(10.0, static_cast<double>(rng() % 600) - 300.0);
    EXPECT_EQ(exact::to_double(Rational(x)), x);
    const double y = u(rng), z = u(rng);
    // IEEE division is correctly rounded: the same double.
    if (z != 0) {
      EXPECT_EQ(exact::to_double(Rational(y) / Rational(z)), y / z);
    }
  }
  EXPECT_EQ(exact::fraction_string(Rational(3)), "3/1");
  EXPECT_EQ(exact::short_string(Rational(3)), "3");
  EXPECT_EQ(exact::fraction_string(q("-6/4")), "-3/2");
}

// Dense Gaussian elimination with row pivoting, for comparison.
std::optional<std::vector<Rational>> dense_solve(std::vector<std::vector<Rational>> a, std::vector<Rational> b) {
  const std::size_t n = b.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    while (p < n && a[p][k] == 0) ++p;
    if (p == n) return std::nullopt;
    std::swap(a[p], a[k]);
    std::swap(b[p], b[k]);
    for (std::size_t i = k + 1; i < n; ++i) {
      if (a[i][k] == 0) continue;
      const Rational f = a[i][k] / a[k][k];
      for (std::size_t j = k; j < n; ++j) a[i][j] -= f * a[k][j];
      b[i] -= f * b[k];
    }
  }
  std::vector<Rational> x(n);
  for (std::size_t k = n; k-- > 0;) {
    Rational s = b[k];
    for (std::size_t j = k + 1; j < n; ++j) s -= a[k][j] * x[j];
    x[k] = s / a[k][k];
  }
  return x;
}

TEST(ExactLinear, SparseSolverMatchesDenseEliminationOnStrategySystems) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 300; ++round) {
    const std::uint32_t n = 1 + static_cast<std::uint32_t>(rng() % 12);
    std::vector<std::vector<Rational>> a(n, std::vector<Rational>(n));
    std::vector<Rational> b(n);
    exact::SparseSystem s(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      // A row of I - P with P substochastic and some mass leaving (so I - P is nonsingular): a
      // random split of 1 - leak among a few columns.
      a[i][i] += 1;
      s.add(i, i, Rational(1));
      const std::uint32_t k = 1 + static_cast<std::uint32_t>(rng() % 3);
      Rational leak(1 + static_cast<long>(rng() % 5), 10);
      leak.canonicalize();
      for (std::uint32_t j = 0; j < k; ++j) {
        const std::uint32_t c = static_cast<std::uint32_t>(rng() % n);
        const Rational p = (1 - leak) / k;
        a[i][c] -= p;
        s.add(i, c, -p);
      }
      b[i] = Rational(static_cast<long>(rng() % 7), 1 + static_cast<long>(rng() % 5));
      b[i].canonicalize();
      s.add_rhs(i, b[i]);
    }
    const auto want = dense_solve(a, b);
    ASSERT_TRUE(want.has_value());
    const exact::LinearSolution got = exact::solve(std::move(s));
    ASSERT_EQ(got.status, exact::LinearSolution::Status::solved);
    EXPECT_EQ(got.x, *want) << "round " << round;
  }
}

TEST(ExactLinear, SingularSystemsAreReported) {
  exact::SparseSystem s(2);
  s.add(0, 0, Rational(1));
  s.add(0, 1, Rational(-1));
  s.add(1, 0, Rational(-1));
  s.add(1, 1, Rational(1));
  EXPECT_EQ(exact::solve(std::move(s)).status, exact::LinearSolution::Status::singular);
  exact::SparseSystem t(3);
  for (std::uint32_t i = 0; i < 3; ++i) t.add(i, i, Rational(1));
  bool asked = false;
  EXPECT_EQ(exact::solve(std::move(t), [&] { return asked = true; }).status, exact::LinearSolution::Status::solved)
      << "fewer than 64 pivots: not asked";
}

// The chain: a -go-> p0; p_i moves forward with probability eps, else back to p0; every
// move costs 1. Expected cost 1 + 1/eps + 1/eps^2 for two forward steps.
TestGraph chain(const std::string& eps, int steps) {
  GraphBuilder b;
  b.add_vertex("a", VertexKind::active);
  for (int i = 0; i < steps; ++i) b.add_vertex("p" + std::to_string(i), VertexKind::passive);
  b.add_vertex("goal", VertexKind::active, true);
  b.set_initial("a");
  b.add_edge({.from = b.vertex_ref("a"), .to = b.vertex_ref("p0"), .label = "go", .cost = 1});
  const double e = std::stod(eps);
  for (int i = 0; i < steps; ++i) {
    const std::string next = i + 1 == steps ? "goal" : "p" + std::to_string(i + 1);
    b.add_edge(
        {.from = b.vertex_ref("p" + std::to_string(i)), .to = b.vertex_ref(next), .label = "f", .cost = 1, .prob = e});
    b.add_edge({.from = b.vertex_ref("p" + std::to_string(i)),
                .to = b.vertex_ref("p0"),
                .label = "b",
                .cost = 1,
                .prob = 1 - e});
  }
  return b.build();
}

TEST(ExactSolve, IllConditionedChainHasItsClosedForm) {
  const TestGraph g = chain("1e-9", 2);
  const auto goals = g.goals();
  const exact::ExactOptimum o = exact::solve_expected_cost_exact(g, goals);
  // From p0: E0 = 1 + eps E1 + (1-eps) E0, E1 = 1 + (1-eps) E0  =>  E0 = (1 + eps)/eps^2.
  const Rational eps = q("1/1000000000");
  ASSERT_TRUE(o.value[1].has_value());
  EXPECT_EQ(*o.value[1], (1 + eps) / (eps * eps));
  EXPECT_EQ(*o.value[0], 1 + (1 + eps) / (eps * eps));  // 1 + 1e9 + 1e18
  EXPECT_EQ(exact::fraction_string(*o.value[0]), "1000000001000000001/1");
  EXPECT_EQ(g.name(o.strategy[0]), "e0");
}

TEST(ExactSolve, StrategyValuesAndTheCheck) {
  // a has two ways to the goal: direct (cost 5) and through a fair coin (cost 1 each toss, heads
  // to the goal, tails back to a): 1 + 1 + E(a)/2... with a choosing the coin: E = 2 + E/2 => 4.
  GraphBuilder b;
  const VertexId a = b.add_vertex("a", VertexKind::active);
  const VertexId c = b.add_vertex("c", VertexKind::passive);
  const VertexId t = b.add_vertex("t", VertexKind::active, true);
  const VertexId d = b.add_vertex("dead", VertexKind::active);
  b.set_initial(a);
  b.add_edge({.from = a, .to = t, .label = "direct", .cost = 5});
  b.add_edge({.from = a, .to = c, .label = "coin", .cost = 1});
  b.add_edge({.from = a, .to = d, .label = "die", .cost = 0});
  b.add_edge({.from = c, .to = t, .label = "h", .cost = 1, .prob = 0.5});
  b.add_edge({.from = c, .to = a, .label = "t", .cost = 1, .prob = 0.5});
  const TestGraph g = b.build();
  const std::vector<VertexId> goals{t};
  const auto x = exact::exact_numbers(g);
  std::vector<EdgeId> direct(g.num_vertices()), coin(g.num_vertices()), die(g.num_vertices());
  direct[a.index()] = *g.find_edge("e0");
  coin[a.index()] = *g.find_edge("e1");
  die[a.index()] = *g.find_edge("e2");
  EXPECT_EQ(*exact::strategy_cost(g, x, goals, direct)[a.index()], 5);
  EXPECT_EQ(*exact::strategy_cost(g, x, goals, coin)[a.index()], 4);
  EXPECT_FALSE(exact::strategy_cost(g, x, goals, die)[a.index()].has_value());
  EXPECT_EQ(exact::strategy_reach_probability(g, x, goals, coin)[c.index()], 1);
  EXPECT_EQ(exact::strategy_reach_probability(g, x, goals, die)[a.index()], 0);
  const auto bad = exact::check_expected_cost(g, goals, direct, std::vector<double>{5, 6, 0, 0});
  EXPECT_TRUE(bad.completed);
  EXPECT_FALSE(bad.optimal);
  EXPECT_EQ(bad.improvable, a);
  const double inf = std::numeric_limits<double>::infinity();
  const auto good = exact::check_expected_cost(g, goals, coin, std::vector<double>{4 + 1e-12, 3, 0, inf});
  EXPECT_TRUE(good.optimal);
  EXPECT_NEAR(good.max_abs_error, 1e-12, 1e-15);
}

// Gambler's ruin as a DTMC: from i, up with p, down with 1 - p; P(reach N before 0) =
// (1 - r^i) / (1 - r^N), r = (1-p)/p; expected steps to absorption (either end) known too.
TestGraph ruin(int n, double p) {
  GraphBuilder b;
  for (int i = 0; i <= n; ++i)
    b.add_vertex(std::to_string(i), i == 0 || i == n ? VertexKind::active : VertexKind::passive, i == n);
  b.set_initial("1");
  for (int i = 1; i < n; ++i) {
    b.add_edge({.from = VertexId(i), .to = VertexId(i + 1), .label = "u", .cost = 1, .prob = p});
    b.add_edge({.from = VertexId(i), .to = VertexId(i - 1), .label = "d", .cost = 1, .prob = 1 - p});
  }
  return b.build();
}

TEST(Property, GamblersRuinProbabilityIsExact) {
  const int n = 10;
  const TestGraph g = ruin(n, 0.4);
  PropertyQuery pq{.kind = PropertyKind::probability, .targets = {VertexId(n)}};
  const PropertyResult r = solve_property(g, pq, {.exact = true});
  const Rational ratio = q("3/2");
  for (int i = 0; i <= n; ++i) {
    Rational ri = 1, rn = 1;
    for (int k = 0; k < i; ++k) ri *= ratio;
    for (int k = 0; k < n; ++k) rn *= ratio;
    EXPECT_EQ(r.exact[i], (1 - ri) / (1 - rn)) << i;
  }
  // The double path is certified by the exact check and agrees.
  const PropertyResult d = solve_property(g, pq);
  EXPECT_TRUE(d.certified);
  EXPECT_EQ(d.exact, r.exact);
  EXPECT_EQ(d.value[3], exact::to_double(r.exact[3]));
  // R: expected steps to reach N is infinite (0 is absorbing with positive probability).
  const PropertyResult rr =
      solve_property(g, {.kind = PropertyKind::reward, .targets = {VertexId(n)}}, {.exact = true});
  EXPECT_TRUE(std::isinf(rr.value[1]));
  // Both ends as targets: expected duration, closed form i/(q-p) - N/(q-p) (1 - r^i)/(1 - r^N).
  const PropertyResult dur =
      solve_property(g, {.kind = PropertyKind::reward, .targets = {VertexId(0), VertexId(n)}}, {.exact = true});
  const Rational pr = q("2/5"), qr = q("3/5");
  for (int i = 1; i < n; ++i) {
    Rational ri = 1, rn = 1;
    for (int k = 0; k < i; ++k) ri *= ratio;
    for (int k = 0; k < n; ++k) rn *= ratio;
    EXPECT_EQ(dur.exact[i], Rational(i) / (qr - pr) - Rational(n) / (qr - pr) * (1 - ri) / (1 - rn)) << i;
  }
}

// A DTMC has no choice: Rmax is Rmin, and above the exact check's limit both are the solver core's
// certified expected cost (herman 15's 32768 states took 474 s on Rmax's policy iteration), with
// proved bounds holding the exact values, infinite where the target is missed with positive
// probability.
TEST(Property, RewardOnADtmcAboveTheExactLimitIsTheCoresExpectedCost) {
  const int n = 10;
  const TestGraph g = ruin(n, 0.4);
  for (const bool both_ends : {true, false}) {
    std::vector<VertexId> targets{VertexId(n)};
    if (both_ends) targets.push_back(VertexId(0));
    const PropertyResult e = solve_property(g, {.kind = PropertyKind::reward, .targets = targets}, {.exact = true});
    for (const PropertyDirection d : {PropertyDirection::max, PropertyDirection::min}) {
      const PropertyResult r = solve_property(g, {.kind = PropertyKind::reward, .direction = d, .targets = targets},
                                              {.exact_check_vertices = 2});
      ASSERT_TRUE(r.certified) << r.not_certified;
      ASSERT_EQ(r.lower.size(), g.num_vertices());
      for (int i = 0; i <= n; ++i) {
        EXPECT_EQ(r.infinite[i], e.infinite[i]) << i;
        if (e.infinite[i]) continue;
        EXPECT_LE(Rational(r.lower[i]), e.exact[i]) << i;
        EXPECT_GE(Rational(r.upper[i]), e.exact[i]) << i;
        EXPECT_LE(std::abs(r.value[i] - exact::to_double(e.exact[i])), r.error_bound) << i;
      }
    }
  }
}

// Above the exact limit, Pmin where the graph decides every vertex (0 or 1) computes nothing more:
// exact values, error 0, and at a probability-0 vertex the choice that avoids the targets (no
// expected-cost solve on a copy of the graph: consensus N=6 `P>=1` took 1.8 GB for it).
TEST(Property, PminDecidedEverywhereByTheGraphIsExactWithoutASolve) {
  GraphBuilder b;
  const VertexId s = b.add_vertex("s", VertexKind::active);
  const VertexId t = b.add_vertex("t", VertexKind::active);
  const VertexId goal = b.add_vertex("goal", VertexKind::active, true);
  const VertexId sink = b.add_vertex("sink", VertexKind::active);
  b.set_initial(s);
  b.add_edge({.from = s, .to = goal, .label = "win", .cost = 1});
  b.add_edge({.from = s, .to = sink, .label = "lose", .cost = 1});
  b.add_edge({.from = t, .to = goal, .label = "only", .cost = 1});
  b.add_edge({.from = sink, .to = sink, .label = "stay", .cost = 1});
  const TestGraph g = b.build();
  const PropertyResult r = solve_property(g, {.direction = PropertyDirection::min, .targets = {goal}},
                                          {.exact_check_vertices = 1});
  ASSERT_TRUE(r.certified) << r.not_certified;
  EXPECT_EQ(r.error_bound, 0);
  EXPECT_EQ(r.evaluations, 0u);
  EXPECT_EQ(r.value, (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(r.num_zero, 2u);
  EXPECT_EQ(r.num_one, 2u);
  EXPECT_EQ(g.label(r.strategy[s.index()]), "lose");
  EXPECT_EQ(r.lower, r.value);
  EXPECT_EQ(r.upper, r.value);
}

// An MDP: from s the scheduler picks "safe" (reach the goal with 1/2, else a sink) or "risky"
// (the goal with 1/10, back to s with 8/10, a sink with 1/10) or "loop" (stay).
// Pmax = 1/2 (safe); Pmin = 0 (loop forever); without loop: Pmin = min(1/2, (1/10)/(2/10)) = 1/2.
TestGraph choices(bool with_loop) {
  GraphBuilder b;
  const VertexId s = b.add_vertex("s", VertexKind::active);
  const VertexId safe = b.add_vertex("safe", VertexKind::passive);
  const VertexId risky = b.add_vertex("risky", VertexKind::passive);
  const VertexId goal = b.add_vertex("goal", VertexKind::active, true);
  const VertexId sink = b.add_vertex("sink", VertexKind::active);
  b.set_initial(s);
  b.add_edge({.from = s, .to = safe, .label = "safe", .cost = 3});
  b.add_edge({.from = s, .to = risky, .label = "risky", .cost = 1});
  if (with_loop) b.add_edge({.from = s, .to = s, .label = "loop", .cost = 0});
  b.add_edge({.from = safe, .to = goal, .label = "g", .cost = 0, .prob = 0.5});
  b.add_edge({.from = safe, .to = sink, .label = "x", .cost = 0, .prob = 0.5});
  b.add_edge({.from = risky, .to = goal, .label = "g", .cost = 0, .prob = 0.1});
  b.add_edge({.from = risky, .to = s, .label = "s", .cost = 0, .prob = 0.8});
  b.add_edge({.from = risky, .to = sink, .label = "x", .cost = 0, .prob = 0.1});
  b.add_edge({.from = sink, .to = sink, .label = "z", .cost = 1});
  return b.build();
}

TEST(Property, PmaxPminAndRewardsOnASmallMdp) {
  const TestGraph g = choices(true);
  const VertexId goal = *g.find_vertex("goal");
  auto solve = [&](PropertyKind k, PropertyDirection d) {
    return solve_property(g, {.kind = k, .direction = d, .targets = {goal}}, {.exact = true});
  };
  const auto pmax = solve(PropertyKind::probability, PropertyDirection::max);
  EXPECT_EQ(pmax.exact[0], q("1/2"));
  EXPECT_EQ(g.label(pmax.strategy[0]), "safe");
  const auto pmin = solve(PropertyKind::probability, PropertyDirection::min);
  EXPECT_EQ(pmin.exact[0], 0);
  EXPECT_EQ(g.label(pmin.strategy[0]), "loop");
  const TestGraph h = choices(false);
  const auto pmin2 = solve_property(h, {.direction = PropertyDirection::min, .targets = {goal}}, {.exact = true});
  EXPECT_EQ(pmin2.exact[0], q("1/2"));
  // Every scheduler misses the goal with positive probability: Rmin and Rmax are infinite.
  EXPECT_TRUE(std::isinf(solve(PropertyKind::reward, PropertyDirection::min).value[0]));
  EXPECT_TRUE(std::isinf(solve(PropertyKind::reward, PropertyDirection::max).value[0]));
  // Step bound in moves: within 2 moves only "safe" or "risky" then goal: max(1/2, 1/10).
  const auto b2 = solve_property(g, {.targets = {goal}, .step_bound = 2}, {.exact = true});
  EXPECT_EQ(b2.exact[0], q("1/2"));
  const auto b2min =
      solve_property(g, {.direction = PropertyDirection::min, .targets = {goal}, .step_bound = 4}, {.exact = true});
  EXPECT_EQ(b2min.exact[0], 0);
  // Reward bound: with budget 1, only "risky" (cost 1) fits, and only once: 1/10.
  const auto rb = solve_property(g, {.targets = {goal}, .reward_bound = 1}, {.exact = true});
  EXPECT_EQ(rb.exact[0], q("1/10"));
  // Budget 2: risky twice: 1/10 + 8/10 * 1/10.
  const auto rb2 = solve_property(g, {.targets = {goal}, .reward_bound = 2}, {.exact = true});
  EXPECT_EQ(rb2.exact[0], q("18/100"));
  // Until: paths may not pass "risky": only safe remains, 1/2; with "safe" forbidden, risky is
  // forbidden, risky repeated: (1/10) / (1 - 8/10) = 1/2 as well.
  const auto un = solve_property(
      g, {.targets = {goal}, .allowed = std::vector<VertexId>{*g.find_vertex("s"), *g.find_vertex("safe")}},
      {.exact = true});
  EXPECT_EQ(un.exact[0], q("1/2"));
  const auto un2 = solve_property(
      g, {.targets = {goal}, .allowed = std::vector<VertexId>{*g.find_vertex("s"), *g.find_vertex("risky")}},
      {.exact = true});
  EXPECT_EQ(un2.exact[0], q("1/2"));  // risky only: (1/10) / (1 - 8/10)
}

TEST(Property, RmaxIsInfiniteWhereASchedulerCanFail) {
  // s: "a" to the goal for cost 2, "b" through a fair coin: heads to the goal (cost 1), tails to s
  // (cost 1), so E = 1 + E/2 => 2 too... make b cost 3 per toss: E_b = 3 + E/2 => 6; Rmax = 6,
  // Rmin = 2. Adding a dead end makes Rmax infinite, Rmin unchanged.
  for (bool dead : {false, true}) {
    GraphBuilder b;
    const VertexId s = b.add_vertex("s", VertexKind::active);
    const VertexId c = b.add_vertex("c", VertexKind::passive);
    const VertexId t = b.add_vertex("t", VertexKind::active, true);
    b.set_initial(s);
    b.add_edge({.from = s, .to = t, .label = "a", .cost = 2});
    b.add_edge({.from = s, .to = c, .label = "b", .cost = 3});
    if (dead) {
      const VertexId d = b.add_vertex("d", VertexKind::active);
      b.add_edge({.from = s, .to = d, .label = "die", .cost = 0});
    }
    b.add_edge({.from = c, .to = t, .label = "h", .cost = 0, .prob = 0.5});
    b.add_edge({.from = c, .to = s, .label = "t", .cost = 0, .prob = 0.5});
    const TestGraph g = b.build();
    const auto rmax = solve_property(
        g, {.kind = PropertyKind::reward, .direction = PropertyDirection::max, .targets = {t}}, {.exact = true});
    const auto rmin = solve_property(
        g, {.kind = PropertyKind::reward, .direction = PropertyDirection::min, .targets = {t}}, {.exact = true});
    EXPECT_EQ(rmin.exact[0], 2);
    if (dead) {
      EXPECT_TRUE(std::isinf(rmax.value[0]));
    } else {
      EXPECT_EQ(rmax.exact[0], 6);
    }
  }
}

TEST(Property, StepBoundedCoinAndItsRoundingBound) {
  // A coin tossed until heads: P(heads within k tosses) = 1 - 2^-k.
  GraphBuilder b;
  const VertexId c = b.add_vertex("c", VertexKind::passive);
  const VertexId h = b.add_vertex("h", VertexKind::active, true);
  b.set_initial(c);
  b.add_edge({.from = c, .to = h, .label = "h", .cost = 0, .prob = 0.5});
  b.add_edge({.from = c, .to = c, .label = "t", .cost = 0, .prob = 0.5});
  const TestGraph g = b.build();
  for (std::uint64_t k : {0u, 1u, 5u, 60u}) {
    const auto r = solve_property(g, {.targets = {h}, .step_bound = k}, {.exact = true});
    Rational want = 1 - Rational(1) / Rational(mpz_class(1) << static_cast<mp_bitcnt_t>(k));
    EXPECT_EQ(r.exact[0], want) << k;
    const auto d = solve_property(g, {.targets = {h}, .step_bound = k});
    EXPECT_TRUE(d.certified);
    EXPECT_LE(std::abs(d.value[0] - exact::to_double(want)), d.error_bound) << k;
  }
}

}  // namespace
