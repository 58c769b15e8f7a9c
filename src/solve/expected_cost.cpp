// Expected cost (seed 001) on the solver core: the almost-sure region by graph algorithms, then one
// choice model (per vertex, or folded for large MDPs) and the methods written once against it
// (solve/core/). The certificate is checked on the test graph's own equations (vertex_residuals),
// independently of the model the values were computed on.
#include "playtest/solve/expected_cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "playtest/base/error.hpp"
#include "solve/core/certificate.hpp"
#include "solve/core/choice_model.hpp"
#include "solve/core/linear_program.hpp"
#include "solve/core/policy_iteration.hpp"
#include "solve/core/qualitative.hpp"
#include "solve/core/value_iteration.hpp"
#include "solve/detail/team.hpp"

namespace playtest {

namespace {

using detail::ChoiceModel;
using detail::model_folded;
using detail::model_outside;
using detail::Team;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t parallel_from = 65536;  // states: below, one thread

std::vector<std::uint8_t> goal_flags(const TestGraph& g, std::span<const VertexId> goals, const char* fn) {
  std::vector<std::uint8_t> is_goal(g.num_vertices(), 0);
  for (VertexId v : goals) {
    if (v.is_none() || v.index() >= g.num_vertices())
      throw UsageError("goals", std::string(fn) + ": goal vertex id out of range");
    is_goal[v.index()] = 1;
  }
  return is_goal;
}

// The region (solve/core's prob1E: the vertices from which the tester reaches a goal with
// probability 1) and, in `order`, its non-goal vertices in the order the last backward search
// reached them (closest to a goal first); attractor edges in `att`.
std::vector<std::uint8_t> region_with_order(const TestGraph& g, std::span<const std::uint8_t> is_goal,
                                            std::vector<VertexId>& order, std::vector<EdgeId>* att) {
  const std::vector<detail::QualStatus> status = detail::graph_status(g, is_goal, {});
  const detail::GraphGame game(g, status);
  std::vector<std::uint32_t> choice, ord;
  std::vector<std::uint8_t> region = detail::prob1_exists(game, att ? &choice : nullptr, &ord);
  order.resize(ord.size());
  for (std::size_t i = 0; i < ord.size(); ++i) order[i] = VertexId{ord[i]};
  if (att) {
    const std::uint32_t n = g.num_vertices();
    att->assign(n, EdgeId::none());
    for (std::uint32_t v = 0; v < n; ++v)
      if (choice[v] != detail::no_choice && g.is_active(VertexId{v})) (*att)[v] = EdgeId{choice[v]};
  }
  return region;
}

// Values of every vertex from the state values: 0 at goals, +inf outside the work set, and a
// folded vertex's expectation over its edges.
void vertex_values(Team& team, const TestGraph& g, const ChoiceModel& m, std::span<const double> x,
                   std::vector<double>& value) {
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  value.resize(nv);
  team.for_parts(nv, [&](std::uint32_t lo, std::uint32_t hi) {
    for (std::uint32_t v = lo; v < hi; ++v) {
      const std::uint32_t i = m.vertex_index[v];
      if (i == model_outside) {
        value[v] = inf;
      } else if (i != model_folded) {
        value[v] = x[i];
      } else {
        double base = 0;
        for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) base += prob[e] * cost[e];
        double s = base;
        for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) s += prob[e] * x[m.vertex_index[tg[e].index()]];
        value[v] = s;
      }
    }
  });
}

// Residuals of the vertex values in the test graph's own equations over the work set: the
// strategy's (active vertices follow `strategy`) and Bellman's (active vertices take the minimum
// over their edges into the work set or a goal). Also the least one-move cost of the strategy.
struct VertexResiduals {
  double policy = 0, bellman = 0, cmin = inf;
};

