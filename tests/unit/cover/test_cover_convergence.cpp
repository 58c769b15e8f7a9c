#include <gtest/gtest.h>

#include <cmath>

#include "cover_test_support.hpp"
#include "playtest/cover/cover_convergence.hpp"

using namespace playtest;
using namespace playtest::cover_test;

TEST(CoverBound, Figure1) {
  TestGraph g = figure1();
  CoverPolicy policy(g);
  CoverBound b = cover_bound(g, policy.segments());
  ASSERT_TRUE(b.computed);
  EXPECT_EQ(b.num_segments, 2u);
  // Cover(cp, 2) picks each segment with probability 1/2 per iteration: p = 1 - 1/4.
  EXPECT_DOUBLE_EQ(b.p, 0.75);
  EXPECT_DOUBLE_EQ(b.bound(1), 0.5);
  EXPECT_DOUBLE_EQ(b.bound(2), 1 - 2 * 0.0625);
  EXPECT_DOUBLE_EQ(b.bound(0), 0);
  EXPECT_DOUBLE_EQ(b.bound_after_visits(1), 0);
  EXPECT_DOUBLE_EQ(b.bound_after_visits(3), 0.5);
  EXPECT_DOUBLE_EQ(b.bound_after_visits(5), 1 - 2 * 0.0625);
}

TEST(CoverBound, WorkLimit) {
  TestGraph g = figure1();
  CoverPolicy policy(g);
  EXPECT_FALSE(cover_bound(g, policy.segments(), {.max_work = 1}).computed);
}

TEST(Convergence, Figure1SimulationMatchesTheExactProbability) {
  // With the random choice: from s1 the first visit of cp covers one half; each later visit picks
  // a segment at random. Coverage needs both segments plus the first third of the other half...
  // Exactly: visit 1 covers {e1,e5,e7} or {e3,e6,e7}. Then the segment after e8 covers e8,e2,e1,e5,e7
  // and after e9 covers e9,e4,e3,e6,e7. All 9 edges need both e8 and e9 segments: after k visits
  // (k - 1 system choices) the probability is 1 - 2 (1/2)^(k-1) for k >= 2.
  TestGraph g = figure1();
  CoverPolicy policy(g, {.choice = SegmentChoice::random});
  // z = 4.5: each row's interval misses the exact value with probability < 1e-5.
  ConvergenceTable t = simulate_coverage(g, policy, {.runs = 4000, .max_visits = 8, .seed = 5, .z = 4.5});
  ASSERT_EQ(t.rows.size(), 8u);
  for (const ConvergenceRow& r : t.rows) {
    const double exact = r.visits < 2 ? 0.0 : 1 - 2 * std::pow(0.5, r.visits - 1);
    EXPECT_LE(r.low, exact + 1e-12) << r.visits;
    EXPECT_GE(r.high, exact - 1e-12) << r.visits;
    EXPECT_NEAR(r.estimate, exact, 0.04) << r.visits;
  }
  // The smarter default is never worse here: after the first visit, it completes as soon as the
  // system takes the edge it has not taken yet.
  CoverPolicy smart(g);
  ConvergenceTable s = simulate_coverage(g, smart, {.runs = 4000, .max_visits = 8, .seed = 5});
  for (std::size_t k = 0; k < s.rows.size(); ++k) EXPECT_GE(s.rows[k].estimate + 0.04, t.rows[k].estimate);
  // And the bound holds for the simulated random policy.
  CoverBound b = cover_bound(g, policy.segments());
  for (const ConvergenceRow& r : t.rows) EXPECT_GE(r.high, b.bound_after_visits(r.visits)) << r.visits;
}

TEST(Convergence, DeterministicTourIsCoveredAfterOneRound) {
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab"});
  b.add_edge({.from = x, .to = a, .label = "ba"});
  b.add_edge({.from = x, .to = x, .label = "bb"});
  b.set_initial(a);
  TestGraph g = b.build();
  CoverPolicy policy(g);
  ConvergenceTable t = simulate_coverage(g, policy, {.runs = 10, .max_visits = 3});
  for (const ConvergenceRow& r : t.rows) EXPECT_EQ(r.covered_runs, 10u);
  CoverBound cb = cover_bound(g, policy.segments());
  EXPECT_DOUBLE_EQ(cb.p, 1);
  EXPECT_DOUBLE_EQ(cb.bound_after_visits(1), 1);
}

TEST(Convergence, WilsonInterval) {
  Interval i = wilson_interval(50, 100, 1.959963984540054);
  EXPECT_NEAR(i.low, 0.4038, 1e-4);
  EXPECT_NEAR(i.high, 0.5962, 1e-4);
  Interval z = wilson_interval(0, 10, 1.959963984540054);
  EXPECT_DOUBLE_EQ(z.low, 0);
  EXPECT_NEAR(z.high, 0.2775, 1e-4);
  Interval all = wilson_interval(10, 10, 1.959963984540054);
  EXPECT_DOUBLE_EQ(all.high, 1);
  EXPECT_NEAR(all.low, 0.7225, 1e-4);
}
