// Testing a model program on the fly (docs/testing.md "Models too big to explore"): which requests
// can be played on a ModelGraph without exploring the model first, and the test purpose they play.
#pragma once

#include "playtest/explore/model_graph.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

// Whether `spec` can be played on the fly: its strategy plays on the fly (StrategyRow::on_the_fly:
// random, anti-ant, pessimistic) and its purpose names no vertex, edge or trap (those are names in the
// explored graph).
bool can_play_on_the_fly(const StrategySpec& spec);

// The purpose of `spec` on a model explored on the fly: its kind (StrategySpec::purpose_kind) with
// the model's final states as goals and every edge to cover. Throws UsageError("strategy") when the
// strategy needs the whole graph, UsageError("goals"/"edges"/"traps") when the spec names any.
TestPurpose on_the_fly_purpose(const StrategySpec& spec);

// require_something_to_test on the fly: the initial vertex is active without out-edges, or is a
// goal of a reach purpose (InputError "nothing to test: ...").
void require_something_to_test(const ModelGraph& g, const TestPurpose& purpose);

}  // namespace playtest