VertexResiduals vertex_residuals(const TestGraph& g, const ChoiceModel& m, std::span<const double> value,
                                 std::span<const EdgeId> strategy, std::uint32_t lo, std::uint32_t hi) {
  VertexResiduals out;
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  for (std::uint32_t v = lo; v < hi; ++v) {
    const std::uint32_t i = m.vertex_index[v];
    if (i == model_outside || i == m.n) continue;
    if (g.is_passive(VertexId{v})) {
      double base = 0;
      for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) base += prob[e] * cost[e];
      double s = base;
      for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) s += prob[e] * value[tg[e].index()];
      const double r = std::abs(s - value[v]);
      out.policy = std::max(out.policy, r);
      out.bellman = std::max(out.bellman, r);
      out.cmin = std::min(out.cmin, base);
      continue;
    }
    double best = inf;
    for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      if (m.vertex_index[t] == model_outside) continue;
      best = std::min(best, cost[e] + value[t]);
    }
    out.bellman = std::max(out.bellman, std::abs(best - value[v]));
    const EdgeId e = strategy[v];
    if (e.is_none()) continue;
    out.policy = std::max(out.policy, std::abs(cost[e.index()] + value[tg[e.index()].index()] - value[v]));
    out.cmin = std::min(out.cmin, cost[e.index()]);
  }
  return out;
}

VertexResiduals vertex_residuals(Team& team, const TestGraph& g, const ChoiceModel& m, std::span<const double> value,
                                 std::span<const EdgeId> strategy) {
  std::vector<VertexResiduals> parts(team.size());
  team.run([&](unsigned part) {
    const auto lo = static_cast<std::uint32_t>(std::uint64_t{g.num_vertices()} * part / team.size());
    const auto hi = static_cast<std::uint32_t>(std::uint64_t{g.num_vertices()} * (part + 1) / team.size());
    parts[part] = vertex_residuals(g, m, value, strategy, lo, hi);
  });
  VertexResiduals out;
  for (const auto& p : parts) {
    out.policy = std::max(out.policy, p.policy);
    out.bellman = std::max(out.bellman, p.bellman);
    out.cmin = std::min(out.cmin, p.cmin);
  }
  return out;
}

}  // namespace

std::vector<std::uint8_t> almost_sure_region(const TestGraph& g, std::span<const VertexId> goals,
                                             std::vector<EdgeId>* strategy) {
  auto is_goal = goal_flags(g, goals, "almost_sure_region");
  std::vector<VertexId> order;
  return region_with_order(g, is_goal, order, strategy);
}

