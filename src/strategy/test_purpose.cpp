#include "playtest/strategy/test_purpose.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "playtest/base/did_you_mean.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
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

std::uint32_t purpose_needed(double threshold, std::uint32_t total) {
  if (total == 0) return 0;
  // A hair below the product: 80% of 5 edges is 4, not 5 by a rounding error.
  const double need = std::ceil(threshold * double(total) - 1e-9);
  return static_cast<std::uint32_t>(std::clamp(need, 1.0, double(total)));
}

PurposeChoice parse_purpose_choice(std::string_view name) {
  if (name == "auto") return PurposeChoice::automatic;
  if (name == "reach") return PurposeChoice::reach;
  if (name == "cover") return PurposeChoice::cover;
  if (name == "labels") return PurposeChoice::labels;
  if (name == "none") return PurposeChoice::none;
  const std::vector<std::string> known{"auto", "reach", "cover", "labels", "none"};
  throw UsageError("purpose", make_diagnostic("", 0, 0, "",
                                              fmt::format("unknown purpose '{}'{}; known purposes: auto, reach, "
                                                          "cover, labels, none (cover and labels also as cover:80%)",
                                                          name, did_you_mean(name, known)),
                                              {"purpose none is the smoke test: it runs the budget and passes "
                                               "without a failure"}));
}

PurposeRequest parse_purpose_request(std::string_view text) {
  PurposeRequest r;
  const auto colon = text.find(':');
  r.choice = parse_purpose_choice(text.substr(0, colon));
  if (colon == std::string_view::npos) return r;
  if (r.choice != PurposeChoice::cover && r.choice != PurposeChoice::labels)
    throw UsageError("purpose", fmt::format("'{}': only cover and labels take a threshold (cover:80%)", text));
  std::string_view pct = text.substr(colon + 1);
  double v = 0;
  bool ok = pct.size() >= 2 && pct.back() == '%';
  if (ok) {
    pct.remove_suffix(1);
    const auto read = read_finite(pct);
    v = read.value;
    ok = read.ok() && v > 0 && v <= 100;
  }
  if (!ok)
    throw UsageError("purpose", fmt::format("'{}': the threshold is a percentage above 0 and at most 100, as in "
                                            "cover:80%",
                                            text));
  r.threshold = v / 100.0;
  return r;
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
    case PurposeChoice::cover:
    case PurposeChoice::labels:
      return TestPurpose::Kind::cover;
    case PurposeChoice::none: return TestPurpose::Kind::none;
    case PurposeChoice::automatic: break;
  }
  if (!goals.empty()) return TestPurpose::Kind::reach;
  return strategy != nullptr ? strategy->default_purpose : TestPurpose::Kind::cover;
}

TestPurpose StrategySpec::resolve(const TestGraph& g, std::span<const std::string> declared_traps) const {
  TestPurpose p = purpose_from_names(g, purpose_kind(), goals, edges);
  if (!traps.empty()) p.edges = select_traps(g, traps, declared_traps);
  if (p.kind == TestPurpose::Kind::cover) {
    p.by_label = purpose == PurposeChoice::labels;
    p.threshold = threshold;
  }
  const bool strategy_needs_goals = strategy != nullptr && strategy->needs_goals;
  if ((strategy_needs_goals || p.kind == TestPurpose::Kind::reach) && p.goals.empty() && g.num_goals() == 0)
    throw UsageError("goals", fmt::format("{} needs goal vertices, and the graph has none",
                                          strategy_needs_goals ? fmt::format("strategy '{}'", strategy->name)
                                                               : std::string("the test purpose 'reach'")));
  return p;
}

void require_something_to_test(const TestGraph& g, const TestPurpose& purpose, std::string_view goal_strategy) {
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
  if (purpose.kind == TestPurpose::Kind::reach || !goal_strategy.empty()) {
    bool initial_is_goal = purpose.goals.empty() ? g.is_goal(init)
                                                 : std::find(purpose.goals.begin(), purpose.goals.end(), init) !=
                                                       purpose.goals.end();
    if (initial_is_goal) {
      // One message for every strategy and purpose that aims at a goal (issue 36: the strategy
      // 'expected' with purpose cover said "no strategy reaches a goal from there").
      Diagnostic d;
      d.message = purpose.kind == TestPurpose::Kind::reach
                      ? fmt::format("nothing to test: the purpose is to reach a goal, and the initial vertex '{}' is one",
                                    g.name(init))
                      : fmt::format("nothing to test: strategy '{}' steers to a goal, and the initial vertex '{}' is one",
                                    goal_strategy, g.name(init));
      d.notes.push_back(purpose.goals.empty()
                            ? "the model's goal condition ('final' in a model program) holds in its initial state; "
                              "playtest validate and info warn about it"
                            : "--goal names the initial vertex");
      d.notes.push_back(
          "to cover the model, play a strategy that does not aim at goals (random, cover, anti-ant, planner), or "
          "give goals that are not the initial vertex (--goal)");
      throw InputError(std::move(d));
    }
  }
}

}  // namespace playtest
