// Expected cost against brute force: on thousands of random small graphs (zero-cost edges, parallel
// edges, self-loops, dead ends, unreachable goals), every memoryless strategy is evaluated exactly
// (its linear system solved densely; a strategy that does not reach a goal with probability 1 has
// infinite cost where it fails) and the per-vertex minimum is the optimum. Every method must
// report it and return a strategy that achieves it.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/expected_cost.hpp"

using namespace playtest;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

struct Case {
  TestGraph g;
  std::vector<VertexId> goals;
};

Case random_case(Rng& rng) {
  GraphBuilder b;
  const std::uint32_t n = 1 + static_cast<std::uint32_t>(rng.below(8));
  std::vector<VertexId> vs;
  std::vector<bool> passive(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    passive[i] = rng.below(3) == 0;
    vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active));
  }
  b.set_initial(vs[0]);
  auto cost = [&]() -> double {
    switch (rng.below(4)) {
      case 0: return 0.0;
      case 1: return static_cast<double>(rng.below(10));
      default: return 0.5 + static_cast<double>(rng.below(20)) / 4;
    }
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    // Active vertices may be dead ends; passive ones need at least one edge.
    const std::uint32_t deg = passive[i] ? 1 + static_cast<std::uint32_t>(rng.below(3))
                                         : static_cast<std::uint32_t>(rng.below(4));
    for (std::uint32_t k = 0; k < deg; ++k) {
      // Self-loops and parallel edges come up often with so few vertices.
      const VertexId t = rng.below(6) == 0 ? vs[i] : vs[rng.below(n)];
      EdgeSpec e{.from = vs[i], .to = t, .label = "x", .cost = cost()};
      if (passive[i]) e.weight = 1.0 + static_cast<double>(rng.below(4));
      b.add_edge(e);
    }
  }
  Case c;
  c.g = b.build();
  const std::uint32_t ngoals = static_cast<std::uint32_t>(rng.below(3));  // 0 goals: all infinite
  for (std::uint32_t k = 0; k < ngoals; ++k) c.goals.push_back(vs[rng.below(n)]);
  return c;
}

// Exact cost of a memoryless strategy, independent of the library: the vertices that reach a goal
// with probability 1 are those from which no vertex that cannot reach a goal is reachable.
std::vector<double> brute_evaluate(const TestGraph& g, const std::vector<std::uint8_t>& goal,
                                   const std::vector<EdgeId>& s) {
  const std::uint32_t n = g.num_vertices();
  auto succ = [&](std::uint32_t v, auto&& f) {
    if (goal[v]) return;
    if (g.is_passive(VertexId{v})) {
      for (EdgeId e : g.out_edges(VertexId{v})) f(e);
    } else if (!s[v].is_none()) {
      f(s[v]);
    }
  };
  std::vector<std::uint8_t> can(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) can[v] = goal[v];
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (can[v]) continue;
      bool any = false;
      succ(v, [&](EdgeId e) { any = any || can[g.target(e).index()]; });
      if (any) can[v] = changed = true;
    }
  }
  std::vector<std::uint8_t> doomed(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) doomed[v] = !can[v];
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (doomed[v]) continue;
      bool any = false;
      succ(v, [&](EdgeId e) { any = any || doomed[g.target(e).index()]; });
      if (any) doomed[v] = changed = true;
    }
  }
  Eigen::MatrixXd a = Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (doomed[v] || goal[v]) continue;
    succ(v, [&](EdgeId e) {
      const double p = g.is_passive(VertexId{v}) ? g.probability(e) : 1.0;
      rhs[v] += p * g.cost(e);
      a(v, g.target(e).index()) -= p;
    });
  }
  Eigen::VectorXd x = a.fullPivLu().solve(rhs);
  std::vector<double> out(n);
  for (std::uint32_t v = 0; v < n; ++v) out[v] = doomed[v] ? inf : (goal[v] ? 0.0 : x[v]);
  return out;
}

// Per-vertex minimum over all memoryless strategies; false when there are too many to enumerate.
bool brute_optimum(const TestGraph& g, const std::vector<std::uint8_t>& goal, std::vector<double>& best) {
  const std::uint32_t n = g.num_vertices();
  std::vector<VertexId> choosers;
  double total = 1;
  for (VertexId v : g.vertices())
    if (g.is_active(v) && !goal[v.index()] && g.out_degree(v) > 0) {
      choosers.push_back(v);
      total *= g.out_degree(v);
    }
  if (total > 3000) return false;
  std::vector<EdgeId> s(n, EdgeId::none());
  std::vector<std::uint32_t> digit(choosers.size(), 0);
  best.assign(n, inf);
  for (;;) {
    for (std::size_t k = 0; k < choosers.size(); ++k) s[choosers[k].index()] = g.out_edges(choosers[k])[digit[k]];
    const auto val = brute_evaluate(g, goal, s);
    for (std::uint32_t v = 0; v < n; ++v) best[v] = std::min(best[v], val[v]);
    std::size_t k = 0;
    while (k < choosers.size() && ++digit[k] == g.out_degree(choosers[k])) digit[k++] = 0;
    if (k == choosers.size()) break;
  }
  return true;
}

