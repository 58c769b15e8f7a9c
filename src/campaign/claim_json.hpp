// Claims about the system (strategy/claims.hpp) in `run --json` and in a trace's end event
// (docs/testing.md "Claims about the system"): one writer for both.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "playtest/graph/game_graph.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/claims.hpp"

namespace playtest::detail {

inline nlohmann::json histories_json(const GameGraph& g, std::span<const HistoryVisits> hs) {
  nlohmann::json out = nlohmann::json::array();
  for (const HistoryVisits& h : hs)
    out.push_back({{"history", HistoryModel::describe(g, h.history)}, {"visits", h.visits}, {"count", h.count}});
  return out;
}

inline nlohmann::json claim_json(const GameGraph& g, const OutcomeClaim& c) {
  nlohmann::json j = {
      {"kind", c.kind == OutcomeClaim::Kind::never_at_vertex ? "never_at_vertex" : "never_in_histories"},
      {"vertex", g.vertex_name(c.vertex)},
      {"label", std::string(g.label(c.outcome))},
      {"edge", g.edge_name(c.outcome)},
      {"visits", c.visits},
      {"histories", c.histories},
      {"rate_ruled_out_above", c.rate},
      {"confidence", c.confidence},
      {"declared_prob", c.declared_prob},
      {"text", describe_claim(g, c)}};
  if (c.edges_behind != 0) j["edges_behind"] = c.edges_behind;
  if (c.kind == OutcomeClaim::Kind::never_in_histories) {
    j["memory"] = c.memory;
    j["seen"] = c.seen;
    j["without"] = histories_json(g, c.without);
    j["with"] = histories_json(g, c.with);
  }
  return j;
}

inline nlohmann::json claims_json(const GameGraph& g, std::span<const OutcomeClaim> claims) {
  nlohmann::json out = nlohmann::json::array();
  for (const OutcomeClaim& c : claims) out.push_back(claim_json(g, c));
  return out;
}

// Adds "stopped_by" and "untestable_edges" to `j` when the run stopped because continuing was
// futile (nothing otherwise).
inline void add_stopped_by_json(nlohmann::json& j, const GameGraph& g, const RunResult& r) {
  if (r.stopped_by.empty()) return;
  j["stopped_by"] = claims_json(g, r.stopped_by);
  j["untestable_edges"] = r.untestable_edges;
}

}  // namespace playtest::detail
