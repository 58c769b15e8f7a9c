// Helpers shared by the cover tests: the Figure 1 graph of seed 000 §5 and a tour certificate check
// (a valid closed walk, and the balancing flow's optimality certificate).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "playtest/cover/postman_tour.hpp"
#include "playtest/cover/tour_segments.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest::cover_test {

// Seed 000 Figure 1: states s1..s6, choice point cp; all costs 1, e8 and e9 with probability 0.5.
inline TestGraph figure1(std::optional<double> reset_cost = std::nullopt) {
  GraphBuilder b;
  for (const char* s : {"s1", "s2", "s3", "s4", "s5", "s6"}) b.add_vertex(s, VertexKind::active);
  b.add_vertex("cp", VertexKind::passive);
  struct E {
    const char *id, *from, *to;
    std::optional<double> prob;
  };
  const E edges[] = {{"e1", "s1", "s3", {}},  {"e2", "s2", "s1", {}},  {"e3", "s1", "s6", {}},
                     {"e4", "s5", "s1", {}},  {"e5", "s3", "s4", {}},  {"e6", "s6", "s4", {}},
                     {"e7", "s4", "cp", {}},  {"e8", "cp", "s2", 0.5}, {"e9", "cp", "s5", 0.5}};
  for (const E& e : edges)
    b.add_edge({.from = b.vertex_ref(e.from), .to = b.vertex_ref(e.to), .label = e.id, .cost = 1, .prob = e.prob, .name = e.id});
  b.set_initial("s1");
  b.set_reset_cost(reset_cost);
  return b.build();
}

inline std::vector<std::string> names(const TestGraph& g, std::span<const TourStep> steps) {
  std::vector<std::string> out;
  for (const TourStep& s : steps) out.push_back(s.is_reset() ? "reset@" + std::string(g.name(s.from)) : std::string(g.name(s.edge)));
  return out;
}

// The vertices on a closed walk through `start` (its strongly connected component), over the
// graph's edges plus the reset arcs.
inline std::vector<std::uint8_t> start_component(const TestGraph& g, VertexId start, const ResetArcs& r) {
  const std::uint32_t n = g.num_vertices();
  auto closure = [&](bool forward) {
    std::vector<std::uint8_t> seen(n, 0);
    std::vector<VertexId> todo{start};
    seen[start.index()] = 1;
    while (!todo.empty()) {
      const VertexId v = todo.back();
      todo.pop_back();
      std::vector<VertexId> next;
      if (forward)
        for (EdgeId e : g.out_edges(v)) next.push_back(g.target(e));
      else
        for (EdgeId e : g.in_edges(v)) next.push_back(g.source(e));
      if (r.enabled && forward && r.can_reset[v.index()]) next.push_back(r.to);
      if (r.enabled && !forward && v == r.to)
        for (VertexId u : r.from) next.push_back(u);
      for (VertexId w : next)
        if (!seen[w.index()]) {
          seen[w.index()] = 1;
          todo.push_back(w);
        }
    }
    return seen;
  };
  std::vector<std::uint8_t> fwd = closure(true), bwd = closure(false);
  for (std::uint32_t v = 0; v < n; ++v) fwd[v] = fwd[v] && bwd[v];
  return fwd;
}

// c + p[u] - p[v], failing the test instead of overflowing.
inline std::int64_t reduced_cost(std::int64_t c, std::int64_t pu, std::int64_t pv) {
  std::int64_t diff = 0, red = 0;
  const bool overflow = __builtin_sub_overflow(pu, pv, &diff) || __builtin_add_overflow(c, diff, &red);
  EXPECT_FALSE(overflow) << "reduced cost " << c << " + " << pu << " - " << pv << " overflows";
  return red;
}

// The optimality certificate of the balancing flow, checked as LEMON's own tests check theirs
// (complementary slackness): with the integer arc costs c = nearbyint(cost * cost_scale), every
// arc the flow could use (each coverable edge, each reset arc inside the start vertex's
// component) has reduced cost c + p[u] - p[v] >= 0, and = 0 where the flow is positive (an edge
// toured more than once, a reset toured at all). Together with the flow conservation that
// expect_valid_tour checks, this proves that no cheaper tour exists.
inline void expect_optimality_certificate(const TestGraph& g, const PostmanTour& t) {
  ASSERT_EQ(t.flow_potential.size(), g.num_vertices());
  const std::vector<std::uint8_t> component = start_component(g, t.start, t.resets);
  // The reset arcs the flow may use: exactly those with both ends in the component.
  std::vector<VertexId> usable;
  if (t.resets.enabled && component[t.resets.to.index()])
    for (VertexId v : t.resets.from)
      if (component[v.index()]) usable.push_back(v);
  EXPECT_EQ(t.flow_resets, usable);
  auto scaled = [&](double cost) { return static_cast<std::int64_t>(std::nearbyint(cost * t.cost_scale)); };
  auto p = [&](VertexId v) { return t.flow_potential[v.index()]; };
  for (EdgeId e : g.edges()) {
    if (t.multiplicity[e.index()] == 0) continue;  // uncoverable
    const std::int64_t red = reduced_cost(scaled(g.cost(e)), p(g.source(e)), p(g.target(e)));
    EXPECT_GE(red, 0) << "edge " << g.name(e);
    if (t.multiplicity[e.index()] > 1) {
      EXPECT_EQ(red, 0) << "edge " << g.name(e) << " is repeated at reduced cost " << red;
    }
  }
  std::vector<std::uint32_t> resets_from(g.num_vertices(), 0);
  for (const TourStep& s : t.steps)
    if (s.is_reset()) ++resets_from[s.from.index()];
  for (VertexId v : g.vertices())
    if (resets_from[v.index()] > 0) {
      EXPECT_TRUE(std::binary_search(usable.begin(), usable.end(), v)) << "reset from " << g.name(v);
    }
  for (VertexId v : usable) {
    const std::int64_t red = reduced_cost(scaled(t.resets.cost), p(v), p(t.resets.to));
    EXPECT_GE(red, 0) << "reset from " << g.name(v);
    if (resets_from[v.index()] > 0) {
      EXPECT_EQ(red, 0) << "reset from " << g.name(v) << " is taken at reduced cost " << red;
    }
  }
}

