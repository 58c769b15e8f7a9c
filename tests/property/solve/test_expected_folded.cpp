// The certified expected-cost method on the folded MDP (ChoiceFolding::always: passive vertices
// with one active predecessor folded into its edge) against brute force on small random graphs and
// against the vertex-level solver (ChoiceFolding::never) on MDPs shaped like PRISM's, large enough
// for the iterative block solver. Values, strategies and certificates must agree.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/expected_cost.hpp"

using namespace playtest;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// An MDP as the PRISM importer builds it: state s is active vertex "s" with one edge per choice
// to passive vertex "s.c", whose edges carry the choice's distribution. `zero_costs` allows choices
// of cost 0; `goal_every` makes every state with s % goal_every == 0 a goal (and state 0 not).
// Choice 0 leads towards state s - 1 (so the goals are reachable), others at random; with
// `traps`, a few states have no path to a goal.
TestGraph random_mdp(Rng& rng, std::uint32_t states, bool zero_costs, std::uint32_t goal_every, bool traps,
                     std::vector<VertexId>& goals) {
  GraphBuilder b;
  std::vector<VertexId> s(states);
  goals.clear();
  for (std::uint32_t i = 0; i < states; ++i) {
    const bool goal = i > 0 && i % goal_every == 0;
    s[i] = b.add_vertex(std::to_string(i), VertexKind::active, goal);
    if (goal) goals.push_back(s[i]);
  }
  b.set_initial(s[0]);
  for (std::uint32_t i = 0; i < states; ++i) {
    const bool trap = traps && i > 0 && rng.below(50) == 0;
    const std::uint32_t choices = 1 + static_cast<std::uint32_t>(rng.below(3));
    for (std::uint32_t c = 0; c < choices; ++c) {
      const VertexId p = b.add_vertex(std::to_string(i) + "." + std::to_string(c), VertexKind::passive);
      double cost = 1.0 + static_cast<double>(rng.below(20));
      if (zero_costs && rng.below(4) == 0) cost = 0;
      b.add_edge({.from = s[i], .to = p, .label = "c" + std::to_string(c), .cost = cost});
      const std::uint32_t succ = 1 + static_cast<std::uint32_t>(rng.below(3));
      for (std::uint32_t k = 0; k < succ; ++k) {
        std::uint32_t t = static_cast<std::uint32_t>(rng.below(states));
        if (k == 0 && c == 0 && !trap) t = (i + 1) % states;
        if (trap) t = i;
        b.add_edge(
            {.from = p, .to = s[t], .label = "?", .cost = 0, .weight = 1.0 + static_cast<double>(rng.below(100))});
      }
    }
  }
  return b.build();
}

bool near(double a, double b, double tol) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

// Small MDPs: the folded solver against the vertex-level one, and the strategy it returns
// evaluated independently (evaluate_strategy solves the strategy's own linear system).
TEST(ExpectedFolded, SmallMdpsMatchTheVertexLevelSolver) {
  Rng rng(777);
  for (int round = 0; round < 600; ++round) {
    std::vector<VertexId> goals;
    const std::uint32_t states = 2 + static_cast<std::uint32_t>(rng.below(12));
    const bool zero = round % 3 == 0;
    const TestGraph g =
        random_mdp(rng, states, zero, 2 + static_cast<std::uint32_t>(rng.below(5)), round % 2 == 0, goals);
    if (goals.empty()) continue;
    const auto ref = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::never});
    const auto r = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::always});
    ASSERT_TRUE(ref.certified) << "round " << round << ": " << ref.not_certified;
    EXPECT_TRUE(r.certified) << "round " << round << ": " << r.not_certified;
    EXPECT_EQ(r.num_infinite, ref.num_infinite);
    EXPECT_EQ(r.num_region, ref.num_region);
    EXPECT_LE(r.error_bound, 1e-9);
    const auto achieved = evaluate_strategy(g, goals, r.strategy);
    for (VertexId v : g.vertices()) {
      const std::size_t i = v.index();
      ASSERT_TRUE(near(r.value[i], ref.value[i], 1e-9))
          << "round " << round << " vertex " << g.name(v) << ": " << r.value[i] << " vs " << ref.value[i];
      ASSERT_TRUE(near(achieved[i], ref.value[i], 1e-9)) << "round " << round << " vertex " << g.name(v);
      ASSERT_EQ(r.strategy[i].is_none(), ref.strategy[i].is_none()) << "round " << round << " vertex " << g.name(v);
    }
  }
}

