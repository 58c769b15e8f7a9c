// From an ioco specification to a TestGraph (docs/ioco.md): every reachable set q of the
// suspension automaton where the tester may give an input becomes an active vertex with one edge
// per input plus an "observe" edge to a passive vertex; the passive vertex has one edge per
// allowed output, delta being its timeout edge (seed 001 §1). Sets without inputs are passive
// vertices directly. An output missing from a passive vertex is exactly an ioco FAIL (Def. 2.5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/ioco/lts.hpp"
#include "playtest/ioco/suspension.hpp"

namespace playtest::ioco {

inline constexpr std::string_view observe_label = "observe";

struct IocoGraphOptions {
  std::uint32_t max_sets = 1'000'000;
  double input_cost = 1.0;
  double observe_cost = 0.0;  // choosing to observe costs nothing; the output edge is the step
  double output_cost = 1.0;
  // Output probabilities: uniform over out(q) including delta (the model carries none).
};

struct IocoGraph {
  TestGraph graph;
  // Per vertex: the suspension-automaton set it stands for.
  std::vector<SetId> set_of_vertex;
  // Per set: its active vertex (none when the set has no input) and its passive vertex.
  std::vector<VertexId> active_of_set, passive_of_set;
};

IocoGraph build_ioco_graph(const Lts& spec, const IocoGraphOptions& options = {});

// The "observe" edge of an active vertex, if it has one: where a runner goes when the system
// produces an output while the tester is about to stimulate it (the race, docs/ioco.md).
std::optional<EdgeId> find_observe_edge(const TestGraph& g, VertexId v);

// The out-edge of v labelled `label`, if any.
std::optional<EdgeId> find_out_edge(const TestGraph& g, VertexId v, std::string_view label);

}  // namespace playtest::ioco
