// How fast the cover strategy covers the graph (seed 000 §5, Proposition 2): the exact
// p = min p_{i,v} and the bound 1 - n(1-p)^m, and a seeded simulation of the probability that every
// edge is covered after k visits of choice points, with Wilson confidence intervals.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "playtest/strategy/statistics.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/cover/tour_segments.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct CoverBoundOptions {
  // p_{i,v} for all i, v costs about n^2 * (number of segment starts) operations for n segments;
  // above this the bound is not computed.
  std::uint64_t max_work = 300'000'000;
};

struct CoverBound {
  bool computed = false;           // false when the work limit was hit
  bool cyclic = false;             // the tour has no passive vertex: one visit is one round of the tour
  std::uint32_t num_segments = 0;  // n
  // p = min over segments i and passive tour vertices v of p_{i,v}: the probability that
  // Cover(v, n) with the paper's uniform random choice among the segments starting with the
  // system's edge follows T_i in one of its n iterations. A system edge that leaves the tour counts
  // as a failure. p = 1 for a cyclic (deterministic) tour.
  double p = 0;
  std::uint32_t argmin_segment = 0;  // where the minimum is attained
  VertexId argmin_vertex;

  // Proposition 2: Cover(v, m n) covers every edge of the tour with probability at least
  // 1 - n (1 - p)^m; clamped at 0.
  double bound(std::uint64_t m) const;
  // The bound after k visits of choice points in a run that starts off a choice point: the first
  // visit starts Cover, so k visits are k - 1 iterations, m = floor((k - 1) / n). For a cyclic
  // tour a visit is a completed round, so the bound is 1 from k = 1.
  double bound_after_visits(std::uint64_t k) const;
  // The least m with bound(m) >= target (m n iterations of Cover), when the bound was computed and
  // p > 0; 1 for p = 1.
  std::optional<std::uint64_t> rounds_for(double target) const;
};

CoverBound cover_bound(const TestGraph& g, const TourSegments& segments, const CoverBoundOptions& options = {});

struct ConvergenceOptions {
  std::uint32_t runs = 1000;
  std::uint32_t max_visits = 20;  // K
  std::uint64_t seed = 1;
  double z = 1.959963984540054;  // Wilson interval: 95%
  // Runs start here; none: the tour's start vertex.
  VertexId start = VertexId::none();
};

struct ConvergenceRow {
  std::uint32_t visits = 0;        // k
  std::uint32_t covered_runs = 0;  // runs with every coverable edge covered at the k-th visit
  double estimate = 0, low = 0, high = 0;
};

struct ConvergenceTable {
  std::uint32_t runs = 0;
  std::vector<ConvergenceRow> rows;  // k = 1..K
};

// Plays `options.runs` runs of `policy` against a system that picks edges at passive vertices with
// the graph's probabilities. A visit is an arrival at a passive vertex (or the start vertex when it
// is passive); in a tour without passive vertices, a visit is counted after each tour length of
// steps instead. Row k counts the runs in which every edge the tour covers had been taken when the
// k-th visit happened. A run that stops (covered, or stuck) keeps its final state for later rows.
// Resets take the system to the initial vertex at the reset cost.
ConvergenceTable simulate_coverage(const TestGraph& g, CoverPolicy& policy, const ConvergenceOptions& options = {});

}  // namespace playtest
