// Random test graphs for tests and benchmarks (`playtest gen random`). Deterministic for a seed on
// every platform (playtest::Rng). Vertex i is named "v<i>", vertex 0 is initial; edges out of active
// vertices are labelled "a<j>", out of passive ones "?o<j>" (distinct per vertex, so the graph is
// usable for online testing), j being the edge's position among its source's out-edges.
#pragma once

#include <cstdint>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct RandomGraphOptions {
  std::uint32_t vertices = 1000;
  double passive_fraction = 0.25;  // each vertex but the initial one is passive with this probability
  std::uint32_t out_degree = 4;    // edges per vertex (>= 1)
  std::uint32_t goals = 1;         // distinct goal vertices, never the initial one
  std::uint32_t max_cost = 10;     // costs are integers uniform in [min_cost, max_cost]
  std::uint32_t min_cost = 1;
  bool strongly_connected = false;  // one out-edge of every vertex lies on a random Hamiltonian cycle
  std::uint64_t seed = 1;
};

// Throws UsageError naming the option on impossible options (no vertices, out_degree 0, goals >= vertices, ...).
TestGraph generate_random_graph(const RandomGraphOptions& options);

}  // namespace playtest
