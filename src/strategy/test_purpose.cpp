#include "playtest/strategy/test_purpose.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/strategy/strategy_row.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest {

std::string_view to_string(TestPurpose::Kind k) {
  switch (k) {
    case TestPurpose::Kind::none: return "none";
    case TestPurpose::Kind::reach: return "reach";
    case TestPurpose::Kind::cover: return "cover";
  }
  throw InternalError("to_string(TestPurpose::Kind): unknown kind");
}

PurposeChoice parse_purpose_choice(std::string_view name) {
  if (name == "auto") return PurposeChoice::automatic;
  if (name == "reach") return PurposeChoice::reach;
  if (name == "cover") return PurposeChoice::cover;
  if (name == "none") return PurposeChoice::none;
  throw UsageError("purpose", fmt::format("unknown purpose '{}'; known purposes: auto, reach, cover, none", name));
}

TestPurpose purpose_from_names(const TestGraph& g, TestPurpose::Kind kind, std::span<const std::string> goals,
                               std::span<const std::string> edges) {
  TestPurpose p;
  p.kind = kind;
  for (const std::string& name : goals) p.goals.push_back(vertex_named(g, name, "a goal"));
  for (const std::string& name : edges) {
    auto found = edges_named(g, name, "an edge to cover");
    p.edges.insert(p.edges.end(), found.begin(), found.end());
  }
  return p;
}

TestPurpose::Kind StrategySpec::purpose_kind() const {
  if (!traps.empty()) return TestPurpose::Kind::cover;
  switch (purpose) {
    case PurposeChoice::reach: return TestPurpose::Kind::reach;
    case PurposeChoice::cover: return TestPurpose::Kind::cover;
    case PurposeChoice::none: return TestPurpose::Kind::none;
    case PurposeChoice::automatic: break;
  }
  if (!goals.empty()) return TestPurpose::Kind::reach;
  return strategy != nullptr ? strategy->default_purpose : TestPurpose::Kind::cover;
}

TestPurpose StrategySpec::resolve(const TestGraph& g, std::span<const std::string> declared_traps) const {
  TestPurpose p = purpose_from_names(g, purpose_kind(), goals, edges);
  if (!traps.empty()) p.edges = select_traps(g, traps, declared_traps);
  const bool strategy_needs_goals = strategy != nullptr && strategy->needs_goals;
  if ((strategy_needs_goals || p.kind == TestPurpose::Kind::reach) && p.goals.empty() && g.num_goals() == 0)
    throw UsageError("goals", fmt::format("{} needs goal vertices, and the graph has none",
                                          strategy_needs_goals ? fmt::format("strategy '{}'", strategy->name)
                                                               : std::string("the test purpose 'reach'")));
  return p;
}

void require_something_to_test(const TestGraph& g, const TestPurpose& purpose) {
  if (g.num_vertices() == 0) throw InputError("nothing to test: the model has no vertices");
  const VertexId init = g.initial();
  if (g.num_edges() == 0) {
    Diagnostic d;
    d.message = "nothing to test: the model has no edges";
    d.notes.push_back(g.num_vertices() == 1 ? fmt::format("its only vertex is '{}'", g.name(init))
                                            : fmt::format("it has {} vertices", g.num_vertices()));
    throw InputError(std::move(d));
  }
  if (g.is_active(init) && g.out_degree(init) == 0)
    throw InputError(fmt::format("nothing to test: the initial vertex '{}' has no out-edges", g.name(init)));
  if (purpose.kind == TestPurpose::Kind::reach) {
    bool initial_is_goal = purpose.goals.empty() ? g.is_goal(init)
                                                 : std::find(purpose.goals.begin(), purpose.goals.end(), init) !=
                                                       purpose.goals.end();
    if (initial_is_goal)
      throw InputError(fmt::format("nothing to test: the purpose is to reach a goal, and the initial vertex '{}' is one",
                                   g.name(init)));
  }
}

}  // namespace playtest
