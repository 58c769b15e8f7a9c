// Structural analysis of a TestGraph: reachability forward and backward, strongly connected
// components. Linear time, iterative (no recursion depth limit on graphs with millions of vertices).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// mark[v] = 1 for every vertex reachable from one of `from` (including `from`).
std::vector<std::uint8_t> reachable_from(const TestGraph& g, std::span<const VertexId> from);

// mark[v] = 1 for every vertex from which one of `to` is reachable (including `to`).
std::vector<std::uint8_t> can_reach(const TestGraph& g, std::span<const VertexId> to);

struct SccResult {
  std::uint32_t count = 0;
  // component[v] in 0..count-1, numbered in reverse topological order of the condensation
  // (a component's successors have smaller numbers), as Tarjan's algorithm yields them.
  std::vector<std::uint32_t> component;
};

SccResult strongly_connected_components(const TestGraph& g);

}  // namespace playtest
