#include "playtest/solve/exact/exact_fallback.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "playtest/base/error.hpp"
#include "playtest/solve/exact/exact_solve.hpp"

namespace playtest {

ExactFallbackOutcome apply_exact_fallback(const TestGraph& g, SolveReport& r, const ExactFallbackOptions& o) {
  ExactFallbackOutcome out;
  if (r.request.objective != SolveObjective::expected) return out;
  ExpectedCostResult& e = r.expected;
  const std::uint32_t n = g.num_vertices();
  const auto start = std::chrono::steady_clock::now();
  const auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(o.seconds));
  if (r.certified) {
    if (n > o.check_vertices || e.strategy.size() != n) return out;
    const exact::ExpectedCostCheck c = exact::check_expected_cost(
        g, r.request.goals, e.strategy, e.value, [&] { return std::chrono::steady_clock::now() > deadline; });
    if (!c.completed) return out;
    // The certificate promises a relative error of at most 1e-6 (ExpectedCostResult::certified).
    const double bound = std::max(1e-6, e.error_bound);
    if (c.optimal && c.max_rel_error <= bound) {
      out.checked = true;
      return out;
    }
    out.reason = c.optimal ? fmt::format("its values are off the exact ones by {:.3g} (relative), above its bound",
                                         c.max_rel_error)
                           : fmt::format("an edge at vertex '{}' improves on its strategy", g.name(c.improvable));
  } else {
    if (n > o.fallback_vertices) return out;
    out.reason = r.not_certified;
  }
  const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  if (left <= 0) return out;
  exact::ExactOptimum x;
  try {
    x = exact::solve_expected_cost_exact(g, r.request.goals, left);
  } catch (const UsageError&) {
    return out;  // over the budget: the answer stays as it was
  }
  e.value.assign(n, std::numeric_limits<double>::infinity());
  e.num_infinite = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (x.value[v])
      e.value[v] = exact::to_double(*x.value[v]);
    else
      ++e.num_infinite;
  }
  e.num_region = n - e.num_infinite;
  e.strategy = x.strategy;
  e.certified = true;
  e.error_bound = 0;
  e.residual = 0;
  e.evaluations += x.evaluations;
  e.improvements += x.improvements;
  r.certified = true;
  r.not_certified.clear();
  out.replaced = true;
  return out;
}

}  // namespace playtest
