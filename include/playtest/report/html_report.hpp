// One self-contained HTML report (no network: styles, script and pictures inline) of what playtest
// tested: the verdict of every run with the command that replays it; the model drawn by Graphviz with
// edges coloured by how often the runs covered them and the uncovered edges listed by name; for a
// failing run the path to the failure on the picture beside the step table (what the model allowed
// at each step); and, as typed sections, the comparison of strategies (simulate), the cover
// strategy's convergence against seed 000's bound (cover) and a solved strategy with its values
// (solve). Large models degrade to a summary and pictures of the failures' neighbourhoods.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "playtest/campaign/simulation.hpp"
#include "playtest/cover/cover_report.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/report/graphviz.hpp"
#include "playtest/report/run_record.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"

namespace playtest::report {

// solve: a strategy drawn on the graph, each vertex annotated with its value.
struct SolveSection {
  std::string objective;                  // "expected", "reach", "win"
  std::vector<EdgeId> strategy;           // per vertex, none where the strategy makes no choice
  std::vector<std::string> vertex_value;  // per vertex, e.g. "E=3.5", "Pr=0.75 C=4", "lose"
  std::vector<std::uint8_t> losing;       // per vertex: drawn grey
  std::vector<std::string> summary;       // lines shown above the picture
};
SolveSection solve_section(const TestGraph& g, const ExpectedCostResult& r);
SolveSection solve_section(const TestGraph& g, const SureWinResult& r);
SolveSection solve_section(const TestGraph& g, const BoundedReachResult& r);

struct Report {
  std::string title;                 // e.g. "playtest run examples/sut/workers.json"
  std::string tool_version;          // shown at the bottom
  const TestGraph* model = nullptr;  // nullptr: runs and steps only, no picture
  std::string model_name;            // the model's file name
  // When `model` is only the part of the model the runs saw (campaign/seen_part.hpp: a model program too
  // big to explore), why, e.g. "the model is too big to explore within --explore-time (...)": coverage
  // then counts the edges the traces saw, and the page says so.
  std::string model_part;
  std::vector<RunRecord> runs;
  // Runs the traces' campaign lines promise but the traces do not hold (missing_runs,
  // campaign/trace_reader.hpp: a trace cut short): the headline says so and the overall verdict is then
  // at best ERROR, never PASS.
  std::uint64_t runs_missing = 0;
  // The other commands' results, drawn when given (they must outlive the call).
  const StrategyComparison* simulation = nullptr;  // simulate: strategies side by side, mutants killed
  const CoverReport* cover = nullptr;              // cover: the tour and its convergence against the bound
  std::optional<SolveSection> solve;
};

struct ReportOptions {
  GraphvizOptions graphviz;
  // The whole model is drawn up to this size; above it only summaries and the neighbourhoods of
  // failures (Graphviz's layout takes minutes and a browser stalls on SVGs of 10^4 vertices).
  // (Graphviz lays out 120 vertices in about a second; a model of 184 states drawn whole was 28 000
  // pt wide: a thin strip once scaled to the page.)
  std::uint32_t max_drawn_vertices = 120;
  std::uint32_t max_drawn_edges = 480;
  // A failure is drawn on the whole model only up to this many vertices, else on the neighbourhood of
  // its path, so that the picture stays about as wide as the page.
  std::uint32_t max_failure_whole_vertices = 40;
  std::uint32_t neighbourhood_radius = 2;  // around a failure in a large model
  std::uint32_t max_neighbourhood = 24;    // vertices in such a picture
  // Vertices whose names are longer than this (a model program's states) are drawn as v<index>,
  // the full name in their tooltip and in the list under the picture.
  std::uint32_t max_drawn_name = 16;
  std::uint32_t max_table_steps = 400;     // rows of a step table (the last ones)
  std::uint32_t max_failure_pictures = 3;  // failing runs drawn (all are listed)
  std::uint32_t max_listed_edges = 300;    // rows of the uncovered-edges table
};

// What the report said, for the caller's message ("report: 2 runs, 1 FAIL, picture: yes").
struct ReportSummary {
  std::uint32_t runs = 0;
  std::uint32_t pictures = 0;         // SVG pictures in the page
  std::vector<std::string> messages;  // why a picture is missing (Graphviz absent, model too large)
};

// Throws GraphError (located in the trace: file:line) when a run names a vertex or edge that the
// model does not have (the trace is not from this model).
ReportSummary write_html_report(std::ostream& out, const Report& report, const ReportOptions& options = {});

// Text for HTML: invalid UTF-8 and control characters (but tab and line break) become U+FFFD,
// then & < > " ' are escaped (kainjow::mustache's escaper, the one the page template uses).
std::string escape_html(std::string_view s);
// The UTF-8 repair alone.
std::string clean_text(std::string_view s);

}  // namespace playtest::report
