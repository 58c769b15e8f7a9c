// The edge-coverage strategy of seed 000 §5 (procedure Cover) as an online policy: at an active
// vertex follow a tour segment containing it to the next passive vertex; after the system's choice
// there, continue with a segment that starts with the edge it took. Off the tour (after an
// uncoverable edge or an unexpected state) it takes a cheapest path back onto the tour.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "playtest/cover/postman_tour.hpp"
#include "playtest/cover/tour_segments.hpp"
#include "playtest/strategy/policy.hpp"

namespace playtest {

enum class SegmentChoice : std::uint8_t {
  // Among the candidate segments, one with the most edges not yet covered in its remaining part
  // (counting only test-purpose edges when the run has a purpose); ties are broken at random, so
  // once everything is covered this is the paper's random choice.
  prefer_uncovered,
  // The paper's Cover: uniformly at random among the candidates.
  random,
};

struct CoverOptions {
  PostmanOptions tour;  // how the underlying Chinese Postman tour is computed
  SegmentChoice choice = SegmentChoice::prefer_uncovered;
  // Answer Decision::stop() once every coverable (purpose) edge has been taken in this run.
  bool stop_when_covered = true;
};

class CoverPolicy : public Policy {
 public:
  // Computes the tour (may throw what postman_tour throws). `g` must outlive the policy.
  explicit CoverPolicy(const TestGraph& g, const CoverOptions& options = {});
  // Uses a tour computed earlier with options.tour.
  CoverPolicy(const TestGraph& g, PostmanTour tour, const CoverOptions& options = {});

  std::string_view name() const override;
  void begin_run(const RunView& view, Rng& rng) override;
  Decision choose(const RunView& view, Rng& rng) override;
  void observe(EdgeId taken, const RunView& view) override;

  const PostmanTour& tour() const { return tour_; }
  const TourSegments& segments() const { return segments_; }
  const CoverOptions& options() const { return options_; }
  // The segment being followed, or none (a count() value) between segments and off the tour.
  std::uint32_t current_segment() const;
  // Coverable (purpose) edges taken at least once in this run, and how many there are.
  std::uint64_t covered_edges() const { return covered_; }
  std::uint64_t needed_edges() const { return needed_; }

 private:
  static constexpr std::uint32_t no_pos = 0xffffffffu;
  void init_();
  bool counts_(EdgeId e, const RunView& view) const;
  std::uint64_t uncovered_ahead_(std::uint32_t pos, const RunView& view) const;
  Decision follow_(std::uint32_t pos);
  void advance_();
  void recount_(const RunView& view);

  const TestGraph* g_;
  CoverOptions options_;
  PostmanTour tour_;
  TourSegments segments_;
  std::vector<std::uint32_t> segment_of_;   // per step position
  std::vector<std::uint32_t> occ_offsets_;  // per vertex: positions (not segment starts) it leaves from
  std::vector<std::uint32_t> occ_pos_;
  std::vector<std::uint32_t> first_offsets_;  // per edge: segments that start with it
  std::vector<std::uint32_t> first_seg_;
  std::vector<EdgeId> back_edge_;           // off the tour: next edge of a cheapest path back
  std::vector<std::uint8_t> back_reset_;    // off the tour: reset is the cheapest way back
  std::vector<std::uint32_t> candidates_;   // scratch

  std::uint32_t pos_ = no_pos;    // next step to take, when following a segment
  EdgeId pending_;                // a system edge whose continuation is still to be chosen
  std::uint64_t covered_ = 0, needed_ = 0;
};

}  // namespace playtest
