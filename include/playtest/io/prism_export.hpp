// Export of a test graph as a Markov decision process in PRISM's explicit format (BASE.tra,
// BASE.lab, BASE.trew), so that PRISM or Storm can cross-check playtest: `Rmin=? [ F "goal" ]`
// against the expected cost (seed 001) and `Pmax=? [ F<=n "goal" ]` against bounded reachability
// (seed 000 §3). Mapping: docs/formats.md, section "PRISM explicit format".
#pragma once

#include <iosfwd>
#include <span>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// State s is vertex s. An active vertex has one choice per out-edge (probability 1, transition
// reward = the edge cost, action "e<edge id>"); a passive vertex one choice "p" with its edges'
// probabilities and costs as transition rewards (parallel edges to one target merged as seed 001
// §2.3 does: probabilities added, costs averaged by probability). Goals are absorbing (a zero-cost
// self-loop; the game ends there) and labelled "goal"; active vertices without edges get a
// zero-cost self-loop and the label "deadlock"; the initial vertex is labelled "init".
void write_prism_tra(const TestGraph& g, std::span<const VertexId> goals, std::ostream& out);
void write_prism_lab(const TestGraph& g, std::span<const VertexId> goals, std::ostream& out);
void write_prism_trew(const TestGraph& g, std::span<const VertexId> goals, std::ostream& out);

}  // namespace playtest
