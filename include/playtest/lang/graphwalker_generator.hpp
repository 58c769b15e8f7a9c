// GraphWalker's generators and stop conditions ("random(edge_coverage(100))", docs/graphwalker.md
// "Generators") and what each one is in playtest: a strategy, a test purpose (labels to cover, a
// goal to reach, none) and a budget. The table of the mapping is in docs/graphwalker.md.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "playtest/lang/graphwalker_model.hpp"

namespace playtest {

struct GwStopCondition {
  enum class Kind : std::uint8_t {
    edge_coverage,
    vertex_coverage,
    requirement_coverage,
    dependency_edge_coverage,
    reached_vertex,
    reached_edge,
    time_duration,
    length,
    never,
  };
  Kind kind = Kind::never;
  std::int64_t number = 0;  // percent, seconds, steps, dependency threshold
  std::string name;         // reached_vertex, reached_edge
};

struct GwGenerator {
  enum class Algorithm : std::uint8_t {
    random,
    weighted_random,
    quick_random,
    a_star,
    shortest_all_paths,
    predefined_path
  };
  Algorithm algorithm = Algorithm::random;
  std::vector<GwStopCondition> stops;
  bool any = false;  // the stop conditions joined by `or` (else by `and`, or just one)
  std::string text;
};

// Parses a generator in GraphWalker's grammar (names case-insensitive, GraphWalker 3's spellings
// such as RandomPath and EdgeCoverage too). Throws ParseError located at `file`:`line`:column
// (`column` of the text's first character; the JSON pointer `pointer`) naming what is wrong.
GwGenerator parse_generator(const std::string& text, const std::string& file = "--generator", std::uint32_t line = 1,
                            std::uint32_t column = 1, const std::string& pointer = "");
// The generator of a model file, located in it.
GwGenerator parse_generator(const GwScript& s, const std::string& file);

// How playtest plays a generator.
struct GeneratorPlan {
  std::string strategy;                  // a strategy of the table: random, planner, cover, reach
  std::string purpose;                   // "labels:N%", "reach", "none"
  std::vector<std::string> goals;        // reached_vertex/reached_edge: element names (--goal)
  std::vector<std::string> trap_labels;  // coverage: the labels to cover (of `imported`'s elements)
  std::uint64_t steps = 0;               // length(N): the step budget (GraphWalker counts every element)
  double time_s = 0;                     // time_duration(S)
  // predefined_path: the model is loaded with GraphWalkerOptions::predefined_path (only the path's
  // next step enabled, its end the goal) and played by reach.
  bool predefined_path = false;
  // weighted_random: the edges' weights by label (the random strategy's label weights).
  bool weighted = false;
  std::vector<std::pair<std::string, double>> label_weights;
  std::vector<std::string> notes;  // what is played differently from GraphWalker, once each
  std::string better;              // where playtest has better, in one sentence ("" when not)
};

// Throws UsageError("generator") for a combination that has no playtest equivalent (predefined_path
// with a coverage or reached_* condition), naming it.
// Without `imported` (before the model is loaded) the trap labels are left empty.
GeneratorPlan plan_generator(const GwGenerator& g, const GraphWalkerImport* imported);

}  // namespace playtest
