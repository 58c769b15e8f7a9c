// playtest solve FILE --objective reach|win|expected: the tester's optimal strategy and what it
// achieves from every vertex (library: playtest/solve/solve_report.hpp; a PRISM property through
// playtest/input/property_request.hpp). Text table or --json; --dot draws the strategy.
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/input/property_request.hpp"
#include "playtest/solve/exact/exact_fallback.hpp"
#include "progress.hpp"
#include "solve_options.hpp"

namespace playtest::cli {
namespace {

int finish_property(const SolveOptions& o, const TestGraph& g, const PropertyRequest& req) {
  const PropertyReport r = solve_property_report(g, req);
  if (o.json)
    write_property_json(std::cout, g, r, o.input.path);
  else
    write_property_text(std::cout, g, r, o.limit);
  std::cout.flush();
  write_strategy_dot(
      o, g, req.text, [&](EdgeId e) { return r.result.strategy[g.source(e).index()] == e; },
      [&](VertexId v) { return fmt::format("{:.6g}", r.result.value[v.index()]); },
      [&](VertexId v) { return r.result.value[v.index()] == 0; });
  return exit_code(r.certified ? Outcome::certified : Outcome::uncertified);
}

// The property: --property's text, or --props FILE's property --prop, with the constants of --const
// (and the file's const lines).
PrismProperty read_property(const SolveOptions& o) {
  PrismConstants given;
  for (const auto& list : o.constants)
    for (auto& [name, value] : parse_constant_list(list))
      if (!given.emplace(name, value).second) throw UsageError("const", fmt::format("{} is given twice", name));
  if (o.props.empty()) {
    if (!o.prop.empty()) throw UsageError("prop", "chooses a property of --props FILE");
    return parse_prism_property(o.property, prism_constants(nullptr, given));
  }
  if (!o.property.empty()) throw UsageError("property", "and --props are two ways to give the property; give one");
  const PrismPropsFile file = parse_prism_props(read_source_text(o.props, std::size_t{1} << 24), o.props);
  const PrismPropsFile::Property& p = select_property(file, o.prop);
  return parse_prism_property(p.text, prism_constants(&file, given), {o.props, p.line, p.column});
}

int run_property(const SolveOptions& o) {
  const PrismProperty p = read_property(o);
  if (!o.goals.empty() || !o.from.empty())
    throw UsageError("property", "names its targets and states itself; --goal and --from do not apply");
  const LoadedInput in = load_input(property_load_options(p, o.input));
  const PropertyOptions options{.exact = o.exact,
                                .exact_check_vertices = o.check_vertices,
                                .exact_seconds = o.exact_seconds,
                                .check_seconds = o.check_seconds,
                                .threads = o.request.threads};
  return finish_property(o, *in.graph, property_request(p, in, options));
}

int run(SolveOptions& o) {
  if (!o.property.empty() || !o.props.empty()) {
    if (o.objective != "expected" || o.bound_given)
      throw UsageError("property", "takes the place of --objective and --bound");
    return run_property(o);
  }
  if (o.exact && o.objective == "win")
    throw UsageError("exact", "applies to --objective expected and reach (win has no probabilities to be exact about)");
  // GraphWalker models: --goal names elements (Model.name or name; being at one is the goal), as
  // run's does (docs/graphwalker.md).
  if (!o.goals.empty() && (o.input.format == InputFormat::graphwalker || is_graphwalker_file(o.input.path))) {
    o.input.goal_conditions = o.goals;
    o.goals.clear();
  }
  const TestGraph g = load_test_graph(o.input);
  const SolveRequest& q = solve_request(o, g);
  if (o.exact) return finish_property(o, g, exact_objective_request(q, o.exact_seconds));
  const bool reach = q.objective == SolveObjective::reach;
  ProgressLine progress(reach ? "solve reach" : "solve expected: value iteration",
                        reach ? "steps of the bound" : "sweeps");
  if (progress.shown() && q.objective != SolveObjective::win)
    o.request.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
  SolveReport r = solve(g, o.request);
  progress.finish();
  // Small models: the answer checked in rational arithmetic, and replaced by the exact optimum
  // when it was not certified or the check refutes it (docs/transforms.md, "Exact answers").
  ExactFallbackOutcome fallback;
  if (o.method == "certified") fallback = apply_exact_fallback(g, r, {.seconds = o.check_seconds});
  if (o.json) {
    write_solve_json(std::cout, g, r, o.input.path);
  } else {
    write_solve_text(std::cout, g, r, o.limit);
    if (fallback.replaced)
      std::cout << fmt::format(
          "exact fallback: the floating-point answer ({}) was replaced by the exact optimum "
          "(rational arithmetic; --exact prints the fractions)\n",
          fallback.reason);
    else if (fallback.checked)
      std::cout << "exact check: the strategy was evaluated in rational arithmetic and is optimal\n";
  }
  std::cout.flush();
  write_strategy_dot(
      o, g, o.objective, [&](EdgeId e) { return r.edge(g.source(e)) == e; }, [&](VertexId v) { return r.note(v); },
      [&](VertexId v) { return r.lost(v); });
  return exit_code(r.certified ? Outcome::certified : Outcome::uncertified);
}

const Registration reg{"solve", 40, [](CLI::App& app) {
                         auto o = std::make_shared<SolveOptions>();
                         add_solve_options(app.add_subcommand("solve",
                                                              "Compute an optimal tester strategy (reach, "
                                                              "win or expected cost)"),
                                           *o);
                         return [o] { return run(*o); };
                       }};

}  // namespace
}  // namespace playtest::cli
