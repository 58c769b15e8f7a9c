// The strategy table (catalog/strategy_table.hpp): the strategies that play on the fly are named in
// every message and help text from the rows' on_the_fly flags, never written out by hand.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/run/on_the_fly.hpp"

namespace playtest {
namespace {

// "a, b and c" -> {a, b, c}.
std::vector<std::string> names_in_words(std::string text, const std::string& conjunction) {
  std::vector<std::string> out;
  const std::string last = " " + conjunction + " ";
  if (const auto at = text.rfind(last); at != std::string::npos) text.replace(at, last.size(), ", ");
  for (std::size_t begin = 0; !text.empty();) {
    const std::size_t comma = text.find(", ", begin);
    out.push_back(text.substr(begin, comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 2;
  }
  return out;
}

std::vector<std::string> rows_on_the_fly() {
  std::vector<std::string> out;
  for (const StrategyRow* row : strategy_table())
    if (row->on_the_fly) out.emplace_back(row->name);
  return out;
}

TEST(OnTheFlyNames, TheOnTheFlyListIsExactlyTheRowsThatPlayOnTheFly) {
  ASSERT_FALSE(rows_on_the_fly().empty());
  ASSERT_LT(rows_on_the_fly().size(), strategy_table().size());
  EXPECT_EQ(names_in_words(on_the_fly_strategies(), "and"), rows_on_the_fly()) << on_the_fly_strategies();
  EXPECT_EQ(names_in_words(on_the_fly_strategies("or"), "or"), rows_on_the_fly()) << on_the_fly_strategies("or");
}

TEST(OnTheFlyNames, TheWordsFollowTheFlags) {
  const StrategyRow a{.name = "a", .on_the_fly = true}, b{.name = "b"}, c{.name = "c", .on_the_fly = true},
      d{.name = "d", .on_the_fly = true};
  const std::array<const StrategyRow*, 4> abcd{&a, &b, &c, &d};
  EXPECT_EQ(on_the_fly_names(abcd), "a, c and d");
  EXPECT_EQ(on_the_fly_names(abcd, "or"), "a, c or d");
  EXPECT_EQ(on_the_fly_names(std::span(abcd).first(3)), "a and c");
  EXPECT_EQ(on_the_fly_names(std::span(abcd).first(2)), "a");
  EXPECT_EQ(on_the_fly_names(std::span(abcd).subspan(1, 1)), "");
}

TEST(OnTheFlyNames, TheRefusalToPlayOnTheFlyNamesTheTablesRows) {
  const StrategyRow& reach = strategy_named("reach");
  ASSERT_FALSE(reach.on_the_fly);
  const StrategySpec spec{.strategy = &reach};
  auto message = [&](std::span<const StrategyRow* const> table) {
    try {
      on_the_fly_purpose(spec, table);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(strategy_table()).find("(" + on_the_fly_strategies() + " can)"), std::string::npos)
      << message(strategy_table());
  const StrategyRow mine{.name = "mine", .on_the_fly = true};
  const std::array<const StrategyRow*, 2> table{&reach, &mine};
  EXPECT_NE(message(table).find("(mine can)"), std::string::npos) << message(table);
  // A strategy that plays on the fly is not refused.
  const StrategySpec random{.strategy = &strategy_named("random")};
  EXPECT_NO_THROW(on_the_fly_purpose(random, strategy_table()));
}

TEST(OnTheFlyNames, TheWholeGraphRefusalNamesTheRowsThatPlayOnTheFly) {
  const auto model = compile_model(
      "model M;\n"
      "var x: 0..1 = 0;\n"
      "controllable Up require x < 1 { x := x + 1; }\n"
      "final x == 1;\n");
  const ModelGraph g(*model);
  try {
    make_policy("reach", g);
    ADD_FAILURE() << "no refusal";
  } catch (const UsageError& e) {
    ASSERT_FALSE(e.diagnostic().notes.empty()) << e.diagnostic().message;
    EXPECT_EQ(e.diagnostic().notes[0].rfind(on_the_fly_strategies() + " play on the fly;", 0), 0u)
        << e.diagnostic().notes[0];
  }
  // The words come from the table prepare_strategy is given, whatever it holds.
  const StrategyRow mine{.name = "mine", .on_the_fly = true};
  const std::array<const StrategyRow*, 2> table{&strategy_named("reach"), &mine};
  const StrategyArgs args;
  const TestPurpose purpose;
  const PreparedStrategy p =
      prepare_strategy(strategy_named("reach"), StrategyContext{.graph = g, .purpose = purpose, .args = args}, table);
  ASSERT_TRUE(p.refusal);
  ASSERT_FALSE(p.refusal->notes.empty());
  EXPECT_EQ(p.refusal->notes[0].rfind("mine play on the fly;", 0), 0u) << p.refusal->notes[0];
}

}  // namespace
}  // namespace playtest
