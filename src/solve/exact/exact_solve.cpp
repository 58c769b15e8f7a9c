#include "playtest/solve/exact/exact_solve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "playtest/base/error.hpp"
#include "playtest/solve/exact/linear.hpp"
#include "playtest/solve/exact/property.hpp"
#include "playtest/solve/expected_cost.hpp"

namespace playtest::exact {

ExactNumbers exact_numbers(const TestGraph& g) {
  ExactNumbers x;
  const std::uint32_t m = g.num_edges();
  x.prob.resize(m);
  x.cost.resize(m);
  for (EdgeId e : g.edges()) x.cost[e.index()] = from_double(g.cost(e));
  for (VertexId v : g.vertices()) {
    if (!g.is_passive(v)) continue;
    Rational sum(0);
    for (EdgeId e : g.out_edges(v)) {
      x.prob[e.index()] = from_double(g.probability(e));
      sum += x.prob[e.index()];
    }
    if (sum != 1 && sum != 0)
      for (EdgeId e : g.out_edges(v)) x.prob[e.index()] /= sum;
  }
  return x;
}

namespace {

// The vertices that reach a goal with probability 1 under `strategy` (the complement of what can
// reach, in the strategy's chain, a vertex that cannot reach a goal at all).
std::vector<std::uint8_t> reaches_surely(const TestGraph& g, const std::vector<std::uint8_t>& goal,
                                         std::span<const EdgeId> strategy, std::vector<std::uint8_t>& can) {
  const std::uint32_t n = g.num_vertices();
  auto succ_edges = [&](VertexId v, auto f) {
    if (goal[v.index()]) return;
    if (g.is_passive(v)) {
      for (EdgeId e : g.out_edges(v))
        if (g.probability(e) > 0) f(e);
    } else if (!strategy[v.index()].is_none()) {
      f(strategy[v.index()]);
    }
  };
  // Reverse edges of the chain.
  std::vector<std::vector<std::uint32_t>> pred(n);
  for (VertexId v : g.vertices()) succ_edges(v, [&](EdgeId e) { pred[g.target(e).index()].push_back(v.value); });
  can.assign(n, 0);
  std::vector<std::uint32_t> stack;
  for (std::uint32_t v = 0; v < n; ++v)
    if (goal[v]) can[v] = 1, stack.push_back(v);
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    for (std::uint32_t u : pred[v])
      if (!can[u]) can[u] = 1, stack.push_back(u);
  }
  std::vector<std::uint8_t> bad(n, 0);
  for (std::uint32_t v = 0; v < n; ++v)
    if (!can[v]) bad[v] = 1, stack.push_back(v);
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    for (std::uint32_t u : pred[v])
      if (!bad[u]) bad[u] = 1, stack.push_back(u);
  }
  std::vector<std::uint8_t> sure(n);
  for (std::uint32_t v = 0; v < n; ++v) sure[v] = !bad[v];
  return sure;
}

std::vector<std::uint8_t> goal_flags(const TestGraph& g, std::span<const VertexId> goals) {
  std::vector<std::uint8_t> goal(g.num_vertices(), 0);
  for (VertexId v : goals) {
    if (v.index() >= g.num_vertices()) throw UsageError("goals", "exact: goal vertex id out of range");
    goal[v.index()] = 1;
  }
  return goal;
}

void check_strategy(const TestGraph& g, std::span<const EdgeId> strategy) {
  if (strategy.size() != g.num_vertices())
    throw UsageError("strategy", "exact: one strategy entry per vertex expected");
  for (VertexId v : g.vertices()) {
    const EdgeId e = strategy[v.index()];
    if (!e.is_none() && (e.index() >= g.num_edges() || g.source(e) != v))
      throw UsageError("strategy", "exact: a strategy edge does not leave its vertex");
  }
}

// Solves x_v = c_v + sum p x_t over the vertices marked `solve_for`; the others are 0 in the
// system (goals) or excluded (their value is given by the caller). `reward`: with costs.
std::optional<std::vector<Rational>> solve_chain(const TestGraph& g, const ExactNumbers& x,
                                                 const std::vector<std::uint8_t>& solve_for,
                                                 const std::vector<std::uint8_t>& goal,
                                                 std::span<const EdgeId> strategy, bool reward,
                                                 const std::function<bool()>& cancelled) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint32_t> index(n, std::numeric_limits<std::uint32_t>::max());
  std::uint32_t m = 0;
  for (std::uint32_t v = 0; v < n; ++v)
    if (solve_for[v]) index[v] = m++;
  SparseSystem sys(m);
  for (VertexId v : g.vertices()) {
    const std::uint32_t i = index[v.index()];
    if (i == std::numeric_limits<std::uint32_t>::max()) continue;
    sys.add(i, i, Rational(1));
    auto edge = [&](EdgeId e, const Rational& p) {
      if (reward) sys.add_rhs(i, p * x.cost[e.index()]);
      const std::uint32_t t = g.target(e).index();
      if (index[t] != std::numeric_limits<std::uint32_t>::max())
        sys.add(i, index[t], -p);
      else if (!reward && goal[t])
        sys.add_rhs(i, p);
    };
    if (g.is_passive(v)) {
      for (EdgeId e : g.out_edges(v)) edge(e, x.prob[e.index()]);
    } else {
      edge(strategy[v.index()], Rational(1));
    }
  }
  LinearSolution s = solve(std::move(sys), cancelled);
  if (s.status == LinearSolution::Status::cancelled) return std::nullopt;
  if (s.status != LinearSolution::Status::solved) throw InternalError("exact: a strategy's system is singular");
  std::vector<Rational> out(n);
  for (std::uint32_t v = 0; v < n; ++v)
    if (index[v] != std::numeric_limits<std::uint32_t>::max()) out[v] = std::move(s.x[index[v]]);
  return out;
}

}  // namespace

