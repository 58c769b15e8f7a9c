// Issue 23's ill-conditioned chains: "certified" only with a proved bound. Each chain must give the
// right value to 1e-6 with a proved bound, or say "not certified" with a non-negative estimate:
// never a negative expected cost, never an exception.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "expected_cost_checker.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"

using namespace playtest;

namespace {

// a -go-> p0; p_i moves forward with probability `fwd`, else back to p0; the last one forward to
// the goal. Every edge costs 1.
TestGraph chain(int steps, double fwd) {
  GraphBuilder b;
  const VertexId a = b.add_vertex("a", VertexKind::active);
  std::vector<VertexId> p;
  for (int i = 0; i < steps; ++i) p.push_back(b.add_vertex("p" + std::to_string(i), VertexKind::passive));
  const VertexId g = b.add_vertex("g", VertexKind::active, true);
  b.set_initial(a);
  b.add_edge({.from = a, .to = p[0], .label = "go", .cost = 1});
  for (int i = 0; i < steps; ++i) {
    const VertexId next = i + 1 < steps ? p[static_cast<std::size_t>(i) + 1] : g;
    b.add_edge({.from = p[static_cast<std::size_t>(i)], .to = next, .label = "?", .cost = 1, .prob = fwd});
    b.add_edge({.from = p[static_cast<std::size_t>(i)], .to = p[0], .label = "?", .cost = 1, .prob = 1 - fwd});
  }
  return b.build();
}

// The exact expected cost from a: from p0 the play needs `steps` forward moves in a row, each with
// probability fwd, restarting at p0 on a failure: (fwd^-steps - 1) / (1 - fwd) moves, plus a's move.
long double chain_value(int steps, long double fwd) { return 1 + (std::pow(fwd, -steps) - 1) / (1 - fwd); }

void expect_sound(const TestGraph& g, ExpectedCostMethod method, long double exact, const std::string& what) {
  const auto goals = g.goals();
  ExpectedCostResult r;
  ASSERT_NO_THROW(r = solve_expected_cost(g, goals, {.method = method})) << what;
  const double x = r.value[g.initial().index()];
  EXPECT_GE(x, 0.0) << what;
  EXPECT_FALSE(std::isnan(x)) << what;
  for (double v : r.value) EXPECT_GE(v, 0.0) << what;
  if (r.certified) {
    EXPECT_GE(r.error_bound, 0) << what;
    EXPECT_LE(r.error_bound, 1e-6) << what;
    EXPECT_LE(std::abs(static_cast<long double>(x) - exact), 1e-6L * exact)
        << what << ": " << x << " vs " << static_cast<double>(exact);
    ASSERT_FALSE(r.lower_bound.empty());
    EXPECT_LE(static_cast<long double>(r.lower_bound[g.initial().index()]), exact * (1 + 1e-15L)) << what;
    EXPECT_GE(static_cast<long double>(r.upper_bound[g.initial().index()]), exact * (1 - 1e-15L)) << what;
  } else {
    EXPECT_FALSE(r.not_certified.empty()) << what;
  }
  // Whatever was proved is true.
  if (!r.lower_bound.empty()) {
    EXPECT_LE(static_cast<long double>(r.lower_bound[g.initial().index()]), exact * (1 + 1e-15L)) << what;
  }
  if (!r.upper_bound.empty()) {
    EXPECT_GE(static_cast<long double>(r.upper_bound[g.initial().index()]), exact * (1 - 1e-15L)) << what;
  }
}

TEST(Certificates, FourVertexChainWithOneInABillion) {
  const TestGraph g = chain(2, 1e-9);
  const long double exact = chain_value(2, 1e-9L);
  EXPECT_NEAR(static_cast<double>(exact / 1e18L), 1.000000001, 1e-12);
  for (auto m : {ExpectedCostMethod::certified, ExpectedCostMethod::policy_iteration,
                 ExpectedCostMethod::value_iteration, ExpectedCostMethod::linear_programming})
    expect_sound(g, m, exact, "1e-9 chain, method " + std::to_string(static_cast<int>(m)));
}

TEST(Certificates, ThreeStepChainWithOneInAMillion) {
  const TestGraph g = chain(3, 1e-6);
  for (auto m : {ExpectedCostMethod::certified, ExpectedCostMethod::policy_iteration,
                 ExpectedCostMethod::value_iteration, ExpectedCostMethod::linear_programming})
    expect_sound(g, m, chain_value(3, 1e-6L), "1e-6 chain, method " + std::to_string(static_cast<int>(m)));
}

TEST(Certificates, SixtyStepChainWithOneInFour) {
  const TestGraph g = chain(60, 0.25);
  for (auto m : {ExpectedCostMethod::certified, ExpectedCostMethod::policy_iteration,
                 ExpectedCostMethod::value_iteration, ExpectedCostMethod::linear_programming})
    expect_sound(g, m, chain_value(60, 0.25L), "60-step chain, method " + std::to_string(static_cast<int>(m)));
}

TEST(Certificates, LinearProgramOnLongChains) {
  for (int steps : {20, 40, 80}) {
    const TestGraph g = chain(steps, 0.5);
    expect_sound(g, ExpectedCostMethod::linear_programming, chain_value(steps, 0.5L),
                 "lp chain " + std::to_string(steps));
  }
}

// A well-conditioned chain is certified, with a tiny proved bound that holds.
TEST(Certificates, WellConditionedChainIsCertifiedTightly) {
  const TestGraph g = chain(5, 0.5);
  const auto goals = g.goals();
  const auto r = solve_expected_cost(g, goals);
  ASSERT_TRUE(r.certified) << r.not_certified;
  EXPECT_LE(r.error_bound, 1e-10);
  const long double exact = chain_value(5, 0.5L);
  EXPECT_LE(std::abs(r.value[g.initial().index()] - exact), 1e-10L * exact);
}

// Bounded reachability carries its a-priori rounding bound, and it holds.
TEST(Certificates, BoundedReachabilityRoundingBound) {
  const TestGraph g = chain(3, 0.5);
  const auto goals = g.goals();
  const auto r = solve_bounded_reachability(g, goals, {.bound = 50});
  EXPECT_GT(r.prob_error_bound(), 0);
  EXPECT_LT(r.prob_error_bound(), 1e-12);
  const auto z = solve_bounded_reachability(g, goals, {.bound = 0});
  EXPECT_EQ(z.prob_error_bound(), 0);
}

}  // namespace
