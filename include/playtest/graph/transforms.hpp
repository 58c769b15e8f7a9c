// Graph transforms of seed 001: merging parallel edges (§2.3), eliminating passive vertices
// ("compression", §2.4 and the appendix) with trap detection, and restriction to the part reachable
// from the initial vertex. Each returns a new TestGraph plus the map back to the original ids.
//
// Common to all: goals are the graph's goal flags; the initial vertex, the reset cost, vertex kinds
// and vertex names are kept; new vertex ids follow the original order. Edges that survive unchanged
// keep their name, label, cost, probability and timeout flag.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct TransformResult {
  TestGraph graph;
  std::vector<VertexId> vertex_origin;  // new vertex -> original vertex
  std::vector<VertexId> vertex_image;   // original vertex -> new vertex, none if dropped
  std::vector<EdgeId> edge_origin;      // new edge -> original edge (see each transform), or none
};

// Seed 001 §2.3. Out of an active vertex, of several edges to the same target only the cheapest is
// kept (the first one on ties); it maps to itself. Out of a passive vertex, the edges to the same
// target become one edge with probability p = sum p_i and cost (sum p_i c_i) / p, named after the
// first edge of the group, labelled with the group's distinct labels joined by "|" in order of first
// appearance; it maps to that first edge (its representative). A timeout edge is never merged (it is
// a different event from the observations), so parallel edges may remain beside a timeout edge.
//
// Preserves: expected costs (optimal, and of every strategy, seed 001 §2.3), bounded and unbounded
// reachability probabilities Pr(v, k), the set of surely winnable vertices, and everything about
// active vertices. Not preserved where passive edges were merged: worst-case costs (an average
// replaces a maximum), hence C(v, k) of bounded reachability and sure-winning costs.
TransformResult merge_parallel_edges(const TestGraph& g);

// What to do when the graph has a trap (seed 001 appendix, Definition 1: a nonempty set of passive
// non-goal vertices that no edge leaves).
enum class TrapPolicy : std::uint8_t {
  keep,  // leave every passive vertex that can run into a trap uncompressed (default)
  fail,  // throw GraphError naming a trap vertex
};

struct CompressOptions {
  TrapPolicy on_trap = TrapPolicy::keep;
};

struct CompressResult : TransformResult {
  std::vector<VertexId> trap_vertices;  // original ids of passive vertices that can never leave (all traps)
  std::uint32_t uncompressed_passive = 0;  // passive non-goal vertices left as they were (trap-reaching)
  std::uint32_t eliminated = 0;            // passive vertices removed from the graph
};

// Seed 001 §2.4 and appendix: eliminates passive non-goal vertices so that, after compression, no
// edge joins two compressible passive vertices. Let Y be the passive non-goal vertices that cannot
// reach a trap through passive non-goal vertices (from them, play leaves Y with probability 1);
// every other vertex (active, goal, trap-reaching passive) is a stop vertex and keeps its edges
// unchanged. A vertex of Y is kept when it is the initial vertex or the target of an edge from a stop
// vertex; its out-edges are replaced by one edge per stop vertex z first reached from it, with the
// probability of reaching z first and, as cost, the expected cost of the passive path given that it
// ends at z (so that sum p * cost equals the expected cost of the passive stretch). Paths of any
// length through cycles of Y are summed exactly by state elimination (up to floating point; the
// probabilities out of each compressed vertex are renormalized to sum 1 against rounding). Other
// vertices of Y are dropped. A compressed edge that is exactly one original edge (no path through
// Y, no parallel edge) keeps that edge's name and label and maps to it; any other compressed edge is
// named "<from>~<to>" (made unique with trailing "'"), labelled "*", not a timeout, and maps to
// EdgeId::none().
//
// Preserves: expected costs at every kept vertex for every strategy (the active vertices and their
// edges are unchanged, so strategies carry over one to one), and unbounded reachability
// probabilities. Not preserved: step counts (bounded reachability), worst-case costs and sure
// winnability (a passive cycle that is left with probability 1 no longer counts as a way to escape).
CompressResult compress_passive(const TestGraph& g, const CompressOptions& options = {});

// The subgraph of vertices reachable from the initial vertex, with all their edges. Every edge maps
// to itself. Preserves every value of every objective at the kept vertices.
TransformResult restrict_to_reachable(const TestGraph& g);

// `g` with the probabilities `prob` (per EdgeId, used out of passive vertices) and the meta value
// `meta` (JSON text; empty: none): a learned model, or the system of `simulate --system`.
TestGraph with_probabilities(const TestGraph& g, std::span<const double> prob, std::string meta = {});

}  // namespace playtest
