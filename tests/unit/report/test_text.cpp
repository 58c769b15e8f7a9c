// Words for purposes and edges (report/text.hpp), and strategies that say why they stopped.
#include <gtest/gtest.h>

#include "playtest/io/graph_json.hpp"
#include "playtest/report/text.hpp"
#include "playtest/run/policy_factory.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/simulated_sut.hpp"

namespace playtest::report {
namespace {

// 'a' is not a sure win: at 'p' the system may go to the trap 'd' (no way out, no reset).
const char* const gamble = R"({"playtest": "graph/1", "initial": "a",
  "vertices": [{"id": "a", "kind": "active"}, {"id": "p", "kind": "passive"},
               {"id": "g", "kind": "active", "goal": true}, {"id": "d", "kind": "active"}],
  "edges": [{"from": "a", "to": "p", "label": "go"},
            {"id": "lucky", "from": "p", "to": "g", "label": "win", "prob": 0.5},
            {"from": "p", "to": "d", "label": "lose", "prob": 0.5},
            {"from": "d", "to": "d", "label": "spin"}]})";

TEST(Text, EdgesByLabelWhereIdsAreGenerated) {
  const TestGraph g = parse_graph(gamble);
  EXPECT_TRUE(generated_edge_id("e0"));
  EXPECT_TRUE(generated_edge_id("e123"));
  EXPECT_FALSE(generated_edge_id("e"));
  EXPECT_FALSE(generated_edge_id("edge1"));
  EXPECT_FALSE(generated_edge_id("lucky"));
  EXPECT_EQ(describe_edge(g, *g.find_edge("e0")), "go (a -> p)");
  EXPECT_EQ(describe_edge(g, *g.find_edge("lucky")), "lucky: win (p -> g)");
  EXPECT_EQ(edge_step(g, *g.find_edge("e0")), "-go->");
  EXPECT_EQ(edge_step(g, *g.find_edge("lucky")), "-lucky:win->");
  const std::vector<EdgeId> all(g.edges().begin(), g.edges().end());
  EXPECT_EQ(describe_edges(g, all, 2), "go (a -> p), lucky: win (p -> g) and 2 more");
}

TEST(Text, Purposes) {
  const TestGraph g = parse_graph(gamble);
  EXPECT_EQ(describe_purpose(g, {.kind = TestPurpose::Kind::reach}), "reach g");
  EXPECT_EQ(describe_purpose(g, {.kind = TestPurpose::Kind::reach, .goals = {*g.find_vertex("g"), *g.find_vertex("d")}}),
            "reach one of {g, d}");
  EXPECT_EQ(describe_purpose(g, {.kind = TestPurpose::Kind::cover}), "cover all 4 edges");
  EXPECT_EQ(describe_purpose(g, {.kind = TestPurpose::Kind::cover, .edges = {*g.find_edge("lucky")}}),
            "cover 1 edge: lucky: win (p -> g)");
  EXPECT_EQ(describe_purpose(g, {}), "none (run the budget)");
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  visits[g.find_edge("e0")->index()] = 2;
  const auto missed = uncovered_purpose_edges(g, {.kind = TestPurpose::Kind::cover}, visits);
  EXPECT_EQ(missed.size(), 3u);
  EXPECT_TRUE(uncovered_purpose_edges(g, {.kind = TestPurpose::Kind::reach}, visits).empty());
}

TEST(Text, WinSaysWhyItStops) {
  const TestGraph g = parse_graph(gamble);
  RunOptions ro;
  ro.purpose.kind = TestPurpose::Kind::reach;
  Runner runner(g, ro);
  auto win = make_policy("win", g);
  SimulatedSut sut(g, 1);
  const RunResult r = runner.run(*win, sut, nullptr, 1);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.message,
            "policy 'win' stopped at vertex 'a' after 0 steps: the strategy has no move at 'a': it is not a sure win "
            "(whatever the tester does there, the system can keep it from every goal)");
}

}  // namespace
}  // namespace playtest::report
