#include "playtest/solve/solve_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "playtest/base/error.hpp"
#include "playtest/graph/names.hpp"
#include "solve/detail/json_out.hpp"

namespace playtest {

namespace {

std::string fmt_value(double x) { return std::isfinite(x) ? fmt::format("{:.10g}", x) : std::string("inf"); }

void solve_expected(const TestGraph& g, const SolveRequest& q, SolveReport& r) {
  ExpectedCostOptions eo;
  eo.epsilon = q.epsilon;
  eo.method = q.method;
  eo.threads = q.threads;
  if (q.progress) eo.on_sweep = [&](std::uint32_t n) { q.progress(n, 0); };
  r.expected = solve_expected_cost(g, q.goals, eo);
  const ExpectedCostResult& e = r.expected;
  r.certified = e.certified;
  if (!e.certified)
    r.not_certified =
        (q.method == ExpectedCostMethod::value_iteration || q.method == ExpectedCostMethod::linear_programming)
            ? fmt::format("method {} gives no certificate; use --method certified", method_name(q.method))
        : e.error_bound >= 0
            ? fmt::format("{} (proved relative bound {:.3g}, tolerance 1e-6)", e.not_certified, e.error_bound)
            : e.not_certified;
  // A value that overflowed to infinity at a vertex the solver counts as finite is no answer.
  std::uint32_t infinite = 0;
  for (double x : e.value) infinite += !std::isfinite(x);
  if (infinite != e.num_infinite) {
    r.certified = false;
    r.not_certified =
        fmt::format("{} values overflowed the range of double (costs too large)", infinite - e.num_infinite);
  }
  if (q.iterates > 0) {
    // The iterates M^1, M^2, ... of §3's value iteration (Jacobi, from 0) at the reported vertex.
    ExpectedCostOptions to{.method = ExpectedCostMethod::value_iteration,
                           .epsilon = 1e-300,
                           .max_iterations = q.iterates,
                           .update = ValueIterationUpdate::jacobi,
                           .trace_vertices = {q.from},
                           .max_trace = q.iterates};
    const auto tr = solve_expected_cost(g, q.goals, to);
    for (const auto& row : tr.trace) r.iterates.push_back(row[0]);
  }
}

// The summary lines of the text rendering and the summary object of the JSON one.
std::vector<std::string> summary_lines(const TestGraph& g, const SolveReport& r) {
  const SolveRequest& q = r.request;
  const std::uint32_t n = g.num_vertices();
  const VertexId from = q.from;
  std::vector<std::string> lines;
  switch (q.objective) {
    case SolveObjective::expected: {
      const ExpectedCostResult& e = r.expected;
      std::string proved;
      if (!r.certified && !e.lower_bound.empty())
        proved = e.upper_bound.empty()
                     ? fmt::format(" (not certified; proved at least {})", fmt_value(e.lower_bound[from.index()]))
                     : fmt::format(" (not certified; proved between {} and {})", fmt_value(e.lower_bound[from.index()]),
                                   fmt_value(e.upper_bound[from.index()]));
      lines.push_back(
          fmt::format("expected cost from {}: {}{}", g.name(from), fmt_value(e.value[from.index()]), proved));
      lines.push_back(
          fmt::format("vertices with infinite expected cost (no strategy reaches a goal with "
                      "probability 1): {} of {}",
                      e.num_infinite, n));
      lines.push_back(
          fmt::format("method {}: {}; {} value-iteration sweeps, {} policy evaluations, {} improvements, Bellman "
                      "residual {:.3g}{}",
                      method_name(q.method), r.certified ? "certified optimal" : "NOT CERTIFIED", e.iterations,
                      e.evaluations, e.improvements, e.residual,
                      e.error_bound >= 0 ? fmt::format(", relative error bound {:.3g}", e.error_bound) : ""));
      break;
    }
    case SolveObjective::reach:
      lines.push_back(
          fmt::format("bound n = {}: from {} the goal is reached with probability {} at worst-case "
                      "cost {}",
                      q.bound, g.name(from), fmt_value(r.reach.prob(from)), fmt_value(r.reach.cost(from))));
      lines.push_back(fmt::format("vertices with positive probability: {} of {}", r.positive, n));
      lines.push_back(fmt::format("probabilities {} (proved rounding bound {:.3g})",
                                  r.certified ? "certified" : "NOT CERTIFIED", r.reach.prob_error_bound()));
      break;
    case SolveObjective::win:
      lines.push_back(fmt::format("from {}: {}{}", g.name(from),
                                  r.win.winnable[from.index()] ? "winnable, worst-case cost " : "not winnable",
                                  r.win.winnable[from.index()] ? fmt_value(r.win.cost[from.index()]) : ""));
      lines.push_back(fmt::format("winnable vertices: {} of {}", r.win.num_winnable, n));
      break;
  }
  return lines;
}

nlohmann::json summary_json(const TestGraph& g, const SolveReport& r) {
  const SolveRequest& q = r.request;
  nlohmann::json s = nlohmann::json::object();
  switch (q.objective) {
    case SolveObjective::expected: {
      const ExpectedCostResult& e = r.expected;
      s["method"] = std::string(method_name(q.method));
      s["certified"] = r.certified;
      s["iterations"] = e.iterations;
      s["improvements"] = e.improvements;
      s["evaluations"] = e.evaluations;
      s["residual"] = e.residual;
      s["error_bound"] = e.error_bound < 0 ? nlohmann::json(nullptr) : nlohmann::json(e.error_bound);
      s["infinite"] = e.num_infinite;
      s["zero_cost_components"] = e.num_zero_cost_components;
      break;
    }
    case SolveObjective::reach:
      s["bound"] = q.bound;
      s["positive"] = r.positive;
      s["certified"] = r.certified;
      s["error_bound"] = r.reach.prob_error_bound();
      break;
    case SolveObjective::win:
      s["winnable"] = r.win.num_winnable;
      break;
  }
  s["seconds"] = r.seconds;
  if (!r.certified) s["not_certified"] = r.not_certified;
  s["from"] = std::string(g.name(q.from));
  return s;
}

}  // namespace

std::string_view objective_name(SolveObjective objective) {
  switch (objective) {
    case SolveObjective::reach:
      return "reach";
    case SolveObjective::win:
      return "win";
    case SolveObjective::expected:
      break;
  }
  return "expected";
}

std::string_view method_name(ExpectedCostMethod method) {
  switch (method) {
    case ExpectedCostMethod::value_iteration:
      return "vi";
    case ExpectedCostMethod::policy_iteration:
      return "pi";
    case ExpectedCostMethod::linear_programming:
      return "lp";
    case ExpectedCostMethod::certified:
      break;
  }
  return "certified";
}

EdgeId SolveReport::edge(VertexId v) const {
  switch (request.objective) {
    case SolveObjective::expected:
      return expected.strategy[v.index()];
    case SolveObjective::reach:
      return reach.choice(v);
    case SolveObjective::win:
      break;
  }
  return win.strategy[v.index()];
}

std::string SolveReport::note(VertexId v) const {
  switch (request.objective) {
    case SolveObjective::expected:
      return fmt::format("M={}", fmt_value(expected.value[v.index()]));
    case SolveObjective::reach:
      return fmt::format("Pr={} C={}", fmt_value(reach.prob(v)), fmt_value(reach.cost(v)));
    case SolveObjective::win:
      break;
  }
  return win.winnable[v.index()] ? fmt::format("win C={}", fmt_value(win.cost[v.index()])) : std::string("lose");
}

bool SolveReport::lost(VertexId v) const {
  switch (request.objective) {
    case SolveObjective::expected:
      return !std::isfinite(expected.value[v.index()]);
    case SolveObjective::reach:
      return reach.prob(v) == 0;
    case SolveObjective::win:
      break;
  }
  return !win.winnable[v.index()];
}

SolveReport solve(const TestGraph& g, const SolveRequest& q) {
  if (!(q.epsilon > 0) || !std::isfinite(q.epsilon))
    throw UsageError("epsilon", fmt::format("must be a positive number, got {}", q.epsilon));
  SolveReport r;
  r.request = q;
  const auto t0 = std::chrono::steady_clock::now();
  switch (q.objective) {
    case SolveObjective::expected:
      solve_expected(g, q, r);
      break;
    case SolveObjective::reach:
      r.reach = solve_bounded_reachability(
          g, q.goals, {.bound = q.bound, .threads = q.threads, .on_step = [&](std::uint32_t k, std::uint32_t n) {
                         if (q.progress) q.progress(k, n);
                       }});
      for (VertexId v : g.vertices()) r.positive += r.reach.prob(v) > 0;
      // Certified only with the proved rounding bound within the tolerance.
      if (!(r.reach.prob_error_bound() <= 1e-6)) {
        r.certified = false;
        r.not_certified =
            fmt::format("the proved rounding bound {:.3g} on the probabilities is above the tolerance 1e-6",
                        r.reach.prob_error_bound());
      }
      break;
    case SolveObjective::win:
      r.win = solve_sure_winning(g, q.goals);
      break;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void write_solve_text(std::ostream& out, const TestGraph& g, const SolveReport& r, std::uint32_t limit) {
  const SolveObjective obj = r.request.objective;
  const auto& goals = r.request.goals;
  const char* head =
      obj == SolveObjective::expected ? "value" : (obj == SolveObjective::reach ? "prob      cost" : "winnable  cost");
  out << fmt::format("{:<16} {:<8} {:<24} {}\n", "vertex", "kind", head, "strategy");
  std::uint32_t shown = 0;
  for (VertexId v : g.vertices()) {
    if (shown == limit) {
      out << fmt::format("... {} more vertices (--limit, or --json for all)\n", g.num_vertices() - shown);
      break;
    }
    ++shown;
    std::string vals;
    if (obj == SolveObjective::expected)
      vals = fmt_value(r.expected.value[v.index()]);
    else if (obj == SolveObjective::reach)
      vals = fmt::format("{:<9} {}", fmt_value(r.reach.prob(v)), fmt_value(r.reach.cost(v)));
    else
      vals = fmt::format("{:<9} {}", r.win.winnable[v.index()] ? "yes" : "no",
                         r.win.winnable[v.index()] ? fmt_value(r.win.cost[v.index()]) : "-");
    const char* kind = goals.end() != std::find(goals.begin(), goals.end(), v) ? "goal"
                       : g.is_passive(v)                                       ? "passive"
                                                                               : "active";
    // By label where the edge id was generated (e0, e1, ...: meaningless to a reader).
    const EdgeId e = r.edge(v);
    std::string edge_text = "-";
    if (!e.is_none() && generated_edge_id(g.name(e)))
      edge_text = fmt::format("{} -> {}", g.label(e), g.name(g.target(e)));
    else if (!e.is_none())
      edge_text = fmt::format("{} ({} -> {})", g.name(e), g.label(e), g.name(g.target(e)));
    out << fmt::format("{:<16} {:<8} {:<24} {}\n", g.name(v), kind, vals, edge_text);
  }
  out << "\n";
  for (const auto& line : summary_lines(g, r)) out << line << "\n";
  out << fmt::format("solve time: {:.3f} s\n", r.seconds);
  if (!r.certified) out << fmt::format("NOT CERTIFIED: {} (exit code 5)\n", r.not_certified);
  if (!r.iterates.empty()) {
    out << fmt::format("value-iteration iterates M^n[{}] (§3, from M^0 = 0):\n", g.name(r.request.from));
    for (std::size_t k = 0; k < r.iterates.size(); ++k) out << fmt::format("  n={:<4} {:.12g}\n", k + 1, r.iterates[k]);
  }
}

void write_solve_json(std::ostream& out, const TestGraph& g, const SolveReport& r, std::string_view file) {
  const SolveObjective obj = r.request.objective;
  // Everything but the vertices, as nlohmann writes it; "vertices" sorts last among the keys, so
  // the document is this one with its closing brace replaced by the streamed vertex array.
  nlohmann::json j;
  j["objective"] = std::string(objective_name(obj));
  j["file"] = std::string(file);
  j["summary"] = summary_json(g, r);
  nlohmann::json gl = nlohmann::json::array();
  for (VertexId v : r.request.goals) gl.push_back(std::string(g.name(v)));
  j["goals"] = gl;
  if (!r.iterates.empty()) j["iterates"] = r.iterates;
  detail::JsonOut o(out);
  o.document_with_vertices(j, g.num_vertices(), [&](std::uint32_t i) {
    const VertexId v{i};
    const EdgeId e = r.edge(v);
    // Keys in nlohmann's (sorted) order.
    if (obj != SolveObjective::expected) {
      o.raw("  {\n   \"cost\": ");
      if (obj == SolveObjective::reach || r.win.winnable[v.index()])
        o.number(obj == SolveObjective::reach ? r.reach.cost(v) : r.win.cost[v.index()]);
      else
        o.raw("null");
      o.raw(",\n   \"edge\": ");
    } else {
      o.raw("  {\n   \"edge\": ");
    }
    if (e.is_none())
      o.raw("null");
    else
      o.string(g.name(e));
    o.raw(",\n   \"id\": ");
    o.string(g.name(v));
    switch (obj) {
      case SolveObjective::expected:
        o.raw(",\n   \"value\": ");
        o.number(r.expected.value[v.index()]);
        break;
      case SolveObjective::reach:
        o.raw(",\n   \"prob\": ");
        o.number(r.reach.prob(v));
        break;
      case SolveObjective::win:
        o.raw(r.win.winnable[v.index()] ? ",\n   \"winnable\": true" : ",\n   \"winnable\": false");
        break;
    }
    o.raw("\n  }");
  });
}

}  // namespace playtest
