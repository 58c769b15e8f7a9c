#include "playtest/run/on_the_fly.hpp"

#include <fmt/format.h>

#include "playtest/error.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

bool can_play_on_the_fly(const StrategySpec& spec) {
  return (spec.strategy == nullptr || spec.strategy->on_the_fly) && spec.goals.empty() && spec.edges.empty() &&
         spec.traps.empty();
}

TestPurpose on_the_fly_purpose(const StrategySpec& spec) {
  if (spec.strategy != nullptr && !spec.strategy->on_the_fly)
    throw UsageError("strategy", fmt::format("strategy '{}' needs the whole graph: it cannot play a model explored on "
                                             "the fly (random, anti-ant and pessimistic can)",
                                             spec.strategy->name));
  const char* why = "a model explored on the fly has no vertex or edge ids before a run reaches them";
  if (!spec.goals.empty()) throw UsageError("goals", why);
  if (!spec.edges.empty()) throw UsageError("edges", why);
  if (!spec.traps.empty()) throw UsageError("traps", why);
  return TestPurpose{.kind = spec.purpose_kind()};
}

void require_something_to_test(const ModelGraph& g, const TestPurpose& purpose) {
  const VertexId init = g.initial();
  if (g.is_active(init) && g.out_degree(init) == 0)
    throw InputError(fmt::format("nothing to test: the initial vertex '{}' has no out-edges", g.name(init)));
  if (purpose.kind == TestPurpose::Kind::reach && !g.model().may_have_final_states())
    throw UsageError("goals",
                     "the test purpose 'reach' needs goal vertices, and the model declares no final states (no "
                     "'final' declaration)");
  if (purpose.kind == TestPurpose::Kind::reach && g.is_goal(init))
    throw InputError(fmt::format("nothing to test: the purpose is to reach a goal, and the initial vertex '{}' is one",
                                 g.name(init)));
}

}  // namespace playtest
