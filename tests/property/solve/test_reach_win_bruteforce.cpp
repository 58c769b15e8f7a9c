// Bounded reachability and sure winning against brute force on thousands of random small graphs
// (<= 8 vertices, zero-cost edges, parallel edges, self-loops, dead ends, unreachable goals).
// Probabilities are multiples of 1/8 and costs small integers, so every value is exact in double
// and results are compared with ==.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/sure_winning.hpp"

using namespace playtest;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

struct SmallGame {
  TestGraph g;
  std::vector<VertexId> goals;
};

SmallGame random_small_game(Rng& rng, std::uint32_t max_vertices = 8) {
  const auto n = static_cast<std::uint32_t>(1 + rng.below(max_vertices));
  GraphBuilder b;
  std::vector<VertexId> vs;
  std::vector<bool> passive(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    passive[i] = rng.below(10) < 4;
    vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active));
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto deg = static_cast<std::uint32_t>(passive[i] ? 1 + rng.below(3) : rng.below(4));
    // Split 8 eighths into deg positive parts.
    std::vector<std::uint32_t> parts(deg, 1);
    if (passive[i])
      for (std::uint32_t r = deg; r < 8; ++r) ++parts[rng.below(deg)];
    for (std::uint32_t j = 0; j < deg; ++j) {
      EdgeSpec e{.from = vs[i], .to = vs[rng.below(n)], .label = "a", .cost = static_cast<double>(rng.below(4))};
      if (rng.below(3) == 0) e.cost = 0.0;
      if (passive[i]) e.prob = parts[j] / 8.0;
      b.add_edge(e);
    }
  }
  b.set_initial(vs[0]);
  SmallGame s{b.build(), {}};
  for (std::uint32_t i = 0; i < n; ++i)
    if (rng.below(5) == 0) s.goals.push_back(VertexId{i});
  return s;
}

// --- bounded reachability ---------------------------------------------------------------------

// Prob_S and Cost_S of seed 000 equations (2) and (3) for the strategy S given as choice(v, k).
struct Evaluated {
  std::vector<std::vector<ReachValue>> at;  // [k][v]
};

Evaluated evaluate(const TestGraph& g, const std::vector<std::uint8_t>& goal, std::uint32_t n,
                   const std::function<EdgeId(VertexId, std::uint32_t)>& S) {
  Evaluated ev;
  ev.at.assign(n + 1, std::vector<ReachValue>(g.num_vertices()));
  for (std::uint32_t k = 0; k <= n; ++k)
    for (VertexId u : g.vertices()) {
      ReachValue& x = ev.at[k][u.index()];
      if (goal[u.index()]) {
        x = {1.0, 0.0};
      } else if (k == 0) {
        x = {0.0, 0.0};
      } else if (g.is_passive(u)) {
        x = {0.0, 0.0};
        for (EdgeId e : g.out_edges(u)) {
          const ReachValue& y = ev.at[k - 1][g.target(e).index()];
          x.prob += g.probability(e) * y.prob;
          x.cost = std::max(x.cost, g.cost(e) + y.cost);
        }
      } else {
        const EdgeId e = S(u, k);
        if (e.is_none()) {
          x = {0.0, 0.0};
        } else {
          const ReachValue& y = ev.at[k - 1][g.target(e).index()];
          x = {y.prob, g.cost(e) + y.cost};
        }
      }
    }
  return ev;
}

// Strict lexicographic: probability descending, then cost ascending (on all pairs).
bool lex_less(ReachValue a, ReachValue b) { return a.prob > b.prob || (a.prob == b.prob && a.cost < b.cost); }

void pareto_prune(std::vector<ReachValue>& s) {
  std::sort(s.begin(), s.end(), lex_less);
  std::vector<ReachValue> out;
  for (const ReachValue& x : s)  // decreasing prob: keep x iff its cost beats every kept one
    if (out.empty() || x.cost < out.back().cost) out.push_back(x);
  s = std::move(out);
}

// All (Prob, Cost) pairs achievable from (v, k) by any (even history-dependent) strategy, pruned to
// the Pareto front (higher probability, lower cost). Independent of the solver's dynamic program.
std::vector<std::vector<std::vector<ReachValue>>> achievable(const TestGraph& g, const std::vector<std::uint8_t>& goal,
                                                            std::uint32_t n) {
  std::vector<std::vector<std::vector<ReachValue>>> A(n + 1, std::vector<std::vector<ReachValue>>(g.num_vertices()));
  for (std::uint32_t k = 0; k <= n; ++k)
    for (VertexId u : g.vertices()) {
      auto& s = A[k][u.index()];
      if (goal[u.index()]) {
        s = {{1.0, 0.0}};
      } else if (k == 0) {
        s = {{0.0, 0.0}};
      } else if (g.is_passive(u)) {
        s = {{0.0, -inf}};
        for (EdgeId e : g.out_edges(u)) {
          std::vector<ReachValue> next;
          for (const ReachValue& x : s)
            for (const ReachValue& y : A[k - 1][g.target(e).index()])
              next.push_back({x.prob + g.probability(e) * y.prob, std::max(x.cost, g.cost(e) + y.cost)});
          pareto_prune(next);
          s = std::move(next);
        }
      } else {
        s = {{0.0, 0.0}};  // null: give up
        for (EdgeId e : g.out_edges(u))
          for (const ReachValue& y : A[k - 1][g.target(e).index()]) s.push_back({y.prob, g.cost(e) + y.cost});
        pareto_prune(s);
      }
    }
  return A;
}

