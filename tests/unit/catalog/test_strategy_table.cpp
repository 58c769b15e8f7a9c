// The strategy table (catalog/strategy_table.hpp): names, the "unknown strategy" error, the options
// list, and the checks every row shares before it prepares (goals for the rows that aim at them, the
// whole graph for the rows that cannot play on the fly), asked of every row from its own flags.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/lang/model_program.hpp"

namespace playtest {
namespace {

// A tester's choice between a sure path and a coin, a goal behind both (or no goal at all).
TestGraph small_game(bool with_goal) {
  return parse_graph(std::string(R"({"playtest": "graph/1", "initial": "a", "reset": {"cost": 1},
 "vertices": [{"id": "a", "kind": "active"}, {"id": "p", "kind": "passive"},
              {"id": "g", "kind": "active")") +
                     (with_goal ? R"(, "goal": true)" : "") + R"(}],
 "edges": [{"from": "a", "to": "g", "label": "sure", "cost": 3},
           {"from": "a", "to": "p", "label": "try"},
           {"from": "p", "to": "g", "label": "won", "prob": 0.5},
           {"from": "p", "to": "a", "label": "lost", "prob": 0.5},
           {"from": "g", "to": "a", "label": "again"}]})");
}

std::vector<std::string> row_names() {
  std::vector<std::string> names;
  for (const StrategyRow* row : strategy_table()) names.emplace_back(row->name);
  return names;
}

TEST(StrategyTable, EveryRowIsFoundByItsNameAndTheNamesAreUnique) {
  const std::vector<std::string> names = row_names();
  ASSERT_GE(names.size(), 9u);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const std::string& n : names) EXPECT_EQ(strategy_named(n).name, n);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  EXPECT_EQ(strategy_names_list(), list);
}

TEST(StrategyTable, AnUnknownNameIsAUsageErrorThatListsTheKnownOnesAndTheNearMiss) {
  try {
    strategy_named("cuver");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "strategy");
    const std::string& m = e.diagnostic().message;
    EXPECT_NE(m.find("unknown strategy 'cuver'"), std::string::npos) << m;
    EXPECT_NE(m.find("'cover'"), std::string::npos) << m;  // did you mean
    for (const std::string& n : row_names()) EXPECT_NE(m.find(n), std::string::npos) << n << " missing in " << m;
  }
  EXPECT_THROW(strategy_named(""), UsageError);
  EXPECT_THROW(strategy_named("Random"), UsageError);  // names are exact
}

TEST(StrategyTable, TheOptionsListHoldsEveryRowsOptionsOnceInTableOrder) {
  const std::vector<StrategyOption> all = strategy_options();
  std::vector<std::string> expected;
  for (const StrategyRow* row : strategy_table())
    for (const StrategyOption& o : row->options)
      if (std::find(expected.begin(), expected.end(), std::string(o.name)) == expected.end())
        expected.emplace_back(o.name);
  std::vector<std::string> got;
  for (const StrategyOption& o : all) got.emplace_back(o.name);
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(got.empty());
}

TEST(StrategyTable, RowsThatNeedGoalsRefuseAGraphWithoutOneAndTheOthersPlayIt) {
  const TestGraph with = small_game(true);
  const TestGraph without = small_game(false);
  std::size_t refused = 0;
  for (const StrategyRow* row : strategy_table()) {
    SCOPED_TRACE(std::string(row->name));
    // With a goal every row prepares a policy that starts at the initial vertex.
    const std::unique_ptr<Policy> p = make_policy(row->name, with);
    ASSERT_NE(p, nullptr);
    if (!row->needs_goals) {
      EXPECT_NE(make_policy(row->name, without), nullptr);
      continue;
    }
    try {
      make_policy(row->name, without);
      ADD_FAILURE() << "no refusal";
    } catch (const UsageError& e) {
      ++refused;
      EXPECT_EQ(e.parameter(), "goals");
      EXPECT_NE(e.diagnostic().message.find("strategy '" + std::string(row->name) + "' needs goal vertices"),
                std::string::npos)
          << e.diagnostic().message;
    }
  }
  EXPECT_GT(refused, 0u);  // reach, win and expected aim at goals
}

TEST(StrategyTable, OnTheFlyOnlyTheRowsThatSaySoPlayAndTheOthersNameWhatTheyNeed) {
  const auto model = compile_model(
      "model M;\n"
      "var x: 0..3 = 0;\n"
      "controllable Up require x < 3 { x := x + 1; }\n"
      "controllable Down require x > 0 { x := x - 1; }\n"
      "final x == 3;\n");
  const ModelGraph g(*model);
  std::size_t played = 0;
  for (const StrategyRow* row : strategy_table()) {
    SCOPED_TRACE(std::string(row->name));
    if (row->on_the_fly) {
      EXPECT_NE(make_policy(row->name, g), nullptr);
      ++played;
      continue;
    }
    try {
      make_policy(row->name, g);
      ADD_FAILURE() << "no refusal";
    } catch (const UsageError& e) {
      EXPECT_EQ(e.parameter(), "strategy");
      EXPECT_NE(e.diagnostic().message.find("needs the whole graph"), std::string::npos) << e.diagnostic().message;
    }
  }
  EXPECT_GT(played, 0u);
  EXPECT_LT(played, strategy_table().size());
}

TEST(StrategyTable, AStrategysOwnOptionIsCheckedWhenItIsPrepared) {
  const TestGraph g = small_game(true);
  PrepareOptions o;
  o.args.set("bound", "0");  // reach's bound is at least 1
  try {
    make_policy("reach", g, {}, o);
    ADD_FAILURE() << "no refusal";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "bound");
  }
  o.args.set("bound", "x");
  EXPECT_THROW(make_policy("reach", g, {}, o), UsageError);
  o.args.set("bound", "4");
  EXPECT_NE(make_policy("reach", g, {}, o), nullptr);
}

}  // namespace
}  // namespace playtest
