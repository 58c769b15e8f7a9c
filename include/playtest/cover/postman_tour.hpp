// Directed Chinese Postman tour of a test graph (seed 000 §5 and §6): the cheapest closed walk from a
// start vertex that takes every edge at least once. The graph is balanced by a minimum-cost flow
// (LEMON's NetworkSimplex by default) from vertices with surplus in-degree to those with surplus out-degree, then
// an Euler circuit is read off (Hierholzer, iterative). Optional resets (seed 002 §3.2) add edges
// back to the initial vertex, so that graphs which are not strongly connected still get a tour.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/ids.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

// One move of a tour: a graph edge, or a reset of the system under test from `from` back to the
// graph's initial vertex (edge is none then).
struct TourStep {
  EdgeId edge;
  VertexId from;
  VertexId to;

  bool is_reset() const { return edge.is_none(); }
  friend bool operator==(const TourStep&, const TourStep&) = default;
};

enum class UncoverablePolicy : std::uint8_t {
  fail,  // throw GraphError naming the edges that no closed walk through the start vertex can take
  skip,  // tour the coverable edges and list the others in PostmanTour::uncoverable
};

// The LEMON solver for the balancing min-cost flow. All are exact; they differ only in speed (see
// docs/performance.md, "Coverage (Chinese Postman)"), and may pick different tours of equal cost.
enum class PostmanFlowSolver : std::uint8_t {
  // NetworkSimplex, altering candidate list pivots, on costs reduced by the distances from the
  // nearest surplus vertex (the fastest measured).
  network_simplex,
  network_simplex_block_search,  // NetworkSimplex, block search pivots (LEMON's default rule)
  // CostScaling, partial augment-relabel; throws UsageError("flow_solver") when its 64-bit arithmetic
  // could overflow (e.g. fractional costs, which are scaled up to 2^50 / |V|).
  cost_scaling,
  capacity_scaling,  // CapacityScaling (successive shortest paths)
};

struct PostmanOptions {
  // Where the tour starts and ends; none: the graph's initial vertex.
  VertexId start = VertexId::none();
  // Cost of a reset; none: the graph's reset cost when it has one (TestGraph::reset_cost()), else
  // no resets at all.
  std::optional<double> reset_cost;
  // Ignore the graph's own reset cost (only `reset_cost` above can then enable resets).
  bool ignore_graph_reset = false;
  // The vertices from which a reset is possible; empty: every active vertex. A reset is the
  // tester's move, so passive vertices are rejected (UsageError("reset_from")), as is a list
  // without any reset cost.
  std::vector<VertexId> reset_from;
  UncoverablePolicy on_uncoverable = UncoverablePolicy::fail;
  PostmanFlowSolver flow_solver = PostmanFlowSolver::network_simplex;
};

// An edge that lies on no closed walk through the start vertex, and why (both may hold).
struct UncoverableEdge {
  EdgeId edge;
  bool unreachable = false;    // its source cannot be reached from the start vertex
  bool cannot_return = false;  // the start vertex cannot be reached from its target
};

// The resets a tour may use: an arc from each vertex in `from` to the initial vertex.
struct ResetArcs {
  bool enabled = false;
  double cost = 0;
  VertexId to;                          // the graph's initial vertex
  std::vector<VertexId> from;           // sorted, without duplicates, without `to`
  std::vector<std::uint8_t> can_reset;  // per vertex: 1 if in `from`
};

// Resolves the reset options against the graph (the graph's reset cost, default reset vertices).
// Throws UsageError for a passive vertex in reset_from, reset_from without a reset cost, or a
// negative or non-finite cost; InternalError for a vertex id out of range.
ResetArcs resolve_resets(const TestGraph& g, const PostmanOptions& options);

// The edges that no closed walk from `start` can take (using the reset arcs), in id order.
std::vector<UncoverableEdge> find_uncoverable_edges(const TestGraph& g, VertexId start, const ResetArcs& resets);

// "source of e -> target of e: unreachable from the start vertex 's1'; cannot return to ..."
std::string describe_uncoverable(const TestGraph& g, VertexId start, const UncoverableEdge& u);

struct PostmanTour {
  VertexId start;
  // The closed walk: steps[0].from == start, steps.back().to == start, steps[i].to == steps[i+1].from.
  std::vector<TourStep> steps;
  double cost = 0;         // sum of the costs of the steps (a reset costs the reset cost)
  double lower_bound = 0;  // sum of the costs of the covered edges, each counted once
  // Per EdgeId: how often the tour takes the edge (0 exactly for the uncoverable ones).
  std::vector<std::uint32_t> multiplicity;
  std::uint32_t num_resets = 0;
  ResetArcs resets;
  std::vector<UncoverableEdge> uncoverable;
  // The flow is solved on integer costs: each cost times `cost_scale`, rounded. When every scaled
  // cost is an integer (always so for integer costs of sane size) the tour is exactly optimal;
  // otherwise its cost exceeds the optimum by at most `optimality_gap_bound`.
  double cost_scale = 1;
  bool exact_costs = true;
  double optimality_gap_bound = 0;
  // The optimality certificate of the balancing flow (complementary slackness, as LEMON's own
  // tests check it). The flow runs on the coverable edges and on the resets from `flow_resets`
  // (the reset arcs with both ends in the start vertex's strongly connected component), each with
  // the integer cost c = nearbyint(cost * cost_scale); it carries each edge multiplicity - 1 times
  // and each reset as often as the tour takes it. `flow_potential` holds one value p per vertex
  // such that every such arc u -> v has reduced cost c + p[u] - p[v] >= 0, and = 0 where the flow
  // is positive: no cheaper balancing exists, so no cheaper tour (exactly so when exact_costs).
  // All zero when the covered edges were balanced already (no flow was solved).
  std::vector<std::int64_t> flow_potential;
  std::vector<VertexId> flow_resets;  // sorted
};

// Throws GraphError when the graph has no edges, when no edge can be toured from the start vertex,
// or (with UncoverablePolicy::fail) when some edge is uncoverable; the message names the edges and
// why. Throws InternalError for a start vertex out of range.
PostmanTour postman_tour(const TestGraph& g, const PostmanOptions& options = {});

}  // namespace playtest
