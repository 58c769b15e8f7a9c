#include "playtest/plan/planner_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace playtest {

PlannerReport inspect_planner(const TestGraph& g, std::vector<EdgeId> traps, std::span<const EdgeId> visited,
                              const PlannerOptions& options, bool with_trees) {
  PlannerReport r;
  r.traps = traps;
  r.options = options;
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  for (EdgeId e : visited) visits[e.index()] = 1;
  ReactivePlanner p(g, std::move(traps), options);
  for (VertexId v : g.vertices()) {
    if (!g.is_active(v) || g.out_degree(v) == 0) continue;
    PlannerReport::Guard guard{v, {}, {}};
    double top = 0;
    const std::size_t first = r.transitions.size();
    for (EdgeId e : g.out_edges(v)) {
      const double gain = p.gain(e, visits);
      top = std::max(top, gain);
      r.transitions.push_back({e, gain, p.formula(e), with_trees ? p.gain_tree(e) : GainTree{}});
      guard.transitions.push_back(e);
    }
    for (std::size_t i = first; i < r.transitions.size(); ++i)
      if (r.transitions[i].gain > 0 && r.transitions[i].gain >= top * (1 - 1e-12))
        guard.enabled.push_back(r.transitions[i].edge);
    r.guards.push_back(std::move(guard));
  }
  r.stored_tree_nodes = p.stored_nodes();
  r.trees = p.trees_built();
  return r;
}

namespace {

std::string names(const TestGraph& g, const std::vector<EdgeId>& edges) {
  std::string s;
  for (EdgeId e : edges) s += (s.empty() ? "" : ", ") + std::string(g.name(e));
  return s;
}

}  // namespace

void write_planner_text(std::ostream& out, const TestGraph& g, const PlannerReport& r) {
  out << fmt::format("traps: {}\n", r.traps.size());
  out << fmt::format("{:<12} {:<8} {:>10}  gain function\n", "transition", "from", "gain");
  for (const auto& t : r.transitions)
    out << fmt::format("{:<12} {:<8} {:>10.6f}  g = {}\n", g.name(t.edge), g.name(g.source(t.edge)), t.gain, t.formula);
  out << "\ngain guards (formula (1)): at each active vertex, the transitions of maximal positive gain\n";
  for (const auto& guard : r.guards)
    out << fmt::format(
        "{:<8} among {{{}}}: {}\n", g.name(guard.vertex), names(g, guard.transitions),
        guard.enabled.empty() ? "none (every gain is 0: stop or reset)" : "enabled " + names(g, guard.enabled));
}

nlohmann::json planner_json(const TestGraph& g, const PlannerReport& r) {
  auto name_list = [&](const std::vector<EdgeId>& edges) {
    nlohmann::json a = nlohmann::json::array();
    for (EdgeId e : edges) a.push_back(std::string(g.name(e)));
    return a;
  };
  nlohmann::json jt = nlohmann::json::array();
  for (const auto& t : r.transitions) {
    nlohmann::json nodes = nlohmann::json::array();
    for (std::size_t i = 1; i < t.tree.nodes.size(); ++i) {
      const GainNode& n = t.tree.nodes[i];
      nodes.push_back({{"trap", std::string(g.name(n.edge))},
                       {"parent", std::string(g.name(n.parent == 0 ? t.edge : t.tree.nodes[n.parent].edge))},
                       {"d", n.d},
                       {"weight", r.options.c / (t.tree.root_length + n.d)}});
    }
    jt.push_back({{"transition", std::string(g.name(t.edge))},
                  {"from", std::string(g.name(g.source(t.edge)))},
                  {"to", std::string(g.name(g.target(t.edge)))},
                  {"root_is_trap", t.tree.root_is_trap},
                  {"formula", t.formula},
                  {"gain", t.gain},
                  {"tree", std::move(nodes)}});
  }
  nlohmann::json jg = nlohmann::json::array();
  for (const auto& guard : r.guards)
    jg.push_back({{"vertex", std::string(g.name(guard.vertex))},
                  {"transitions", name_list(guard.transitions)},
                  {"enabled", name_list(guard.enabled)}});
  return {{"c", r.options.c},
          {"length", r.options.length == PathLength::cost ? "cost" : "unit"},
          {"traps", name_list(r.traps)},
          {"gain_functions", std::move(jt)},
          {"gain_guards", std::move(jg)},
          {"stored_tree_nodes", r.stored_tree_nodes},
          {"trees", r.trees}};
}

}  // namespace playtest