std::vector<std::optional<Rational>> strategy_cost(const TestGraph& g, const ExactNumbers& x,
                                                   std::span<const VertexId> goals, std::span<const EdgeId> strategy,
                                                   const std::function<bool()>& cancelled) {
  check_strategy(g, strategy);
  const auto goal = goal_flags(g, goals);
  std::vector<std::uint8_t> can;
  auto sure = reaches_surely(g, goal, strategy, can);
  std::vector<std::uint8_t> solve_for(g.num_vertices());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v) solve_for[v] = sure[v] && !goal[v];
  auto values = solve_chain(g, x, solve_for, goal, strategy, true, cancelled);
  if (!values) return {};
  std::vector<std::optional<Rational>> out(g.num_vertices());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
    if (sure[v]) out[v] = goal[v] ? Rational(0) : std::move((*values)[v]);
  return out;
}

std::vector<Rational> strategy_reach_probability(const TestGraph& g, const ExactNumbers& x,
                                                 std::span<const VertexId> goals, std::span<const EdgeId> strategy,
                                                 const std::function<bool()>& cancelled) {
  check_strategy(g, strategy);
  const auto goal = goal_flags(g, goals);
  std::vector<std::uint8_t> can;
  reaches_surely(g, goal, strategy, can);
  // Vertices that cannot reach a goal have probability 0; on the others the chain is absorbed
  // (in a goal or in the probability-0 set) with probability 1, so the system is nonsingular.
  std::vector<std::uint8_t> solve_for(g.num_vertices());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v) solve_for[v] = can[v] && !goal[v];
  auto values = solve_chain(g, x, solve_for, goal, strategy, false, cancelled);
  if (!values) return {};
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
    if (goal[v]) (*values)[v] = 1;
  return std::move(*values);
}

ExpectedCostCheck check_expected_cost(const TestGraph& g, std::span<const VertexId> goals,
                                      std::span<const EdgeId> strategy, std::span<const double> values,
                                      const std::function<bool()>& cancelled) {
  ExpectedCostCheck c;
  const ExactNumbers x = exact_numbers(g);
  c.value = strategy_cost(g, x, goals, strategy, cancelled);
  if (c.value.empty() && g.num_vertices() > 0) return c;
  c.completed = true;
  const auto goal = goal_flags(g, goals);
  // Optimality: every vertex of the region has a finite value, and no edge of an active vertex
  // whose successor is finite is strictly cheaper than the strategy's value.
  c.optimal = true;
  // Where some strategy reaches a goal almost surely (graph algorithms, no arithmetic).
  const std::vector<std::uint8_t> region = almost_sure_region(g, goals);
  for (VertexId v : g.vertices()) {
    if (region[v.index()] && !c.value[v.index()]) {
      c.optimal = false;
      c.improvable = v;
      break;
    }
    if (!g.is_active(v) || goal[v.index()] || !c.value[v.index()]) continue;
    for (EdgeId e : g.out_edges(v)) {
      const auto& t = c.value[g.target(e).index()];
      if (t && x.cost[e.index()] + *t < *c.value[v.index()]) {
        c.optimal = false;
        c.improvable = v;
        break;
      }
    }
    if (!c.optimal) break;
  }
  for (VertexId v : g.vertices()) {
    if (v.index() >= values.size()) break;
    const auto& ex = c.value[v.index()];
    const double y = values[v.index()];
    if (!ex) {
      if (std::isfinite(y)) c.max_abs_error = c.max_rel_error = std::numeric_limits<double>::infinity();
      continue;
    }
    if (!std::isfinite(y)) {
      c.max_abs_error = c.max_rel_error = std::numeric_limits<double>::infinity();
      continue;
    }
    const double err = to_double(abs(*ex - Rational(y)));
    c.max_abs_error = std::max(c.max_abs_error, err);
    c.max_rel_error = std::max(c.max_rel_error, err / std::max(1.0, std::abs(to_double(*ex))));
  }
  return c;
}

ExactOptimum solve_expected_cost_exact(const TestGraph& g, std::span<const VertexId> goals, double seconds) {
  PropertyQuery q{.kind = PropertyKind::reward,
                  .direction = PropertyDirection::min,
                  .targets = std::vector<VertexId>(goals.begin(), goals.end())};
  const PropertyResult r = solve_property(g, q, PropertyOptions{.exact = true, .exact_seconds = seconds});
  ExactOptimum o;
  o.value.resize(g.num_vertices());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
    if (!r.infinite[v]) o.value[v] = r.exact[v];
  o.strategy = r.strategy;
  o.improvements = r.improvements;
  o.evaluations = r.evaluations;
  return o;
}

}  // namespace playtest::exact
