// What `playtest cover` computes (seed 000 §5): the Chinese Postman tour, its segments, the bound
// of Proposition 2 and a simulated convergence table, as one typed result with one text rendering
// for people and one JSON rendering for programs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "playtest/cover/cover_convergence.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct CoverReportOptions {
  CoverOptions cover;
  std::uint32_t sim_runs = 1000;  // simulated runs for the convergence table (0: none)
  std::uint32_t max_visits = 0;   // rows of the table; 0: 5 per segment, within 10..200
  std::uint64_t seed = 0;         // of the simulation
};

struct CoverReport {
  std::unique_ptr<CoverPolicy> policy;  // holds the tour and its segments
  CoverBound bound;
  std::optional<std::uint64_t> rounds_99;  // m with bound(m) >= 0.99
  ConvergenceTable table;
  std::uint32_t max_visits = 0;
  CoverReportOptions options;

  const PostmanTour& tour() const { return policy->tour(); }
  const TourSegments& segments() const { return policy->segments(); }
};

// Throws what postman_tour throws (GraphError for uncoverable edges, UsageError for bad reset
// options).
CoverReport analyze_cover(const TestGraph& g, const CoverReportOptions& options);

// Tours and segments name edges by id, or, when the model left edge ids to the builder (e0, e1, ...
// say nothing), as walks by label: "idle0 -submit-> both0 -done_a-> wait_b0".
// `max_tour_steps`: a longer tour is summarised (its first steps and a count) instead of printed
// whole; 0: always whole.
void write_cover_text(std::ostream& out, const TestGraph& g, const CoverReport& r, std::size_t max_tour_steps = 0);
nlohmann::json cover_json(const TestGraph& g, const CoverReport& r);

// The tour one step a line: "ID SOURCE -LABEL-> TARGET", or "reset SOURCE -> TARGET".
void write_tour_lines(std::ostream& out, const TestGraph& g, const PostmanTour& tour);

}  // namespace playtest
