#include "playtest/graph/graph_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "playtest/graph/analysis.hpp"

namespace playtest {

GraphSummary summarize(const TestGraph& g) {
  GraphSummary s;
  const auto goals = g.goals();
  const VertexId init[] = {g.initial()};
  const auto reach = reachable_from(g, init);
  const auto to_goal = can_reach(g, goals);
  const SccResult scc = strongly_connected_components(g);
  std::vector<std::uint32_t> size(scc.count, 0);
  for (VertexId v : g.vertices()) ++size[scc.component[v.index()]];
  s.components = scc.count;
  s.largest_component = scc.count ? *std::max_element(size.begin(), size.end()) : 0;
  s.singleton_components = static_cast<std::uint32_t>(std::count(size.begin(), size.end(), 1u));
  for (VertexId v : g.vertices()) {
    if (!reach[v.index()]) s.unreachable.push_back(v);
    if (!goals.empty() && !to_goal[v.index()]) s.no_goal.push_back(v);
    if (g.out_degree(v) == 0 && !g.is_goal(v)) s.dead_ends.push_back(v);
  }
  for (EdgeId e : g.edges()) s.timeout_edges += g.is_timeout(e);
  return s;
}

namespace {

std::vector<std::string> first_names(const TestGraph& g, const std::vector<VertexId>& vs, std::uint32_t limit) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < vs.size() && i < limit; ++i) out.emplace_back(g.name(vs[i]));
  return out;
}

std::string listing(const TestGraph& g, const std::vector<VertexId>& vs, std::uint32_t limit) {
  if (vs.empty()) return "";
  std::string s = ": ";
  bool first = true;
  for (const auto& n : first_names(g, vs, limit)) {
    s += (first ? "" : ", ") + n;
    first = false;
  }
  if (vs.size() > limit) s += fmt::format(", ... ({} more)", vs.size() - limit);
  return s;
}

}  // namespace

void write_summary_text(std::ostream& out, const TestGraph& g, const GraphSummary& s, std::uint32_t limit) {
  out << fmt::format("vertices:    {} ({} active, {} passive)\n", g.num_vertices(), g.num_vertices() - g.num_passive(),
                     g.num_passive());
  out << fmt::format("edges:       {} ({} distinct labels, {} timeout edges)\n", g.num_edges(), g.num_labels(),
                     s.timeout_edges);
  out << fmt::format("initial:     {}\n", g.name(g.initial()));
  out << fmt::format("goals:       {}\n", g.num_goals());
  out << fmt::format("reset:       {}\n", g.reset_cost() ? fmt::format("yes, cost {}", *g.reset_cost()) : "no");
  out << fmt::format("components:  {} strongly connected (largest {} vertices, {} singletons){}\n", s.components,
                     s.largest_component, s.singleton_components,
                     s.components == 1 ? "; the graph is strongly connected" : "");
  out << fmt::format("unreachable: {} vertices not reachable from the initial vertex{}\n", s.unreachable.size(),
                     listing(g, s.unreachable, limit));
  if (g.num_goals() == 0)
    out << "no goal:     the graph has no goal vertices\n";
  else
    out << fmt::format("no goal:     {} vertices cannot reach a goal{}\n", s.no_goal.size(),
                       listing(g, s.no_goal, limit));
  out << fmt::format("dead ends:   {} non-goal vertices without outgoing edges{}\n", s.dead_ends.size(),
                     listing(g, s.dead_ends, limit));
}

nlohmann::json summary_json(const TestGraph& g, const GraphSummary& s, std::uint32_t limit) {
  auto finding = [&](const std::vector<VertexId>& vs) {
    return nlohmann::json{{"count", vs.size()}, {"first", first_names(g, vs, limit)}};
  };
  nlohmann::json j;
  j["vertices"] = g.num_vertices();
  j["active"] = g.num_vertices() - g.num_passive();
  j["passive"] = g.num_passive();
  j["edges"] = g.num_edges();
  j["labels"] = g.num_labels();
  j["goals"] = g.num_goals();
  j["timeout_edges"] = s.timeout_edges;
  j["initial"] = std::string(g.name(g.initial()));
  j["resettable"] = g.is_resettable();
  if (g.reset_cost()) j["reset_cost"] = *g.reset_cost();
  j["scc"] = {{"count", s.components}, {"largest", s.largest_component}, {"singletons", s.singleton_components}};
  j["unreachable_from_initial"] = finding(s.unreachable);
  j["cannot_reach_goal"] = g.num_goals() == 0 ? nlohmann::json(nullptr) : finding(s.no_goal);
  j["dead_ends"] = finding(s.dead_ends);
  j["memory_bytes"] = g.memory_bytes();
  return j;
}

}  // namespace playtest
