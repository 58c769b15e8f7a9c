// playtest plan FILE --traps ... [--visited ...] [--json]: the reactive planning tester's gain
// functions (seed 002 Table 2) and gain guards (Table 3) for inspection, with their values for the
// given trap bindings.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/error.hpp"
#include "playtest/plan/reactive_planner.hpp"
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
  TestGraph g = load_input(o.input);
  std::vector<EdgeId> traps = select_traps(g, o.traps, declared_traps(g));
  std::vector<EdgeId> seen = o.visited.empty() ? std::vector<EdgeId>{} : select_traps(g, o.visited);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  for (EdgeId e : seen) visits[e.index()] = 1;
  ReactivePlanner p(g, traps, PlannerOptions{.c = o.c, .length = o.cost ? PathLength::cost : PathLength::unit});
  nlohmann::json jt = nlohmann::json::array(), jg = nlohmann::json::array();
  if (!o.json) {
    fmt::print("traps: {}\n", traps.size());
    fmt::print("{:<12} {:<8} {:>10}  gain function\n", "transition", "from", "gain");
  }
  for (VertexId v : g.vertices()) {
    if (!g.is_active(v) || g.out_degree(v) == 0) continue;
    double top = 0;
    std::vector<std::pair<EdgeId, double>> gains;
    for (EdgeId e : g.out_edges(v)) {
      double gv = p.gain(e, visits);
      top = std::max(top, gv);
      gains.emplace_back(e, gv);
      std::string f = p.formula(e);
      if (o.json) {
        GainTree t = p.gain_tree(e);
        nlohmann::json nodes = nlohmann::json::array();
        for (std::size_t i = 1; i < t.nodes.size(); ++i)
          nodes.push_back({{"trap", std::string(g.name(t.nodes[i].edge))},
                           {"parent", t.nodes[i].parent == 0 ? std::string(g.name(e))
                                                             : std::string(g.name(t.nodes[t.nodes[i].parent].edge))},
                           {"d", t.nodes[i].d},
                           {"weight", o.c / (t.root_length + t.nodes[i].d)}});
        jt.push_back({{"transition", std::string(g.name(e))},
                      {"from", std::string(g.name(v))},
                      {"to", std::string(g.name(g.target(e)))},
                      {"root_is_trap", t.root_is_trap},
                      {"formula", f},
                      {"gain", gv},
                      {"tree", nodes}});
      } else {
        fmt::print("{:<12} {:<8} {:>10.6f}  g = {}\n", g.name(e), g.name(v), gv, f);
      }
    }
    std::vector<std::string> enabled;
    for (auto& [e, gv] : gains)
      if (gv > 0 && gv >= top * (1 - 1e-12)) enabled.emplace_back(g.name(e));
    nlohmann::json names = nlohmann::json::array();
    for (auto& [e, gv] : gains) names.push_back(std::string(g.name(e)));
    jg.push_back({{"vertex", std::string(g.name(v))}, {"transitions", names}, {"enabled", enabled}});
  }
  if (o.json) {
    nlohmann::json tj = nlohmann::json::array();
    for (EdgeId e : traps) tj.push_back(std::string(g.name(e)));
    nlohmann::json j = {{"model", o.input.path},
                        {"c", o.c},
                        {"length", o.cost ? "cost" : "unit"},
                        {"traps", tj},
                        {"gain_functions", jt},
                        {"gain_guards", jg},
                        {"stored_tree_nodes", p.stored_nodes()},
                        {"trees", p.trees_built()}};
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    return exit_ok;
  }
  fmt::print("\ngain guards (formula (1)): at each active vertex, the transitions of maximal positive gain\n");
  for (const auto& x : jg) {
    std::string all, en;
    for (const auto& n : x["transitions"]) all += (all.empty() ? "" : ", ") + n.get<std::string>();
    for (const auto& n : x["enabled"]) en += (en.empty() ? "" : ", ") + n.get<std::string>();
    fmt::print("{:<8} among {{{}}}: {}\n", x["vertex"].get<std::string>(), all,
               en.empty() ? "none (every gain is 0: stop or reset)" : "enabled " + en);
  }
  return exit_ok;
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
