// playtest info FILE: what a test graph contains and where it is weak (unreachable parts, vertices
// that cannot reach a goal, dead ends, strongly connected components).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common.hpp"
#include "playtest/graph/analysis.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  bool json = false;
  std::uint32_t limit = 10;
};

int run(const Options& o) {
  TestGraph g = load_input(o.input);
  const auto goals = g.goals();
  const VertexId init[] = {g.initial()};
  auto reach = reachable_from(g, init);
  auto to_goal = can_reach(g, goals);
  auto scc = strongly_connected_components(g);
  std::vector<std::uint32_t> scc_size(scc.count, 0);
  for (VertexId v : g.vertices()) ++scc_size[scc.component[v.index()]];
  std::uint32_t largest = scc.count ? *std::max_element(scc_size.begin(), scc_size.end()) : 0;
  std::uint32_t trivial = 0;  // singleton components without a self-loop
  std::vector<VertexId> unreachable, no_goal, dead_ends;
  for (VertexId v : g.vertices()) {
    if (!reach[v.index()]) unreachable.push_back(v);
    if (!goals.empty() && !to_goal[v.index()]) no_goal.push_back(v);
    if (g.out_degree(v) == 0 && !g.is_goal(v)) dead_ends.push_back(v);
  }
  for (std::uint32_t c = 0; c < scc.count; ++c) trivial += scc_size[c] == 1;
  std::uint32_t timeouts = 0;
  for (EdgeId e : g.edges()) timeouts += g.is_timeout(e);
  auto names = [&](const std::vector<VertexId>& vs) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < vs.size() && i < o.limit; ++i) out.emplace_back(g.name(vs[i]));
    return out;
  };

  if (o.json) {
    nlohmann::json j;
    j["file"] = o.input.path;
    j["vertices"] = g.num_vertices();
    j["active"] = g.num_vertices() - g.num_passive();
    j["passive"] = g.num_passive();
    j["edges"] = g.num_edges();
    j["labels"] = g.num_labels();
    j["goals"] = g.num_goals();
    j["timeout_edges"] = timeouts;
    j["initial"] = std::string(g.name(g.initial()));
    j["resettable"] = g.is_resettable();
    if (g.reset_cost()) j["reset_cost"] = *g.reset_cost();
    j["scc"] = {{"count", scc.count}, {"largest", largest}, {"singletons", trivial}};
    j["unreachable_from_initial"] = {{"count", unreachable.size()}, {"first", names(unreachable)}};
    if (goals.empty())
      j["cannot_reach_goal"] = nullptr;
    else
      j["cannot_reach_goal"] = {{"count", no_goal.size()}, {"first", names(no_goal)}};
    j["dead_ends"] = {{"count", dead_ends.size()}, {"first", names(dead_ends)}};
    j["memory_bytes"] = g.memory_bytes();
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    return exit_ok;
  }
  auto list = [&](const std::vector<VertexId>& vs) {
    std::string s;
    for (auto& n : names(vs)) s += (s.empty() ? "" : ", ") + n;
    if (vs.size() > o.limit) s += fmt::format(", ... ({} more)", vs.size() - o.limit);
    return s;
  };
  fmt::print("file:        {}\n", o.input.path);
  fmt::print("vertices:    {} ({} active, {} passive)\n", g.num_vertices(), g.num_vertices() - g.num_passive(),
             g.num_passive());
  fmt::print("edges:       {} ({} distinct labels, {} timeout edges)\n", g.num_edges(), g.num_labels(), timeouts);
  fmt::print("initial:     {}\n", g.name(g.initial()));
  fmt::print("goals:       {}\n", g.num_goals());
  fmt::print("reset:       {}\n", g.reset_cost() ? fmt::format("yes, cost {}", *g.reset_cost()) : "no");
  fmt::print("components:  {} strongly connected (largest {} vertices, {} singletons){}\n", scc.count, largest,
             trivial, scc.count == 1 ? "; the graph is strongly connected" : "");
  fmt::print("unreachable: {} vertices not reachable from the initial vertex{}{}\n", unreachable.size(),
             unreachable.empty() ? "" : ": ", list(unreachable));
  if (goals.empty())
    fmt::print("no goal:     the graph has no goal vertices\n");
  else
    fmt::print("no goal:     {} vertices cannot reach a goal{}{}\n", no_goal.size(), no_goal.empty() ? "" : ": ",
               list(no_goal));
  fmt::print("dead ends:   {} non-goal vertices without outgoing edges{}{}\n", dead_ends.size(),
             dead_ends.empty() ? "" : ": ", list(dead_ends));
  return exit_ok;
}

const Registration reg{"info", 20, [](CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("info", "Describe a test graph: counts, components, reachability, goals");
  add_input_options(sub, o->input);
  sub->add_flag("--json", o->json, "Print the description as JSON");
  sub->add_option("--limit", o->limit, "How many vertex ids to list per finding")->default_val(10);
  return [o] { return run(*o); };
}};

}  // namespace
}  // namespace playtest::cli
