// playtest solve FILE --objective reach|win|expected: the tester's optimal strategy and what it
// achieves from every vertex (seed 000 §3 bounded reachability, §4 sure winning, seed 001 expected
// cost). Text table or --json; --dot draws the strategy.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"
#include "progress.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string objective = "expected";
  std::uint32_t bound = 100;
  unsigned threads = 0;
  std::vector<std::string> goals;
  std::string method = "certified";
  std::string from;
  std::uint32_t iterates = 0;
  double epsilon = 1e-9;
  bool json = false;
  std::string dot;
  std::uint32_t limit = 50;
};

// One row of the result, whatever the objective.
struct Row {
  EdgeId edge;
  double a = 0, b = 0;  // expected: value; reach: prob, cost; win: winnable (0/1), cost
};

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

std::string fmt_value(double x) { return std::isfinite(x) ? fmt::format("{:.10g}", x) : std::string("inf"); }

int run(const Options& o) {
  using clock = std::chrono::steady_clock;
  TestGraph g = load_input(o.input);
  std::vector<VertexId> goals;
  for (const auto& name : o.goals) goals.push_back(vertex_named(g, name, "a goal"));
  if (goals.empty()) goals = g.goals();
  if (goals.empty())
    throw InputError(fmt::format("{}: the graph has no goal vertices; mark some as goals or give --goal ID", o.input.path));
  const VertexId from = o.from.empty() ? g.initial() : vertex_named(g, o.from, "the vertex to report (--from)");
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw UsageError("epsilon", fmt::format("must be a positive number, got {}", o.epsilon));
  bool certified = true;      // every objective but expected is computed exactly
  std::string not_certified;  // why, when not

  const std::uint32_t n = g.num_vertices();
  std::vector<Row> rows(n);
  nlohmann::json summary = nlohmann::json::object();
  std::vector<std::string> summary_lines;
  std::vector<double> iterates;
  const auto t0 = clock::now();
  if (o.objective == "expected") {
    ExpectedCostOptions eo;
    eo.epsilon = o.epsilon;
    if (o.method == "certified") eo.method = ExpectedCostMethod::certified;
    if (o.method == "vi") eo.method = ExpectedCostMethod::value_iteration;
    if (o.method == "pi") eo.method = ExpectedCostMethod::policy_iteration;
    if (o.method == "lp") eo.method = ExpectedCostMethod::linear_programming;
    ProgressLine progress("solve expected: value iteration", "sweeps");
    // The hook copies the values every sweep: only when a progress line is shown.
    if (progress.shown()) eo.on_iteration = [&](std::uint32_t n, std::span<const double>) { progress.update(n); };
    const auto r = solve_expected_cost(g, goals, eo);
    progress.finish();
    certified = r.certified;
    if (!r.certified)
      not_certified = (o.method == "vi" || o.method == "lp")
                          ? fmt::format("method {} gives no certificate; use --method certified", o.method)
                          : fmt::format("error bound {:.3g} above the tolerance 1e-6, or the iteration limit was hit",
                                        r.error_bound);
    // A value that overflowed to infinity at a vertex the solver counts as finite is no answer.
    std::uint32_t infinite = 0;
    for (double x : r.value) infinite += !std::isfinite(x);
    if (infinite != r.num_infinite) {
      certified = false;
      not_certified = fmt::format("{} values overflowed the range of double (costs too large)", infinite - r.num_infinite);
    }
    for (VertexId v : g.vertices()) rows[v.index()] = {r.strategy[v.index()], r.value[v.index()], 0};
    summary["method"] = o.method;
    summary["certified"] = certified;
    summary["iterations"] = r.iterations;
    summary["improvements"] = r.improvements;
    summary["evaluations"] = r.evaluations;
    summary["residual"] = r.residual;
    summary["error_bound"] = r.error_bound < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.error_bound);
    summary["infinite"] = r.num_infinite;
    summary["zero_cost_components"] = r.num_zero_cost_components;
    summary_lines.push_back(fmt::format("expected cost from {}: {}", g.name(from), fmt_value(r.value[from.index()])));
    summary_lines.push_back(fmt::format("vertices with infinite expected cost (no strategy reaches a goal with "
                                        "probability 1): {} of {}", r.num_infinite, n));
    summary_lines.push_back(
        fmt::format("method {}: {}; {} value-iteration sweeps, {} policy evaluations, {} improvements, Bellman "
                    "residual {:.3g}{}",
                    o.method, certified ? "certified optimal" : "NOT CERTIFIED", r.iterations, r.evaluations,
                    r.improvements, r.residual,
                    r.error_bound >= 0 ? fmt::format(", relative error bound {:.3g}", r.error_bound) : ""));
    if (o.iterates > 0) {
      // The iterates M^1, M^2, ... of §3's value iteration (Jacobi, from 0) at the --from vertex.
      ExpectedCostOptions to{.method = ExpectedCostMethod::value_iteration, .epsilon = 1e-300,
                             .max_iterations = o.iterates, .update = ValueIterationUpdate::jacobi,
                             .trace_vertices = {from}, .max_trace = o.iterates};
      const auto tr = solve_expected_cost(g, goals, to);
      for (const auto& row : tr.trace) iterates.push_back(row[0]);
    }
  } else if (o.objective == "reach") {
    ProgressLine progress("solve reach", "steps of the bound");
    const auto r = solve_bounded_reachability(
        g, goals, {.bound = o.bound, .threads = o.threads, .on_step = [&](std::uint32_t k, std::uint32_t n) {
                     progress.update(k, n);
                   }});
    progress.finish();
    std::uint32_t positive = 0;
    for (VertexId v : g.vertices()) {
      rows[v.index()] = {r.choice(v), r.prob(v), r.cost(v)};
      positive += r.prob(v) > 0;
    }
    summary["bound"] = o.bound;
    summary["positive"] = positive;
    summary_lines.push_back(fmt::format("bound n = {}: from {} the goal is reached with probability {} at worst-case "
                                        "cost {}", o.bound, g.name(from), fmt_value(r.prob(from)),
                                        fmt_value(r.cost(from))));
    summary_lines.push_back(fmt::format("vertices with positive probability: {} of {}", positive, n));
  } else {
    const auto r = solve_sure_winning(g, goals);
    for (VertexId v : g.vertices())
      rows[v.index()] = {r.strategy[v.index()], r.winnable[v.index()] ? 1.0 : 0.0, r.cost[v.index()]};
    summary["winnable"] = r.num_winnable;
    summary_lines.push_back(fmt::format("from {}: {}{}", g.name(from),
                                        r.winnable[from.index()] ? "winnable, worst-case cost " : "not winnable",
                                        r.winnable[from.index()] ? fmt_value(r.cost[from.index()]) : ""));
    summary_lines.push_back(fmt::format("winnable vertices: {} of {}", r.num_winnable, n));
  }
  const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
  summary["seconds"] = seconds;
  if (!certified) summary["not_certified"] = not_certified;
  summary["from"] = std::string(g.name(from));

  // By label where the edge id was generated (e0, e1, ...: meaningless to a reader).
  auto edge_text = [&](EdgeId e) {
    if (e.is_none()) return std::string("-");
    if (generated_edge_id(g.name(e))) return fmt::format("{} -> {}", g.label(e), g.name(g.target(e)));
    return fmt::format("{} ({} -> {})", g.name(e), g.label(e), g.name(g.target(e)));
  };
  if (o.json) {
    nlohmann::json j;
    j["objective"] = o.objective;
    j["file"] = o.input.path;
    j["summary"] = summary;
    nlohmann::json gl = nlohmann::json::array();
    for (VertexId v : goals) gl.push_back(std::string(g.name(v)));
    j["goals"] = gl;
    if (!iterates.empty()) j["iterates"] = iterates;
    nlohmann::json vs = nlohmann::json::array();
    for (VertexId v : g.vertices()) {
      const Row& r = rows[v.index()];
      nlohmann::json x;
      x["id"] = std::string(g.name(v));
      x["edge"] = r.edge.is_none() ? nlohmann::json(nullptr) : nlohmann::json(std::string(g.name(r.edge)));
      if (o.objective == "expected") {
        x["value"] = number_or_null(r.a);
      } else if (o.objective == "reach") {
        x["prob"] = r.a;
        x["cost"] = number_or_null(r.b);
      } else {
        x["winnable"] = r.a != 0;
        x["cost"] = r.a != 0 ? number_or_null(r.b) : nlohmann::json(nullptr);
      }
      vs.push_back(std::move(x));
    }
    j["vertices"] = std::move(vs);
    std::cout << j.dump(1) << "\n";
  } else {
    const char* head = o.objective == "expected" ? "value" : (o.objective == "reach" ? "prob      cost" : "winnable  cost");
    fmt::print("{:<16} {:<8} {:<24} {}\n", "vertex", "kind", head, "strategy");
    std::uint32_t shown = 0;
    for (VertexId v : g.vertices()) {
      if (shown == o.limit) {
        fmt::print("... {} more vertices (--limit, or --json for all)\n", n - shown);
        break;
      }
      ++shown;
      const Row& r = rows[v.index()];
      std::string vals;
      if (o.objective == "expected")
        vals = fmt_value(r.a);
      else if (o.objective == "reach")
        vals = fmt::format("{:<9} {}", fmt_value(r.a), fmt_value(r.b));
      else
        vals = fmt::format("{:<9} {}", r.a != 0 ? "yes" : "no", r.a != 0 ? fmt_value(r.b) : "-");
      const char* kind = goals.end() != std::find(goals.begin(), goals.end(), v) ? "goal"
                         : g.is_passive(v)                                          ? "passive"
                                                                                    : "active";
      fmt::print("{:<16} {:<8} {:<24} {}\n", g.name(v), kind, vals, edge_text(r.edge));
    }
    fmt::print("\n");
    for (const auto& line : summary_lines) fmt::print("{}\n", line);
    fmt::print("solve time: {:.3f} s\n", seconds);
    if (!certified) fmt::print("NOT CERTIFIED: {} (exit code 5)\n", not_certified);
    if (!iterates.empty()) {
      fmt::print("value-iteration iterates M^n[{}] (§3, from M^0 = 0):\n", g.name(from));
      for (std::size_t k = 0; k < iterates.size(); ++k) fmt::print("  n={:<4} {:.12g}\n", k + 1, iterates[k]);
    }
  }
  if (!o.dot.empty()) {
    Output out(o.dot);
    DotOptions d;
    d.title = fmt::format("{} ({})", o.input.path, o.objective);
    d.highlight_edge = [&](EdgeId e) { return rows[g.source(e).index()].edge == e; };
    d.vertex_note = [&](VertexId v) {
      const Row& r = rows[v.index()];
      if (o.objective == "expected") return fmt::format("M={}", fmt_value(r.a));
      if (o.objective == "reach") return fmt::format("Pr={} C={}", fmt_value(r.a), fmt_value(r.b));
      return r.a != 0 ? fmt::format("win C={}", fmt_value(r.b)) : std::string("lose");
    };
    d.dim_vertex = [&](VertexId v) {
      const Row& r = rows[v.index()];
      if (o.objective == "expected") return !std::isfinite(r.a);
      return r.a == 0;
    };
    write_dot(g, out.stream(), d);
    out.close();
  }
  return certified ? exit_ok : exit_uncertified;
}

