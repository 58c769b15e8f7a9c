// `playtest solve` as a library call: one of the three solvers (seed 000 §3 bounded reachability,
// §4 sure winning, seed 001 expected cost) run for a request, its typed result, and that result's
// two renderings: the text table and the JSON document, written to a stream. The JSON document is
// streamed vertex by vertex (a million-vertex answer is never held as a JSON tree) and is byte for
// byte what nlohmann::json::dump(1) prints for the same document.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"

namespace playtest {

enum class SolveObjective : std::uint8_t { reach, win, expected };

struct SolveRequest {
  SolveObjective objective = SolveObjective::expected;
  std::vector<VertexId> goals;                                // at least one
  VertexId from;                                              // the vertex the summary reports on
  std::uint32_t bound = 100;                                  // reach: the bound n on the number of moves
  unsigned threads = 0;                                       // reach, expected: threads (0: the hardware's, at most 8)
  ExpectedCostMethod method = ExpectedCostMethod::certified;  // expected
  double epsilon = 1e-9;                                      // expected, value iteration: the stopping tolerance
  std::uint32_t iterates = 0;  // expected: also the first K value-iteration iterates M^n at `from`
  // Progress for a caller that shows it: value-iteration sweeps done (expected; total 0: unknown)
  // or steps of the bound done (reach); may be empty.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct SolveReport {
  SolveRequest request;
  double seconds = 0;         // wall-clock time of the solver
  bool certified = true;      // reach and win are exact; expected only when certified
  std::string not_certified;  // why, when not
  ExpectedCostResult expected;
  BoundedReachResult reach;
  SureWinResult win;
  std::uint32_t positive = 0;    // reach: vertices with a positive probability
  std::vector<double> iterates;  // expected: M^1, M^2, ... at `from` (Jacobi from M^0 = 0, §3)

  // The strategy's edge at v; none where there is no choice to make.
  EdgeId edge(VertexId v) const;
  // What the solver found at v, shortly ("M=3", "Pr=0.5 C=2", "win C=4", "lose").
  std::string note(VertexId v) const;
  // Whether v is lost: infinite expected cost, probability 0, or not winnable.
  bool lost(VertexId v) const;
};

std::string_view objective_name(SolveObjective objective);  // "reach", "win", "expected"
std::string_view method_name(ExpectedCostMethod method);    // "certified", "vi", "pi", "lp"

// Runs the solver the request names. Throws UsageError("epsilon") for an epsilon that is not a
// positive finite number, UsageError for vertex ids out of range.
SolveReport solve(const TestGraph& g, const SolveRequest& request);

// The text table (at most `limit` vertex rows), then the summary.
void write_solve_text(std::ostream& out, const TestGraph& g, const SolveReport& r, std::uint32_t limit);
// One JSON object: file, goals, iterates (when asked for), objective, summary, vertices.
void write_solve_json(std::ostream& out, const TestGraph& g, const SolveReport& r, std::string_view file);

}  // namespace playtest
