// Testing a model program on the fly (docs/testing.md "Models too big to explore"): which requests
// can be played on a ModelGraph without exploring the model first, and the test purpose they play.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "playtest/explore/model_graph.hpp"
#include "playtest/run/run_values.hpp"
#include "playtest/strategy/strategy_row.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

// Small models are explored first (docs/testing.md "Models too big to explore"): `run` and
// `simulate` explore a model program whole when it fits a budget, so that coverage totals, edge ids,
// `merge`, `report` and exact replay (also with `abstract`) work as for a graph file; they play it on
// the fly only when the exploration exceeds the budget or on-the-fly play is asked for.
struct ExploreFirstOptions {
  std::uint64_t max_states = 10'000'000;  // vertices of the explored graph
  double max_seconds = 1.0;               // wall clock for the exploration, building included (0: none)
  bool on_the_fly = false;                // play on the fly without exploring first
};

struct ExploreFirst {
  std::optional<TestGraph> graph;  // the whole graph (VertexNaming::state) when it fit the budget
  // With the graph, when the model's labels hold values: the model state of each vertex, for the
  // runner (RunOptions::values).
  std::shared_ptr<const ValueContext> values;
  // Otherwise why the model is played on the fly, in words for the outputs ("exploring it did not
  // end within 1 s (52000 vertices found)", "on-the-fly play was asked for").
  std::string on_the_fly_reason;
};

// Explores `model` within the budget. Throws ModelError when the model fails in a state it reaches
// (as loading it as a graph does).
ExploreFirst explore_first(const std::shared_ptr<const Model>& model, const ExploreFirstOptions& options = {});

// Whether `spec` can be played on the fly: its strategy plays on the fly (StrategyRow::on_the_fly)
// and its purpose names no vertex, edge or trap (those are names in the
// explored graph).
bool can_play_on_the_fly(const StrategySpec& spec);

// The purpose of `spec` on a model explored on the fly: its kind (StrategySpec::purpose_kind) with
// the model's final states as goals and every edge to cover. Throws UsageError("strategy") when the
// strategy needs the whole graph (naming the rows of `table`, catalog/strategy_table.hpp, that play
// on the fly), UsageError("goals"/"edges"/"traps") when the spec names any.
TestPurpose on_the_fly_purpose(const StrategySpec& spec, std::span<const StrategyRow* const> table);

// require_something_to_test on the fly: the initial vertex is active without out-edges, or is a
// goal of a reach purpose (InputError "nothing to test: ...").
void require_something_to_test(const ModelGraph& g, const TestPurpose& purpose);

}  // namespace playtest
