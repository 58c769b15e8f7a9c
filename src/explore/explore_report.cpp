#include "playtest/explore/explore_report.hpp"

#include <fmt/format.h>

#include <ostream>

namespace playtest {
namespace {

double bytes_per_state(const ExploreResult& r) {
  return r.states ? static_cast<double>(r.store_bytes) / r.states : 0.0;
}

}  // namespace

void write_explore_text(std::ostream& out, const ExploreResult& r, const ExploreReportInfo& info) {
  const TestGraph& g = r.graph;
  out << fmt::format("model {}: {} vertices ({} active, {} passive), {} edges, {} goal{}\n", info.model_name,
                     g.num_vertices(), g.num_vertices() - g.num_passive(), g.num_passive(), g.num_edges(),
                     g.num_goals(), g.num_goals() == 1 ? "" : "s");
  out << fmt::format("{} states, depth {}, {:.3f} s; state {} bytes, store {} bytes ({:.1f} bytes/state)\n", r.states,
                     r.depth, r.seconds, info.state_bytes, r.store_bytes, bytes_per_state(r));
  for (std::size_t t = 0; t < r.trap_names.size(); ++t)
    out << fmt::format("trap {}: {} edge{}\n", r.trap_names[t], r.trap_edges[t].size(),
                       r.trap_edges[t].size() == 1 ? "" : "s");
}

nlohmann::json explore_json(const ExploreResult& r, const ExploreReportInfo& info) {
  const TestGraph& g = r.graph;
  nlohmann::json j;
  j["model"] = info.model_name;
  j["status"] = to_string(r.status);
  if (!r.message.empty()) j["message"] = r.message;
  j["vertices"] = g.num_vertices();
  j["active"] = g.num_vertices() - g.num_passive();
  j["passive"] = g.num_passive();
  j["edges"] = g.num_edges();
  j["goals"] = g.num_goals();
  j["states"] = r.states;
  j["frontier"] = r.frontier;
  j["depth"] = r.depth;
  j["seconds"] = r.seconds;
  j["state_bytes"] = info.state_bytes;
  j["store_bytes"] = r.store_bytes;
  j["store_bytes_per_state"] = bytes_per_state(r);
  j["resettable"] = g.is_resettable();
  nlohmann::json traps = nlohmann::json::array();
  for (std::size_t t = 0; t < r.trap_names.size(); ++t) {
    nlohmann::json edges = nlohmann::json::array();
    for (EdgeId e : r.trap_edges[t]) edges.push_back(std::string(g.name(e)));
    traps.push_back({{"name", r.trap_names[t]}, {"edges", std::move(edges)}});
  }
  j["traps"] = std::move(traps);
  return j;
}

}  // namespace playtest
