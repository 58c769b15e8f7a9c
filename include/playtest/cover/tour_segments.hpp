// A tour cut at choice points (seed 000 §5): segments T_i that start with an edge chosen by the system
// at a passive vertex and end at the next passive vertex, with no passive vertex inside. The cover
// strategy follows one segment at a time. A tour through no passive vertex (a deterministic system)
// is a single cyclic segment: the tour itself, followed round and round.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/cover/postman_tour.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct TourSegments {
  // The tour rotated to begin at its first passive vertex (not rotated when it has none).
  std::vector<TourStep> steps;
  // Segment i is steps[begin[i], begin[i + 1]); begin.size() == count() + 1.
  std::vector<std::uint32_t> begin;
  // True when the tour has no passive vertex: one segment, the whole tour, followed cyclically.
  bool cyclic = false;

  std::uint32_t count() const { return begin.empty() ? 0 : static_cast<std::uint32_t>(begin.size() - 1); }
  std::span<const TourStep> segment(std::uint32_t i) const {
    return std::span<const TourStep>(steps).subspan(begin[i], begin[i + 1] - begin[i]);
  }
  // The passive vertex where segment i starts and the one where it ends (non-cyclic only).
  VertexId first_vertex(std::uint32_t i) const { return steps[begin[i]].from; }
  VertexId last_vertex(std::uint32_t i) const { return steps[begin[i + 1] - 1].to; }
};

// Cuts `tour` (a tour of `g`) at its passive vertices. Throws InputError ("nothing to test") for an empty tour.
TourSegments cut_tour(const TestGraph& g, const PostmanTour& tour);

}  // namespace playtest
