// playtest solve FILE --objective reach|win|expected: the tester's optimal strategy and what it
// achieves from every vertex (library: playtest/solve/solve_report.hpp). Text table or --json;
// --dot draws the strategy.
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/solve/solve_report.hpp"
#include "progress.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string objective = "expected", method = "certified", from, dot;
  std::vector<std::string> goals;
  SolveRequest request;
  bool json = false;
  std::uint32_t limit = 50;
};

int run(Options& o) {
  const TestGraph g = load_input(o.input);
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
  for (auto m : {ExpectedCostMethod::certified, ExpectedCostMethod::value_iteration,
                 ExpectedCostMethod::policy_iteration, ExpectedCostMethod::linear_programming})
    if (method_name(m) == o.method) q.method = m;
  ProgressLine progress(q.objective == SolveObjective::reach ? "solve reach" : "solve expected: value iteration",
                        q.objective == SolveObjective::reach ? "steps of the bound" : "sweeps");
  if (progress.shown() && q.objective != SolveObjective::win)
    q.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
  const SolveReport r = solve(g, q);
  progress.finish();
  if (o.json)
    write_solve_json(std::cout, g, r, o.input.path);
  else
    write_solve_text(std::cout, g, r, o.limit);
  std::cout.flush();
  if (!o.dot.empty()) {
    Output out(o.dot);
    DotOptions d{.title = fmt::format("{} ({})", o.input.path, o.objective),
                 .highlight_edge = [&](EdgeId e) { return r.edge(g.source(e)) == e; },
                 .vertex_note = [&](VertexId v) { return r.note(v); },
                 .dim_vertex = [&](VertexId v) { return r.lost(v); }};
    write_dot(g, out.stream(), d);
    out.close();
  }
  return r.certified ? exit_ok : exit_uncertified;
}

const Registration reg{
    "solve", 40, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand("solve", "Compute an optimal tester strategy (reach, win or expected cost)");
      add_input_options(sub, o->input);
      sub->add_option("--objective", o->objective,
                      "reach: bounded reachability (seed 000 §3); win: sure winning at least worst-case cost (§4); "
                      "expected: least expected cost to a goal (seed 001)")
          ->check(CLI::IsMember({"reach", "win", "expected"}))
          ->default_val("expected");
      sub->add_option("--bound", o->request.bound, "reach: the bound n on the number of moves")->default_val(100);
      sub->add_option("--threads", o->request.threads,
                      "reach, expected: threads for the solver (0: the machine's hardware threads, at most 8); "
                      "the result is the same for every count")
          ->default_val(0);
      sub->add_option("--goal", o->goals, "A goal vertex id (repeatable; default: the file's goal vertices)");
      sub->add_option("--method", o->method,
                      "expected: certified (value iteration then policy iteration, checked optimal), vi, pi, lp")
          ->check(CLI::IsMember({"certified", "vi", "pi", "lp"}))
          ->default_val("certified");
      sub->add_option("--epsilon", o->request.epsilon,
                      "expected, vi: stop when the largest relative change is below this")
          ->default_val(1e-9)
          ->check(positive_finite());
      sub->add_option("--from", o->from, "The vertex whose value the summary reports (default: the initial vertex)");
      sub->add_option("--iterates", o->request.iterates,
                      "expected: also print the first K value-iteration iterates M^n at --from (§3)")
          ->default_val(0);
      sub->add_flag("--json", o->json, "Print one JSON object: objective, summary, vertices");
      sub->add_option("--dot", o->dot, "Also write a Graphviz picture with the strategy highlighted to this file");
      sub->add_option("--limit", o->limit, "Text output: at most this many table rows")->default_val(50);
      sub->footer(
          "Exit codes: 0 solved (expected: certified), 2 bad input or options, 5 an answer that is not "
          "certified (method vi, pi or lp, an error bound above the tolerance, an iteration limit, overflow).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
