#include "solve_options.hpp"

#include <fmt/format.h>

#include "option_checks.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/solve/exact/bound_limits.hpp"

namespace playtest::cli {

void add_solve_options(CLI::App* sub, SolveOptions& o) {
  add_input_options(sub, o.input);
  sub->add_option("--objective", o.objective,
                  "reach: bounded reachability (seed 000 §3); win: sure winning at least worst-case cost (§4); "
                  "expected: least expected cost to a goal (seed 001)")
      ->check(CLI::IsMember({"reach", "win", "expected"}))
      ->default_val("expected");
  sub->add_option("--bound", o.request.bound, "reach: the bound n on the number of moves")
      ->default_val(100)
      ->each([&o](const std::string&) { o.bound_given = true; });
  sub->add_option("--property", o.property,
                  "A PRISM/Storm property to answer instead of --objective: Pmax=? [ F \"l\" ], Pmin, P=? "
                  "(DTMC), F<=k, F{\"r\"}<=B, \"a\" U \"b\", R{\"r\"}min=? [ F \"l\" ], Rmax, R=?, P>=1 [ ... ], "
                  "filter(max, ..., \"init\"), G, X, W, R, F>=k, F[a,b], R [ C<=k ], R [ I=k ], S=? [ s ] "
                  "(docs/formats.md)");
  sub->add_option("--props", o.props,
                  "A PRISM properties file (.props) whose property to answer instead of --property: its const "
                  "lines define constants, --prop chooses the property");
  sub->add_option("--prop", o.prop, "--props: the property's name (\"name\": ...) or its number (1, 2, ...)");
  sub->add_option("--const", o.constants,
                  "Values of named constants in the property (NAME=VALUE[,NAME=VALUE...], repeatable), as PRISM's "
                  "-const");
  sub->add_flag("--exact", o.exact,
                "expected, reach, --property: exact rational values and strategies (fractions; --json: "
                "value_exact)");
  sub->add_option("--exact-seconds", o.exact_seconds, "The wall-clock budget of --exact (exit 2 when exceeded)")
      ->default_val(120)
      ->check(positive_finite());
  sub->add_option("--check-seconds", o.check_seconds,
                  "The wall-clock budget of the exact check of a floating-point answer, and of the exact fallback "
                  "(when exceeded: not certified, exit 5)")
      ->default_val(10)
      ->check(positive_finite());
  sub->add_option("--check-vertices", o.check_vertices,
                  "--property: the largest graph (vertices) whose floating-point answer is checked in rational "
                  "arithmetic (0: none)")
      ->default_val(20000);
  sub->add_option("--threads", o.request.threads,
                  "reach, expected: threads for the solver (0: the machine's hardware threads, at most 8); "
                  "the result is the same for every count")
      ->default_val(0);
  sub->add_option("--goal", o.goals, "A goal vertex id (repeatable; default: the file's goal vertices)");
  sub->add_option("--method", o.method,
                  "expected: certified (value iteration then policy iteration, checked optimal), vi, pi, lp")
      ->check(CLI::IsMember({"certified", "vi", "pi", "lp"}))
      ->default_val("certified");
  sub->add_option("--epsilon", o.request.epsilon, "expected, vi: stop when the largest relative change is below this")
      ->default_val(1e-9)
      ->check(positive_finite());
  sub->add_option("--from", o.from, "The vertex whose value the summary reports (default: the initial vertex)");
  sub->add_option("--iterates", o.request.iterates,
                  "expected: also print the first K value-iteration iterates M^n at --from (§3)")
      ->default_val(0);
  sub->add_flag("--json", o.json, "Print one JSON object: objective, summary, vertices");
  sub->add_option("--dot", o.dot, "Also write a Graphviz picture with the strategy highlighted to this file");
  sub->add_option("--limit", o.limit, "Text output: at most this many table rows")->default_val(50);
  sub->footer(
      "Exit codes: 0 solved (expected: certified), 2 bad input or options, 5 an answer that is not "
      "certified (method vi, pi or lp, an error bound above the tolerance, an iteration limit, overflow).");
}

const SolveRequest& solve_request(SolveOptions& o, const TestGraph& g) {
  SolveRequest& q = o.request;
  for (const auto& name : o.goals) q.goals.push_back(vertex_named(g, name, "a goal"));
  if (q.goals.empty()) q.goals = g.goals();
  if (q.goals.empty())
    throw InputError(
        fmt::format("{}: the graph has no goal vertices; mark some as goals or give --goal ID", o.input.path));
  q.from = o.from.empty() ? g.initial() : vertex_named(g, o.from, "the vertex to report (--from)");
  q.objective = o.objective == "reach" ? SolveObjective::reach
                : o.objective == "win" ? SolveObjective::win
                                       : SolveObjective::expected;
  if (q.objective == SolveObjective::reach) check_reach_bound(g, q.bound, 0);
  for (auto m : {ExpectedCostMethod::certified, ExpectedCostMethod::value_iteration,
                 ExpectedCostMethod::policy_iteration, ExpectedCostMethod::linear_programming})
    if (method_name(m) == o.method) q.method = m;
  return q;
}

void write_strategy_dot(const SolveOptions& o, const TestGraph& g, const std::string& what,
                        const std::function<bool(EdgeId)>& highlight, const std::function<std::string(VertexId)>& note,
                        const std::function<bool(VertexId)>& dim) {
  if (o.dot.empty()) return;
  Output out(o.dot);
  DotOptions d{.title = fmt::format("{} ({})", o.input.path, what),
               .highlight_edge = highlight,
               .vertex_note = note,
               .dim_vertex = dim};
  write_dot(g, out.stream(), d);
  out.close();
}

}  // namespace playtest::cli
