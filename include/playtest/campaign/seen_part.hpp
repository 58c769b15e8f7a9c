// The part of a model program that recorded runs saw (issue 24: reports of on-the-fly traces whose
// model is too big to explore): the states the runs' steps pass through, each with all its
// out-edges, and the targets of those edges as dead ends. A report draws coverage and the path to a
// failure on it, as on the explored graph, with "of the edges the traces saw" in place of the totals.
#pragma once

#include <cstdint>
#include <span>

#include "playtest/campaign/trace_reader.hpp"
#include "playtest/explore/model.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct SeenPart {
  // Vertices named by their state (as the explorer's VertexNaming::state and on-the-fly traces name
  // them), edges e0, e1, ... in the order of Model::successors per vertex.
  TestGraph graph;
  std::uint32_t states_seen = 0;  // vertices the runs passed through (the others are their edges' targets)
};

// Follows each run's steps from the model's initial vertex, by label and target (the trace's
// names), expanding the states it passes through. A run whose step does not match the model stops
// being followed there (resolve_run on the result then says where and why). Throws ModelError when
// the model fails in a state the runs reached.
SeenPart seen_part(const Model& model, std::span<const RunRecord> runs);

}  // namespace playtest
