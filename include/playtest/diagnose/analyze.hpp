// Know before you run: per test purpose, what the game says about it before any test is played.
// For a goal or an edge to take: can the tester force it (sure winning, seed 000 §4, with its
// worst-case cost), with what probability within n moves (bounded reachability, seed 000 §3), at
// what expected cost (seed 001 §2), or is it unreachable. For coverage: the optimal tour's cost
// and the rounds of the cover strategy after which Proposition 2 of seed 000 §5 guarantees 99%.
// And the check run and simulate make up front: can a purpose be met by any run at all.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "playtest/cover/postman_tour.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

struct AnalyzeOptions {
  std::uint32_t bound = 0;  // n of "probability within n moves"; 0: 2 * vertices + 2, at most 1000
  std::vector<double> levels = {0.5, 0.9, 0.99};  // report the least n reaching each probability
  bool coverage = true;                           // also the tour and its convergence bound
  double coverage_target = 0.99;                  // the probability the cover bound is asked for
  // An expected cost the floating-point solver could not certify is solved in rational arithmetic
  // (solve/exact/exact_solve.hpp) on graphs of at most this many vertices, within this many seconds, as
  // `solve` does (its exact fallback); 0 vertices: never.
  std::uint32_t exact_fallback_vertices = 20000;
  double exact_fallback_seconds = 30;
};

struct PurposeAnalysis {
  enum class Kind : std::uint8_t { goal, edges };
  Kind kind = Kind::goal;
  std::string name;             // the vertex id, or the edge id or label as given
  std::vector<VertexId> goals;  // Kind::goal
  std::vector<EdgeId> edges;    // Kind::edges: the edge (or the one edge with the label) to take
  bool reachable = false;       // some choices of both players meet it
  bool sure_win = false;        // the tester can force it
  double worst_case_cost = 0;   // of the sure-winning strategy (+infinity when not winnable)
  std::uint32_t bound = 0;      // n
  double probability = 0;       // maximal probability of meeting it within n moves
  double cost_at_bound = 0;     // the worst-case cost of that strategy's plays (seed 000 Example 1)
  struct Level {
    double probability = 0;
    std::optional<std::uint32_t> moves;  // the least n <= bound with Pr(n) >= probability
  };
  std::vector<Level> levels;
  bool almost_sure = false;            // some strategy meets it with probability 1 (no bound)
  double expected_cost = 0;            // minimal expected cost (+infinity unless almost_sure)
  bool expected_certified = false;     // proved within the relative bound below (solve/core/certificate.hpp)
  double expected_error_bound = -1;    // the proved relative bound; -1 when none was proved
  std::string expected_not_certified;  // why not, when not
  bool expected_exact = false;         // the value is the exact optimum (the exact fallback), error 0
  double probability_error_bound = 0;  // the proved rounding bound on `probability`
};

struct CoverageAnalysis {
  double tour_cost = 0, lower_bound = 0;
  std::uint32_t tour_steps = 0, resets = 0;
  bool exact_costs = true;
  std::uint32_t segments = 0;  // n of Proposition 2
  bool cyclic = false;
  bool bound_computed = false;
  double p = 0;  // min p_{i,v}
  double target = 0.99;
  std::optional<std::uint64_t> rounds;      // the least m with 1 - n (1 - p)^m >= target
  std::optional<std::uint64_t> iterations;  // m * n: iterations of Cover (visits of choice points)
  std::vector<UncoverableEdge> uncoverable;
  std::string impossible;  // when no tour exists (no edge can be toured): why; the rest is then empty
};

struct Analysis {
  VertexId start;
  std::vector<PurposeAnalysis> purposes;
  std::optional<CoverageAnalysis> coverage;
  bool certified = true;  // every expected cost reported was certified
};

// `goals`: vertex ids; `edges`: edge ids or labels (each one purpose; a label with several edges is
// one purpose per edge, as `run --edge LABEL` covers every edge with it). With neither, every goal
// vertex of the graph is one purpose. Throws GraphError for a name the graph does not have, and
// for a graph without edges when coverage is asked for.
Analysis analyze(const TestGraph& g, std::span<const std::string> goals, std::span<const std::string> edges,
                 const AnalyzeOptions& options = {});

// Whether any run (any choices of the tester and the system, resets where the graph has them)
// can meet `purpose`: to reach, some goal must be reachable from the initial vertex; to cover,
// every purpose edge must leave a reachable vertex and, without resets, one run must be able to
// take them all (they lie on one path through the graph's strongly connected components).
struct PurposeFeasibility {
  bool feasible = true;
  std::string reason;                       // what cannot be met and why, naming it
  std::vector<VertexId> unreachable_goals;  // reach: every goal, when none is reachable
  std::vector<EdgeId> unreachable_edges;    // cover: edges no run can take
};
PurposeFeasibility purpose_feasibility(const TestGraph& g, const TestPurpose& purpose);

// What `playtest validate` warns about in a valid model that cannot serve a purpose: a model
// program whose `final` condition (`final_declared`) no reachable state satisfies, goal vertices
// of which none or only some are reachable from the initial vertex. Empty when all is well.
std::vector<std::string> model_warnings(const TestGraph& g, bool final_declared);

}  // namespace playtest