ExpectedCostResult solve_expected_cost(const TestGraph& g, std::span<const VertexId> goals,
                                       const ExpectedCostOptions& o) {
  if (!(o.epsilon > 0)) throw UsageError("epsilon", "solve_expected_cost: epsilon must be > 0");
  const auto is_goal = goal_flags(g, goals, "solve_expected_cost");
  const std::uint32_t nv = g.num_vertices();
  for (VertexId v : o.trace_vertices)
    if (v.is_none() || v.index() >= nv) throw UsageError("trace", "solve_expected_cost: trace vertex id out of range");
  std::vector<VertexId> order;
  const std::vector<std::uint8_t> in_region = region_with_order(g, is_goal, order, nullptr);
  const bool observed = !o.trace_vertices.empty() || static_cast<bool>(o.on_iteration);
  const bool fold = !observed && (o.fold_choices == ChoiceFolding::always ||
                                  (o.fold_choices == ChoiceFolding::automatic &&
                                   o.method == ExpectedCostMethod::certified && order.size() >= parallel_from));
  Team team(order.size() >= parallel_from ? detail::resolve_threads(o.threads) : 1);
  const ChoiceModel m = fold ? detail::build_folded_model(team, g, is_goal, order, detail::ModelCosts::expected)
                             : detail::build_vertex_model(team, g, is_goal, order, detail::ModelCosts::expected);
  const detail::ModelReverse rev = detail::reverse_model(m);
  const std::uint32_t n = m.n;

  ExpectedCostResult result;
  std::vector<double> x(std::size_t{n} + 1, 0.0);
  std::vector<std::uint32_t> choice;
  detail::PolicyBlocks blocks;
  detail::PolicyIterationStats stats;
  bool evaluated = false;  // x is the exact evaluation of `choice` (policy iteration ran)
  bool stable = false;
  std::vector<std::uint32_t> trace_idx;
  for (VertexId v : o.trace_vertices) trace_idx.push_back(m.vertex_index[v.index()]);
  detail::ValueIterationRequest vi{.epsilon = o.epsilon,
                                   .max_sweeps = o.max_iterations,
                                   .jacobi = o.update == ValueIterationUpdate::jacobi,
                                   .fast = false,
                                   .after_sweep = {},
                                   .on_sweep = o.on_sweep};
  std::vector<double> full;
  if (observed)
    vi.after_sweep = [&](std::uint32_t sweep, std::span<const double> xs) {
      if (!trace_idx.empty() && result.trace.size() < o.max_trace) {
        std::vector<double> row;
        row.reserve(trace_idx.size());
        for (std::uint32_t i : trace_idx) row.push_back(i == model_outside ? inf : xs[i]);
        result.trace.push_back(std::move(row));
      }
      if (o.on_iteration) {
        full.assign(nv, inf);
        for (std::uint32_t v = 0; v < nv; ++v)
          if (m.vertex_index[v] != model_outside) full[v] = xs[m.vertex_index[v]];
        o.on_iteration(sweep, full);
      }
    };
  auto run_policy_iteration = [&] {
    std::vector<double> start = x;
    const auto end =
        detail::policy_iteration(team, m, rev, o.max_iterations, o.improvement_tolerance, choice, x, stats, blocks);
    stable = end == detail::PolicyIterationEnd::stable;
    evaluated = !x.empty();
    if (!evaluated) x = std::move(start);  // the first evaluation failed: keep the estimate
  };
  switch (o.method) {
    case ExpectedCostMethod::value_iteration: {
      const auto out = detail::value_iteration(team, m, vi, x);
      result.iterations = out.sweeps;
      result.num_zero_cost_components = out.zero_cost_components;
      detail::extract_proper(team, m, rev, x, 1e-9, choice);
      break;
    }
    case ExpectedCostMethod::policy_iteration: {
      detail::attractor_strategy(m, rev, choice);
      run_policy_iteration();
      break;
    }
    case ExpectedCostMethod::linear_programming: {
      detail::solve_linear_program(m, x);
      detail::extract_proper(team, m, rev, x, 1e-7, choice);
      break;
    }
    case ExpectedCostMethod::certified: {
      // Close in with value iteration (cheap sweeps), then finish with policy iteration from the
      // greedy proper strategy.
      vi.epsilon = std::max(o.epsilon, o.certified_vi_epsilon);
      vi.max_sweeps = std::min(o.max_iterations, o.certified_vi_sweeps);
      vi.fast = true;
      const auto out = detail::value_iteration(team, m, vi, x);
      result.iterations = out.sweeps;
      result.num_zero_cost_components = out.zero_cost_components;
      detail::extract_proper(team, m, rev, x, 1e-9, choice);
      run_policy_iteration();
      break;
    }
  }
  result.evaluations = stats.evaluations;
  result.improvements = stats.improvements;
  vertex_values(team, g, m, x, result.value);
  result.strategy.assign(nv, EdgeId::none());
  for (std::uint32_t i = 0; i < n; ++i)
    if (!m.passive[i]) result.strategy[m.state_vertex[i].index()] = m.choice_edge[choice[i]];
  const VertexResiduals res = vertex_residuals(team, g, m, result.value, result.strategy);
  result.residual = res.bellman;
  const bool certifying = o.method == ExpectedCostMethod::certified || o.method == ExpectedCostMethod::policy_iteration;
  if (certifying) {
    // The proof, on the graph's own numbers (not the model's), with outward rounding.
    detail::ExpectedCertificate cert =
        detail::certify_expected_cost(g, is_goal, in_region, order, result.value, result.strategy,
                                      o.certificate_tolerance, std::max(res.policy, res.bellman));
    result.certified = cert.certified;
    result.error_bound = cert.upper && cert.lower ? cert.error_bound : -1;
    result.value = std::move(cert.value);
    result.lower_bound = std::move(cert.lower_bound);
    result.upper_bound = std::move(cert.upper_bound);
    if (!cert.certified) {
      result.not_certified = cert.why;
      if (!evaluated)
        result.not_certified += "; the strategy's linear system could not be solved in floating point";
      else if (!stable)
        result.not_certified += "; policy iteration stopped at its iteration limit";
    }
  } else {
    result.not_certified = "method " + std::string(o.method == ExpectedCostMethod::value_iteration ? "vi" : "lp") +
                           " gives no certificate";
    for (VertexId v : order) result.value[v.index()] = std::max(0.0, result.value[v.index()]);
  }
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (m.vertex_index[v] == model_outside)
      ++result.num_infinite;
    else
      ++result.num_region;
  }
  return result;
}