std::vector<VertexId> all_vertices(const TestGraph& g) {
  std::vector<VertexId> r(g.vertices().begin(), g.vertices().end());
  return r;
}

TEST(BoundedReachBruteForce, ValuesAreThoseOfTheStrategyAndOptimalLexicographic) {
  Rng rng(2024);
  int nontrivial = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    SmallGame s = random_small_game(rng);
    const TestGraph& g = s.g;
    const auto n = static_cast<std::uint32_t>(rng.below(7));
    std::vector<std::uint8_t> goal(g.num_vertices(), 0);
    for (VertexId v : s.goals) goal[v.index()] = 1;
    const ReachSweep sweep = iter % 2 ? ReachSweep::frontier : ReachSweep::dense;
    BoundedReachResult r =
        solve_bounded_reachability(g, s.goals, {.bound = n, .sweep = sweep, .record = all_vertices(g)});
    ASSERT_EQ(r.bound(), n);
    // Proposition 1: Pr = Prob_S, C = Cost_S at every vertex and k.
    Evaluated ev = evaluate(g, goal, n, [&](VertexId v, std::uint32_t k) { return r.choice(v, k); });
    auto A = achievable(g, goal, n);
    for (std::uint32_t k = 0; k <= n; ++k)
      for (VertexId v : g.vertices()) {
        SCOPED_TRACE("iter " + std::to_string(iter) + " v" + std::to_string(v.value) + " k " + std::to_string(k));
        ASSERT_EQ(r.prob(v, k), ev.at[k][v.index()].prob);
        ASSERT_EQ(r.cost(v, k), ev.at[k][v.index()].cost);
        // Optimal: the lexicographic minimum of everything achievable.
        const ReachValue best = A[k][v.index()].front();
        ASSERT_EQ(r.prob(v, k), best.prob);
        ASSERT_EQ(r.cost(v, k), best.cost);
        if (best.prob > 0 && best.prob < 1) ++nontrivial;
        // The strategy is only defined at active non-goal vertices; it never gives up a chance.
        const EdgeId e = r.choice(v, k);
        if (goal[v.index()] || g.is_passive(v) || k == 0) {
          ASSERT_TRUE(e.is_none());
        } else if (!e.is_none()) {
          ASSERT_EQ(g.source(e), v);
          ASSERT_GT(r.prob(v, k), 0.0);
        } else {
          ASSERT_EQ(r.prob(v, k), 0.0);
        }
      }
    for (VertexId v : g.vertices()) {
      ASSERT_EQ(r.prob(v), r.prob(v, n));
      ASSERT_EQ(r.cost(v), r.cost(v, n));
    }
  }
  EXPECT_GT(nontrivial, 1000);  // the generator does produce genuinely probabilistic games
}

TEST(BoundedReachBruteForce, ProbabilityOrderMaximizesProbability) {
  Rng rng(77);
  for (int iter = 0; iter < 1500; ++iter) {
    SmallGame s = random_small_game(rng);
    const TestGraph& g = s.g;
    const auto n = static_cast<std::uint32_t>(rng.below(7));
    std::vector<std::uint8_t> goal(g.num_vertices(), 0);
    for (VertexId v : s.goals) goal[v.index()] = 1;
    BoundedReachResult r = solve_bounded_reachability(
        g, s.goals,
        {.bound = n, .order = ReachOrder::probability, .sweep = ReachSweep::frontier, .record = all_vertices(g)});
    Evaluated ev = evaluate(g, goal, n, [&](VertexId v, std::uint32_t k) { return r.choice(v, k); });
    auto A = achievable(g, goal, n);
    for (std::uint32_t k = 0; k <= n; ++k)
      for (VertexId v : g.vertices()) {
        SCOPED_TRACE("iter " + std::to_string(iter) + " v" + std::to_string(v.value) + " k " + std::to_string(k));
        ASSERT_EQ(r.prob(v, k), ev.at[k][v.index()].prob);
        ASSERT_EQ(r.cost(v, k), ev.at[k][v.index()].cost);
        ASSERT_EQ(r.prob(v, k), A[k][v.index()].front().prob);
      }
  }
}

