// The floating-point expected-cost answer of `solve` checked and, where needed, replaced by the
// exact one (issue 23, item 2): on graphs small enough for rational arithmetic, the returned
// strategy is evaluated exactly and checked optimal (exact_solve.hpp, check_expected_cost); an
// answer that was not certified, or whose check fails (a "certified" value off its bound, a
// strategy that an edge improves), is replaced by the exact optimum (solve_expected_cost_exact),
// then certified with error 0. Larger graphs and answers whose exact work runs out of its budget
// are left as they were.
#pragma once

#include <cstdint>
#include <string>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/solve_report.hpp"

namespace playtest {

struct ExactFallbackOptions {
  std::uint32_t check_vertices = 2000;      // certified answers are checked exactly up to this size
  std::uint32_t fallback_vertices = 20000;  // uncertified answers are solved exactly up to this size
  double seconds = 30;                      // wall-clock budget of the exact work
};

struct ExactFallbackOutcome {
  bool checked = false;   // the answer was checked exactly and stood
  bool replaced = false;  // the exact optimum replaced the answer
  std::string reason;     // why it was replaced ("not certified", "the check found ...")
};

// Applies to SolveObjective::expected only (reach and win are left alone).
ExactFallbackOutcome apply_exact_fallback(const TestGraph& g, SolveReport& r, const ExactFallbackOptions& o = {});

}  // namespace playtest