bool near(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

TEST(ExpectedBruteForce, EveryMethodMatchesEnumerationOfAllStrategies) {
  Rng rng(20240501);
  const ExpectedCostMethod methods[] = {ExpectedCostMethod::certified, ExpectedCostMethod::value_iteration,
                                        ExpectedCostMethod::policy_iteration,
                                        ExpectedCostMethod::linear_programming};
  int checked = 0, with_zero_cycles = 0, with_infinite = 0;
  for (int round = 0; checked < 3000; ++round) {
    ASSERT_LT(round, 20000);
    Case c = random_case(rng);
    std::vector<std::uint8_t> goal(c.g.num_vertices(), 0);
    for (VertexId v : c.goals) goal[v.index()] = 1;
    std::vector<double> best;
    if (!brute_optimum(c.g, goal, best)) continue;
    ++checked;
    for (ExpectedCostMethod m : methods) {
      auto r = solve_expected_cost(c.g, c.goals, {.method = m});
      const auto achieved = brute_evaluate(c.g, goal, r.strategy);
      if (m == ExpectedCostMethod::certified || m == ExpectedCostMethod::policy_iteration) {
        EXPECT_TRUE(r.certified) << "round " << round;
      }
      std::uint32_t infinite = 0;
      for (VertexId v : c.g.vertices()) {
        const std::size_t i = v.index();
        infinite += std::isinf(best[i]);
        ASSERT_TRUE(near(r.value[i], best[i]))
            << "round " << round << " method " << static_cast<int>(m) << " vertex " << i << ": " << r.value[i]
            << " vs brute force " << best[i];
        ASSERT_TRUE(near(achieved[i], best[i]))
            << "round " << round << " method " << static_cast<int>(m) << " vertex " << i
            << ": strategy achieves " << achieved[i] << " vs optimum " << best[i];
        const bool needs_edge = c.g.is_active(v) && !goal[i] && !std::isinf(best[i]);
        ASSERT_EQ(!r.strategy[i].is_none(), needs_edge) << "round " << round << " vertex " << i;
      }
      EXPECT_EQ(r.num_infinite, infinite);
      if (m == ExpectedCostMethod::value_iteration && r.num_zero_cost_components > 0) ++with_zero_cycles;
      if (m == ExpectedCostMethod::certified && infinite > 0) ++with_infinite;
    }
  }
  // The generator must actually exercise the hard cases.
  EXPECT_GT(with_zero_cycles, 100);
  EXPECT_GT(with_infinite, 300);
}

// LP, value iteration and policy iteration agree on larger random graphs (too many strategies to
// enumerate), zero-cost edges included.
TEST(ExpectedBruteForce, MethodsAgreeOnMediumGraphs) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const TestGraph g = generate_random_graph({.vertices = 50 + static_cast<std::uint32_t>(seed * 3),
                                               .passive_fraction = 0.4,
                                               .out_degree = 3,
                                               .goals = 1 + static_cast<std::uint32_t>(seed % 3),
                                               .max_cost = 4,
                                               .min_cost = 0,
                                               .seed = seed});
    const auto goals = g.goals();
    auto ref = solve_expected_cost(g, goals, {.method = ExpectedCostMethod::linear_programming});
    for (ExpectedCostMethod m : {ExpectedCostMethod::certified, ExpectedCostMethod::value_iteration,
                                 ExpectedCostMethod::policy_iteration}) {
      auto r = solve_expected_cost(g, goals, {.method = m});
      const auto achieved = evaluate_strategy(g, goals, r.strategy);
      for (VertexId v : g.vertices()) {
        ASSERT_TRUE(near(r.value[v.index()], ref.value[v.index()]))
            << "seed " << seed << " method " << static_cast<int>(m) << " vertex " << v.index() << ": "
            << r.value[v.index()] << " vs LP " << ref.value[v.index()];
        ASSERT_TRUE(near(achieved[v.index()], ref.value[v.index()])) << "seed " << seed << " vertex " << v.index();
      }
    }
  }
}

}  // namespace