std::vector<double> evaluate_strategy(const TestGraph& g, std::span<const VertexId> goals,
                                      std::span<const EdgeId> strategy) {
  const auto is_goal = goal_flags(g, goals, "evaluate_strategy");
  const std::uint32_t nv = g.num_vertices();
  if (strategy.size() != nv) throw UsageError("strategy", "evaluate_strategy: strategy size differs from the graph");
  const auto src = g.sources();
  // Vertices that can reach a goal under the strategy ...
  std::vector<std::uint8_t> reach(nv, 0);
  std::vector<VertexId> queue;
  auto follows = [&](VertexId u, EdgeId e) {
    return !is_goal[u.index()] && (g.is_passive(u) || strategy[u.index()] == e);
  };
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (is_goal[v]) {
      reach[v] = 1;
      queue.push_back(VertexId{v});
    } else if (g.is_active(VertexId{v}) && !strategy[v].is_none()) {
      const EdgeId e = strategy[v];
      if (e.index() >= g.num_edges() || src[e.index()] != VertexId{v})
        throw UsageError("strategy", "evaluate_strategy: strategy edge does not leave its vertex");
    }
  }
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (EdgeId e : g.in_edges(queue[h])) {
      const VertexId u = src[e.index()];
      if (!reach[u.index()] && follows(u, e)) {
        reach[u.index()] = 1;
        queue.push_back(u);
      }
    }
  // ... and those that cannot reach one that cannot: they reach a goal with probability 1.
  std::vector<std::uint8_t> bad(nv, 0);
  queue.clear();
  for (std::uint32_t v = 0; v < nv; ++v)
    if (!reach[v]) {
      bad[v] = 1;
      queue.push_back(VertexId{v});
    }
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (EdgeId e : g.in_edges(queue[h])) {
      const VertexId u = src[e.index()];
      if (!bad[u.index()] && follows(u, e)) {
        bad[u.index()] = 1;
        queue.push_back(u);
      }
    }
  std::vector<VertexId> order;
  for (std::uint32_t v = 0; v < nv; ++v)
    if (!bad[v] && !is_goal[v]) order.push_back(VertexId{v});
  Team team(1);
  const ChoiceModel m = detail::build_vertex_model(team, g, is_goal, order, detail::ModelCosts::expected);
  std::vector<std::uint32_t> choice(m.n, none32);
  for (std::uint32_t i = 0; i < m.n; ++i) {
    if (m.passive[i]) {
      choice[i] = m.first_choice[i];
      continue;
    }
    const EdgeId e = strategy[m.state_vertex[i].index()];
    for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a)
      if (m.choice_edge[a] == e) choice[i] = a;
    if (choice[i] == none32) throw InternalError("evaluate_strategy: chosen edge left the evaluated set");
  }
  std::vector<double> x;
  const auto blocks = detail::decompose_policy(m, choice);
  if (!detail::solve_policy(team, m, choice, blocks, false, x))
    throw InternalError("evaluate_strategy: the strategy's linear system is singular in floating point");
  std::vector<double> value(nv, inf);
  for (std::uint32_t v = 0; v < nv; ++v)
    if (m.vertex_index[v] != model_outside) value[v] = x[m.vertex_index[v]];
  return value;
}

}  // namespace playtest