const Registration reg{"solve", 40, [](CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("solve", "Compute an optimal tester strategy (reach, win or expected cost)");
  add_input_options(sub, o->input);
  sub->add_option("--objective", o->objective,
                  "reach: bounded reachability (seed 000 §3); win: sure winning at least worst-case cost (§4); "
                  "expected: least expected cost to a goal (seed 001)")
      ->check(CLI::IsMember({"reach", "win", "expected"}))
      ->default_val("expected");
  sub->add_option("--bound", o->bound, "reach: the bound n on the number of moves")->default_val(100);
  sub->add_option("--threads", o->threads,
                  "reach: threads for the solver's sweeps (0: the machine's hardware threads, at most 8); "
                  "the result is the same for every count")
      ->default_val(0);
  sub->add_option("--goal", o->goals, "A goal vertex id (repeatable; default: the file's goal vertices)");
  sub->add_option("--method", o->method,
                  "expected: certified (value iteration then policy iteration, checked optimal), vi, pi, lp")
      ->check(CLI::IsMember({"certified", "vi", "pi", "lp"}))
      ->default_val("certified");
  sub->add_option("--epsilon", o->epsilon, "expected, vi: stop when the largest relative change is below this")
      ->default_val(1e-9)
      ->check(positive_finite());
  sub->add_option("--from", o->from, "The vertex whose value the summary reports (default: the initial vertex)");
  sub->add_option("--iterates", o->iterates,
                  "expected: also print the first K value-iteration iterates M^n at --from (§3)")
      ->default_val(0);
  sub->add_flag("--json", o->json, "Print one JSON object: objective, summary, vertices");
  sub->add_option("--dot", o->dot, "Also write a Graphviz picture with the strategy highlighted to this file");
  sub->add_option("--limit", o->limit, "Text output: at most this many table rows")->default_val(50);
  sub->footer("Exit codes: 0 solved (expected: certified), 2 bad input or options, 5 an answer that is not "
              "certified (method vi, pi or lp, an error bound above the tolerance, an iteration limit, overflow).");
  return [o] { return run(*o); };
}};

}  // namespace
}  // namespace playtest::cli
