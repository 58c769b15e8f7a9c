// playtest plan FILE --traps ... [--visited ...] [--json]: the reactive planning tester's gain
// functions (seed 002 Table 2) and gain guards (Table 3) for inspection, with their values for the
// given trap bindings.
#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/plan/planner_report.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::vector<std::string> traps{"all"}, visited;
  double c = 1.0;
  bool cost = false, json = false;
};

int run(const Options& o) {
  const TestGraph g = load_test_graph(o.input);
  const std::vector<EdgeId> visited = o.visited.empty() ? std::vector<EdgeId>{} : select_traps(g, o.visited);
  const PlannerReport r = inspect_planner(g, select_traps(g, o.traps, declared_traps(g)), visited,
                                          {.c = o.c, .length = o.cost ? PathLength::cost : PathLength::unit}, o.json);
  if (!o.json) {
    write_planner_text(std::cout, g, r);
    return exit_code(Outcome::done);
  }
  nlohmann::json j = planner_json(g, r);
  j["model"] = o.input.path;
  print_json(j);
  return exit_code(Outcome::done);
}

const Registration reg{
    "plan", 63, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "plan",
          "Print the reactive planning tester's gain functions (seed 002 Table 2) and gain guards (Table 3) for a test "
          "purpose given as traps");
      add_input_options(sub, o->input);
      sub->add_option("--traps", o->traps,
                      "Trap edges, comma-separated: all, model (meta.traps), edge ids, labels, globs (* ?), id:/label: "
                      "prefixes")
          ->delimiter(',')
          ->default_str("all");
      sub->add_option("--visited", o->visited, "Traps already visited (same syntax): the gains are evaluated for them")
          ->delimiter(',');
      sub->add_option("--c", o->c, "The scaling constant c of rule (3)")->default_val(1.0)->check(positive_finite());
      sub->add_flag("--cost", o->cost, "Use edge costs as lengths (Dijkstra) instead of unit lengths");
      sub->add_flag("--json", o->json, "Print the gain functions as JSON");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
