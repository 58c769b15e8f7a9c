// Starved outcomes (issue 22, docs/testing.md "Adaptive strategies"): an outcome the system never
// chose at a passive vertex in n visits, over whatever histories led there, although its declared
// probability p would have shown it at least once with probability `confidence` ((1 - p)^n <= 1 -
// confidence). A model that allows what the system never does is a finding for the modeller, not a
// failure of the system: a run whose purpose is left only behind starved outcomes stops
// INCONCLUSIVE and names them rather than spending its budget.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/graph/game_graph.hpp"
#include "playtest/strategy/evidence.hpp"

namespace playtest {

struct StarvedOutcome {
  VertexId vertex;
  EdgeId edge;                   // the outcome (an out-edge of `vertex`)
  std::uint64_t visits = 0;      // of `vertex`, none of which chose `edge`
  std::uint32_t contexts = 0;    // distinct histories (incoming edges) among those visits
  double declared_prob = 0;      // the model's probability of `edge`
  std::uint32_t edges_behind = 0;  // wanted edges left untestable behind it (check_starvation)
};

// The visits after which an outcome of declared probability `p` is starved: the least n with
// (1 - p)^n <= 1 - confidence (UINT64_MAX for p <= 0).
std::uint64_t starvation_visits(double p, double confidence = 0.999);

// Whether every stimulus that leads into passive vertex v from a vertex the run has reached (the
// initial vertex, or one with a taken in-edge by `edge_visits`) has led there at least once: the
// histories a tester can offer v directly have all been offered (a system whose choice depends on
// the last stimulus has been asked in each). On a graph explored on the fly: true.
bool every_stimulus_tried(const GameGraph& g, const Evidence& evidence, VertexId v,
                          std::span<const std::uint32_t> edge_visits);

// Whether outcome e of passive vertex v is starved given `evidence`: never seen in as many visits
// as starvation_visits says, over every history every_stimulus_tried asks for (when `edge_visits`
// is given).
bool is_starved(const GameGraph& g, const Evidence& evidence, VertexId v, EdgeId e, double confidence = 0.999,
                std::span<const std::uint32_t> edge_visits = {});

// Every starved outcome at v (in out-edge order).
std::vector<StarvedOutcome> starved_outcomes(const GameGraph& g, const Evidence& evidence, VertexId v,
                                             double confidence = 0.999);

// Whether what the purpose still wants is left only behind starved outcomes: from `current` (and
// from the initial vertex when the graph can be reset) no wanted edge can be taken without first
// passing a starved outcome. `wanted[e]`: edge e is still wanted (an uncovered purpose edge; for a
// reach purpose, the edges into a goal); `starved[e]`: outcome e is starved. Starved outcomes
// that are wanted themselves count as untestable too.
struct StarvationVerdict {
  bool only_starved_left = false;
  // Every starved outcome (vertex order) with the wanted edges behind it counted.
  std::vector<StarvedOutcome> starved;
  std::uint32_t untestable = 0;  // wanted edges no run can reach any more (the starved ones included)
};
StarvationVerdict check_starvation(const GameGraph& g, const Evidence& evidence, VertexId current,
                                   std::span<const std::uint8_t> starved, std::span<const std::uint8_t> wanted);

}  // namespace playtest