// Literal definition of optimality (seed 000 §3.2): the solver's strategy improves every
// step-dependent strategy S(v, k) at every vertex and k. All strategies enumerated on tiny games.
TEST(BoundedReachBruteForce, ImprovesEveryStepDependentStrategy) {
  Rng rng(99);
  int checked_games = 0;
  long strategies = 0;
  while (checked_games < 400) {
    SmallGame s = random_small_game(rng, 5);
    const TestGraph& g = s.g;
    const auto n = static_cast<std::uint32_t>(1 + rng.below(3));
    std::vector<std::uint8_t> goal(g.num_vertices(), 0);
    for (VertexId v : s.goals) goal[v.index()] = 1;
    // Decision slots: (active non-goal vertex, k in 1..n); options: null or an out-edge.
    std::vector<std::pair<VertexId, std::uint32_t>> slots;
    double count = 1;
    for (VertexId v : g.vertices())
      if (!goal[v.index()] && g.is_active(v))
        for (std::uint32_t k = 1; k <= n; ++k) {
          slots.emplace_back(v, k);
          count *= 1 + g.out_degree(v);
        }
    if (count > 3000) continue;
    ++checked_games;
    BoundedReachResult r = solve_bounded_reachability(
        g, s.goals, {.bound = n, .sweep = ReachSweep::frontier, .record = all_vertices(g)});
    std::vector<std::uint32_t> pick(slots.size(), 0);  // 0 = null, i = i-th out-edge
    std::vector<EdgeId> table(static_cast<std::size_t>(g.num_vertices()) * (n + 1), EdgeId::none());
    for (;;) {
      for (std::size_t i = 0; i < slots.size(); ++i) {
        auto [v, k] = slots[i];
        table[v.index() * (n + 1) + k] = pick[i] == 0 ? EdgeId::none() : g.out_edges(v)[pick[i] - 1];
      }
      Evaluated ev = evaluate(g, goal, n, [&](VertexId v, std::uint32_t k) { return table[v.index() * (n + 1) + k]; });
      ++strategies;
      for (std::uint32_t k = 0; k <= n; ++k)
        for (VertexId v : g.vertices()) {
          const ReachValue mine{r.prob(v, k), r.cost(v, k)};
          ASSERT_FALSE(lex_less(ev.at[k][v.index()], mine)) << "a strategy beats the solver at v" << v.value << " k " << k;
          ASSERT_FALSE(LexicographicOrder{}.better(ev.at[k][v.index()], mine));
        }
      std::size_t i = 0;
      for (; i < slots.size(); ++i) {
        if (++pick[i] <= g.out_degree(slots[i].first)) break;
        pick[i] = 0;
      }
      if (i == slots.size()) break;
    }
  }
  EXPECT_GT(strategies, 10000);
}

// The step-by-step solver and the free function agree, and the frontier only shrinks the work.
TEST(BoundedReachBruteForce, FrontierStepsMatchDenseSolvesAtEveryBound) {
  Rng rng(5);
  for (int iter = 0; iter < 300; ++iter) {
    SmallGame s = random_small_game(rng);
    BoundedReachSolver<> solver(s.g, s.goals, {}, ReachSweep::frontier);
    for (std::uint32_t k = 1; k <= 6; ++k) {
      solver.step();
      BoundedReachResult r = solve_bounded_reachability(s.g, s.goals, {.bound = k, .sweep = ReachSweep::dense});
      for (VertexId v : s.g.vertices()) {
        ASSERT_EQ(solver.prob(v), r.prob(v));
        ASSERT_EQ(solver.cost(v), r.cost(v));
        ASSERT_EQ(solver.choice(v), r.choice(v, k));
      }
      // The frontier is exactly the set of vertices whose value changed.
      BoundedReachResult before = solve_bounded_reachability(s.g, s.goals, {.bound = k - 1});
      std::size_t changed = 0;
      for (VertexId v : s.g.vertices())
        changed += before.prob(v) != r.prob(v) || before.cost(v) != r.cost(v);
      ASSERT_EQ(solver.changed().size(), changed);
    }
  }
}

// --- sure winning ------------------------------------------------------------------------------

// Worst-case cost of a memoryless strategy (edge per active non-goal vertex): +inf where some play
// can avoid the goals forever or get stuck.
std::vector<double> certain_cost(const TestGraph& g, const std::vector<std::uint8_t>& goal,
                                 const std::vector<EdgeId>& strategy) {
  const std::uint32_t n = g.num_vertices();
  std::vector<double> c(n, 0.0);
  std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::function<double(std::uint32_t)> go = [&](std::uint32_t u) -> double {
    if (state[u] == 2) return c[u];
    if (state[u] == 1) return inf;  // a cycle the system or the strategy can stay in
    state[u] = 1;
    double r;
    if (goal[u]) {
      r = 0.0;
    } else if (g.is_passive(VertexId{u})) {
      r = 0.0;
      for (EdgeId e : g.out_edges(VertexId{u})) r = std::max(r, g.cost(e) + go(g.target(e).value));
    } else if (strategy[u].is_none()) {
      r = inf;
    } else {
      r = g.cost(strategy[u]) + go(g.target(strategy[u]).value);
    }
    state[u] = 2;
    return c[u] = r;
  };
  for (std::uint32_t u = 0; u < n; ++u) {
    std::fill(state.begin(), state.end(), 0);  // a cycle seen from one root is not final for another
    c[u] = go(u);
  }
  return c;
}

