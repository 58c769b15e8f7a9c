// The expected-cost solvers' working form of a TestGraph: the non-goal vertices of a work set
// (normally the almost-sure reachability region) renumbered 0..n-1, edges leaving the work set
// dropped, and every goal merged into one slot n whose value is 0.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest::detail {

struct CompactModel {
  std::uint32_t n = 0;             // work vertices; index n is the goal slot
  std::vector<VertexId> vertex;    // compact index -> vertex
  std::vector<std::uint32_t> index;  // vertex -> compact index, n for goals, UINT32_MAX outside
  std::vector<std::uint8_t> passive;
  std::vector<double> base;        // passive: sum of p * cost over its edges; active: 0
  std::vector<std::uint32_t> off;  // CSR over compact edges
  std::vector<std::uint32_t> tgt;  // compact target (n = goal)
  std::vector<double> w;           // active: the edge cost; passive: the edge probability
  std::vector<EdgeId> edge;        // compact edge -> edge of the graph
  std::vector<std::uint32_t> src;  // compact edge -> compact source
  std::vector<std::uint32_t> rev_off, rev_edge;  // in-edges per compact vertex (and the goal slot)
};

// `order` lists the work vertices (no goals); in_work flags them. Active vertices keep only their
// edges into the work set or a goal; passive ones must have all their edges there.
CompactModel build_compact(const TestGraph& g, std::span<const std::uint8_t> is_goal,
                           std::span<const std::uint8_t> in_work, std::span<const VertexId> order);

// Does every work vertex reach the goal slot with probability 1 under `choice` (compact edge per
// active vertex)? `reached` receives the vertices that can reach it.
bool is_proper(const CompactModel& c, std::span<const std::uint32_t> choice, std::vector<std::uint8_t>& reached);

// §2.2's linear program solved with COIN-OR Clp; x receives n + 1 values (x[n] = 0).
void solve_lp(const CompactModel& c, std::vector<double>& x);

}  // namespace playtest::detail