// Random graphs with everything the vertex-level tests have (zero-cost cycles, self-loops,
// parallel edges, passive vertices with several predecessors or passive successors): forcing the
// folding never changes the answer.
TEST(ExpectedFolded, RandomGraphsMatchTheVertexLevelSolver) {
  Rng rng(4242);
  for (int round = 0; round < 3000; ++round) {
    GraphBuilder b;
    const std::uint32_t n = 2 + static_cast<std::uint32_t>(rng.below(10));
    std::vector<VertexId> vs;
    std::vector<bool> passive(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      passive[i] = rng.below(2) == 0;
      vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active));
    }
    b.set_initial(vs[0]);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t deg =
          passive[i] ? 1 + static_cast<std::uint32_t>(rng.below(3)) : static_cast<std::uint32_t>(rng.below(4));
      for (std::uint32_t k = 0; k < deg; ++k) {
        const VertexId t = rng.below(6) == 0 ? vs[i] : vs[rng.below(n)];
        const double cost = rng.below(4) == 0 ? 0.0 : static_cast<double>(1 + rng.below(9));
        EdgeSpec e{.from = vs[i], .to = t, .label = "x", .cost = cost};
        if (passive[i]) e.weight = 1.0 + static_cast<double>(rng.below(4));
        b.add_edge(e);
      }
    }
    const TestGraph g = b.build();
    std::vector<VertexId> goals{vs[rng.below(n)]};
    const auto ref = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::never});
    const auto r = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::always});
    EXPECT_EQ(r.certified, ref.certified) << "round " << round;
    EXPECT_EQ(r.num_infinite, ref.num_infinite);
    const auto achieved = evaluate_strategy(g, goals, r.strategy);
    for (VertexId v : g.vertices()) {
      const std::size_t i = v.index();
      ASSERT_TRUE(near(r.value[i], ref.value[i], 1e-9))
          << "round " << round << " vertex " << i << ": " << r.value[i] << " vs " << ref.value[i];
      ASSERT_TRUE(near(achieved[i], ref.value[i], 1e-9)) << "round " << round << " vertex " << i;
    }
  }
}

// MDPs with strongly connected blocks of thousands of states, where the strategy's chain is
// solved by the preconditioned BiCGSTAB rather than by LU: same values as the vertex-level solver
// (whose blocks of this size are solved by Eigen's BiCGSTAB or LU) to 1e-9, and certified.
TEST(ExpectedFolded, LargeBlocksMatchTheVertexLevelSolver) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Rng rng(seed);
    std::vector<VertexId> goals;
    const TestGraph g = random_mdp(rng, 6000, seed == 3, 3000, seed == 2, goals);
    const auto ref = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::never});
    const auto r = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::always});
    ASSERT_TRUE(ref.certified);
    EXPECT_TRUE(r.certified) << "seed " << seed;
    EXPECT_LE(r.error_bound, 1e-9);
    for (VertexId v : g.vertices()) {
      const std::size_t i = v.index();
      ASSERT_TRUE(near(r.value[i], ref.value[i], 1e-9))
          << "seed " << seed << " vertex " << g.name(v) << ": " << r.value[i] << " vs " << ref.value[i];
    }
    const auto achieved = evaluate_strategy(g, goals, r.strategy);
    for (VertexId v : g.vertices()) ASSERT_TRUE(near(achieved[v.index()], ref.value[v.index()], 1e-9));
  }
}

// The folded solver's sweeps, preconditioner and products run on several threads; the answer must
// not depend on how many (the same doubles, the same strategy, the same counts).
TEST(ExpectedFolded, ThreadCountDoesNotChangeAnything) {
  Rng rng(9);
  std::vector<VertexId> goals;
  const TestGraph g = random_mdp(rng, 8000, false, 4000, false, goals);
  const auto one = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::always, .threads = 1});
  ASSERT_TRUE(one.certified);
  for (unsigned threads : {2u, 3u}) {
    const auto r = solve_expected_cost(g, goals, {.fold_choices = ChoiceFolding::always, .threads = threads});
    EXPECT_EQ(r.iterations, one.iterations);
    EXPECT_EQ(r.evaluations, one.evaluations);
    EXPECT_EQ(r.improvements, one.improvements);
    EXPECT_EQ(r.error_bound, one.error_bound);
    EXPECT_EQ(r.residual, one.residual);
    for (VertexId v : g.vertices()) {
      ASSERT_EQ(r.value[v.index()], one.value[v.index()]) << threads << " threads, vertex " << g.name(v);
      ASSERT_EQ(r.strategy[v.index()], one.strategy[v.index()]) << threads << " threads, vertex " << g.name(v);
    }
  }
}

}  // namespace