// The certificate of a tour: a closed walk from the start, each step a real edge (or an allowed
// reset), each edge taken exactly as often as `multiplicity` claims, at least once iff coverable,
// and the cost the sum of the steps.
inline void expect_valid_tour(const TestGraph& g, const PostmanTour& t) {
  ASSERT_FALSE(t.steps.empty());
  EXPECT_EQ(t.steps.front().from, t.start);
  EXPECT_EQ(t.steps.back().to, t.start);
  std::vector<std::uint32_t> count(g.num_edges(), 0);
  double cost = 0;
  std::uint32_t resets = 0;
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const TourStep& s = t.steps[i];
    if (i + 1 < t.steps.size()) {
      ASSERT_EQ(s.to, t.steps[i + 1].from) << "step " << i;
    }
    if (s.is_reset()) {
      ASSERT_TRUE(t.resets.enabled);
      ASSERT_TRUE(t.resets.can_reset[s.from.index()]) << "reset from a vertex that cannot reset";
      ASSERT_EQ(s.to, g.initial());
      cost += t.resets.cost;
      ++resets;
    } else {
      ASSERT_LT(s.edge.index(), g.num_edges());
      ASSERT_EQ(g.source(s.edge), s.from);
      ASSERT_EQ(g.target(s.edge), s.to);
      ++count[s.edge.index()];
      cost += g.cost(s.edge);
    }
  }
  ASSERT_EQ(t.multiplicity.size(), g.num_edges());
  std::vector<std::uint8_t> uncoverable(g.num_edges(), 0);
  for (const UncoverableEdge& u : t.uncoverable) uncoverable[u.edge.index()] = 1;
  double lower = 0;
  for (EdgeId e : g.edges()) {
    EXPECT_EQ(count[e.index()], t.multiplicity[e.index()]) << g.name(e);
    EXPECT_EQ(count[e.index()] == 0, uncoverable[e.index()] != 0) << g.name(e);
    if (!uncoverable[e.index()]) lower += g.cost(e);
  }
  EXPECT_EQ(resets, t.num_resets);
  EXPECT_NEAR(cost, t.cost, 1e-9 * (1 + cost));
  EXPECT_NEAR(lower, t.lower_bound, 1e-9 * (1 + lower));
  EXPECT_GE(t.cost + 1e-9, t.lower_bound);
  expect_optimality_certificate(g, t);
}

// Segments: a partition of the tour's cyclic order; each starts and ends at a passive vertex with
// no passive vertex inside (or one cyclic segment when the tour has none).
inline void expect_valid_segments(const TestGraph& g, const PostmanTour& t, const TourSegments& s) {
  ASSERT_EQ(s.steps.size(), t.steps.size());
  ASSERT_GE(s.count(), 1u);
  // s.steps is a rotation of t.steps.
  std::size_t shift = 0;
  bool found = false;
  for (; shift < t.steps.size() && !found; ++shift) {
    found = true;
    for (std::size_t i = 0; i < t.steps.size() && found; ++i) found = s.steps[i] == t.steps[(i + shift) % t.steps.size()];
  }
  EXPECT_TRUE(found) << "segments are not a rotation of the tour";
  EXPECT_EQ(s.begin.front(), 0u);
  EXPECT_EQ(s.begin.back(), s.steps.size());
  if (s.cyclic) {
    EXPECT_EQ(s.count(), 1u);
    for (const TourStep& st : s.steps) EXPECT_TRUE(g.is_active(st.from));
    return;
  }
  for (std::uint32_t i = 0; i < s.count(); ++i) {
    auto seg = s.segment(i);
    ASSERT_FALSE(seg.empty());
    EXPECT_TRUE(g.is_passive(seg.front().from));
    EXPECT_TRUE(g.is_passive(seg.back().to));
    for (std::size_t k = 1; k < seg.size(); ++k) EXPECT_TRUE(g.is_active(seg[k].from));
  }
}

}  // namespace playtest::cover_test
