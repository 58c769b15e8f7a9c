// playtest analyze MODEL [--goal V] [--edge E]: know before you run. Per purpose: can the tester
// force it (sure win, worst-case cost), with what probability within n moves, at what expected
// cost, or is it unreachable; for coverage the optimal tour's cost and the rounds of the cover
// strategy that give 99% (seed 000 §3-5, seed 001 §2; docs/diagnosis.md).
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/diagnose/render.hpp"
#include "playtest/solve/exact/bound_limits.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::vector<std::string> goals, edges;
  std::uint32_t bound = 0;
  double coverage_target = 0.99;
  bool no_coverage = false, json = false;
};

int run(const Options& o) {
  const TestGraph g = load_test_graph(o.input);
  // Each purpose keeps its values at every k <= bound (one recorded vertex, and its probability).
  if (o.bound > 0) {
    const std::uint64_t purposes = std::max<std::uint64_t>(
        1, o.goals.empty() && o.edges.empty() ? g.num_goals() : o.goals.size() + o.edges.size());
    check_reach_bound(g, o.bound, purposes, 8 * purposes);
  }
  const Analysis a = analyze(g, o.goals, o.edges,
                             {.bound = o.bound, .coverage = !o.no_coverage, .coverage_target = o.coverage_target});
  if (o.json)
    print_json(analysis_json(g, a, o.input.path));
  else
    write_analysis_text(std::cout, g, a, o.input.path);
  return exit_code(a.certified ? Outcome::certified : Outcome::uncertified);
}

const Registration reg{
    "analyze", 73, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "analyze",
          "Know before you run: per purpose (each --goal, each --edge id or label; default the graph's goals) whether "
          "the tester can force it (worst-case cost), its probability within n moves, its expected cost, or that it is "
          "unreachable; and the optimal coverage tour with the rounds of the cover strategy for 99%.\n"
          "Exit codes: 0 ok, 5 an expected cost could not be certified, 2 bad input.");
      add_input_options(sub, o->input);
      sub->add_option("--goal", o->goals, "A goal vertex to analyse (repeatable)");
      sub->add_option(
          "--edge", o->edges,
          "An edge id or label to take (repeatable; a label means every edge with it, each analysed on its own, "
          "as run --edge LABEL covers every edge with it)");
      sub->add_option("--bound", o->bound,
                      "n for the probability within n moves (default: 2 * vertices + 2, at most 1000)")
          ->check(positive_integer());  // 0 is not "the default": leave the option out for that
      sub->add_option("--coverage-target", o->coverage_target, "The coverage probability the cover bound is asked for")
          ->default_val(0.99)
          ->check(CLI::Range(0.0, 1.0));
      sub->add_flag("--no-coverage", o->no_coverage, "Skip the coverage tour and its bound");
      sub->add_flag("--json", o->json, "Print the analysis as JSON");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
