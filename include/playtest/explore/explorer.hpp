// Breadth-first exploration of a model program into a TestGraph (seed 001 §1: "the step of getting
// from the model program to a particular test graph"), with limits on states, depth and time and an
// optional state abstraction. Built on the lazy StateSpace.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "playtest/explore/model.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

enum class VertexNaming : std::uint8_t {
  numbered,  // s1, s2, ... in breadth-first order; an active twin is named after its passive state: s2'
  state,     // the state's text, e.g. (clients={0, 1}, queue=[]); twins get a trailing '
};

struct ExploreOptions {
  std::uint64_t max_states = 10'000'000;  // vertices of the graph (passive states and twins count)
  std::uint32_t max_depth = std::numeric_limits<std::uint32_t>::max();  // edges from the initial vertex
  // Wall-clock budget for the whole call (0 = none): the breadth-first expansion stops early enough
  // that building the graph of what was found still ends within it.
  double max_seconds = 0;
  VertexNaming naming = VertexNaming::state;
  const Projection* projection = nullptr;  // overrides the model's own projection when given
  // When false, an exploration that stops before the end returns no graph (only the status, the
  // message and the counts): for callers that refuse a partial graph anyway, which then skip
  // building it (its time and its peak memory).
  bool partial_graph = true;
  // Called every few thousand expansions with the states expanded and found so far (a progress
  // line); may be empty.
  std::function<void(std::uint64_t expanded, std::uint64_t found)> on_progress;
};

enum class ExploreStatus : std::uint8_t { complete, state_limit, depth_limit, time_limit };

struct ExploreResult {
  TestGraph graph;
  ExploreStatus status = ExploreStatus::complete;
  // When not complete: what stopped the exploration and what to do about it.
  std::string message;
  std::uint32_t frontier = 0;  // vertices left unexpanded (active dead ends in the graph)
  std::uint32_t depth = 0;     // largest breadth-first depth reached
  std::uint32_t states = 0;    // distinct (projected) model states
  double seconds = 0;
  std::size_t store_bytes = 0;   // the state store: keys, index, representatives
  std::size_t memory_bytes = 0;  // the whole state space (store, nodes, edges)
  // Traps (seed 002 §3.4): names, and for each trap the edges that hit it.
  std::vector<std::string> trap_names;
  std::vector<std::vector<EdgeId>> trap_edges;
  // Per vertex of the graph, the node of the state space it came from.
  std::vector<NodeId> node_of_vertex;
};

ExploreResult explore(const Model& model, const ExploreOptions& options = {});

// Explores `space` from its initial node (sharing its nodes with a lazy user of the same space).
ExploreResult explore(StateSpace& space, const ExploreOptions& options = {});

const char* to_string(ExploreStatus s);

}  // namespace playtest