TEST(SureWinBruteForce, EqualsMinimumOverAllMemorylessStrategiesAndMinimaxIteration) {
  Rng rng(31337);
  int winnable_games = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    SmallGame s = random_small_game(rng);
    const TestGraph& g = s.g;
    const std::uint32_t n = g.num_vertices();
    std::vector<std::uint8_t> goal(n, 0);
    for (VertexId v : s.goals) goal[v.index()] = 1;
    SureWinResult r = solve_sure_winning(g, s.goals);
    SCOPED_TRACE("iter " + std::to_string(iter));

    // Brute force 1: every memoryless strategy, per-vertex minimum.
    std::vector<VertexId> act;
    for (VertexId v : g.vertices())
      if (!goal[v.index()] && g.is_active(v) && g.out_degree(v) > 0) act.push_back(v);
    std::vector<std::uint32_t> pick(act.size(), 0);
    std::vector<double> best(n, inf);
    std::vector<EdgeId> strat(n, EdgeId::none());
    for (;;) {
      for (std::size_t i = 0; i < act.size(); ++i) strat[act[i].index()] = g.out_edges(act[i])[pick[i]];
      auto c = certain_cost(g, goal, strat);
      for (std::uint32_t v = 0; v < n; ++v) best[v] = std::min(best[v], c[v]);
      std::size_t i = 0;
      for (; i < act.size(); ++i) {
        if (++pick[i] < g.out_degree(act[i])) break;
        pick[i] = 0;
      }
      if (i == act.size()) break;
    }
    // Brute force 2: minimax value iteration over n rounds (winning within k moves).
    std::vector<double> V(n, inf);
    for (std::uint32_t v = 0; v < n; ++v)
      if (goal[v]) V[v] = 0.0;
    for (std::uint32_t round = 0; round < n + 1; ++round) {
      std::vector<double> W = V;
      for (VertexId u : g.vertices()) {
        if (goal[u.index()]) continue;
        double x = g.is_passive(u) ? 0.0 : inf;
        for (EdgeId e : g.out_edges(u)) {
          const double y = g.cost(e) + V[g.target(e).index()];
          x = g.is_passive(u) ? std::max(x, y) : std::min(x, y);
        }
        if (g.is_active(u) && g.out_degree(u) == 0) x = inf;
        W[u.index()] = x;
      }
      V = W;
    }

    std::uint32_t count = 0;
    for (VertexId v : g.vertices()) {
      SCOPED_TRACE("v" + std::to_string(v.value));
      ASSERT_EQ(r.cost[v.index()], best[v.index()]);
      ASSERT_EQ(r.cost[v.index()], V[v.index()]);
      ASSERT_EQ(r.winnable[v.index()] != 0, best[v.index()] < inf);
      count += r.winnable[v.index()];
      const EdgeId e = r.strategy[v.index()];
      if (goal[v.index()] || g.is_passive(v) || !r.winnable[v.index()]) {
        ASSERT_TRUE(e.is_none());
      } else {
        // Certificate: the strategy edge stays in the winning region and realizes the cost.
        ASSERT_FALSE(e.is_none());
        ASSERT_EQ(g.source(e), v);
        ASSERT_TRUE(r.winnable[g.target(e).index()]);
        ASSERT_EQ(r.cost[v.index()], g.cost(e) + r.cost[g.target(e).index()]);
      }
      if (g.is_passive(v) && !goal[v.index()] && r.winnable[v.index()]) {
        double m = 0.0;
        for (EdgeId d : g.out_edges(v)) {
          ASSERT_TRUE(r.winnable[g.target(d).index()]);
          m = std::max(m, g.cost(d) + r.cost[g.target(d).index()]);
        }
        ASSERT_EQ(r.cost[v.index()], m);
      }
    }
    ASSERT_EQ(r.num_winnable, count);
    // The solver's own strategy achieves its costs (and is certain: no cycles).
    auto own = certain_cost(g, goal, r.strategy);
    for (VertexId v : g.vertices()) ASSERT_EQ(own[v.index()], r.cost[v.index()]);
    if (count > s.goals.size()) ++winnable_games;
  }
  EXPECT_GT(winnable_games, 500);
}

}  // namespace
