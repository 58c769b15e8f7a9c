// playtest solve's options (the command is cmd_solve.cpp): the objective or a PRISM property, the
// solver's method and budgets, and the outputs; and the Graphviz picture of a solved strategy.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "playtest/solve/solve_report.hpp"

namespace playtest::cli {

struct SolveOptions {
  InputOptions input;
  std::string objective = "expected", method = "certified", from, dot;
  std::vector<std::string> goals;
  SolveRequest request;
  bool json = false;
  std::uint32_t limit = 50;
  std::string property;                  // --property: a PRISM/Storm formula
  std::string props, prop;               // --props FILE, --prop NAME|INDEX: a property of a .props file
  std::vector<std::string> constants;    // --const NAME=VALUE[,...] (repeatable)
  bool exact = false;                    // --exact: rational arithmetic
  double exact_seconds = 120;            // budget of --exact
  double check_seconds = 10;             // budget of exact checks and fallbacks
  std::uint32_t check_vertices = 20000;  // --property: the largest graph whose answer is checked exactly
  bool bound_given = false;
};

// FILE and the input options, --objective, --bound, --property, --exact, ... --limit, the footer.
void add_solve_options(CLI::App* sub, SolveOptions& o);

// o.request completed for `g` (without --property): the goals (--goal, else the graph's; InputError
// when none), --from, the objective and the method; a reach bound checked (check_reach_bound).
const SolveRequest& solve_request(SolveOptions& o, const TestGraph& g);

// The strategy drawn to o.dot (nothing when no --dot): its edges highlighted, each vertex noted.
void write_strategy_dot(const SolveOptions& o, const TestGraph& g, const std::string& what,
                        const std::function<bool(EdgeId)>& highlight, const std::function<std::string(VertexId)>& note,
                        const std::function<bool(VertexId)>& dim);

}  // namespace playtest::cli
