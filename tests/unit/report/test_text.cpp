// Naming edges for people where the model left their ids to the builder (graph/names.hpp), and
// strategies that say why they stopped (Policy::stop_reason in the run's message).
#include <gtest/gtest.h>

#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {
namespace {

// 'a' is not a sure win: at 'p' the system may go to the trap 'd' (no way out, no reset).
const char* const gamble = R"({"playtest": "graph/1", "initial": "a",
  "vertices": [{"id": "a", "kind": "active"}, {"id": "p", "kind": "passive"},
               {"id": "g", "kind": "active", "goal": true}, {"id": "d", "kind": "active"}],
  "edges": [{"from": "a", "to": "p", "label": "go"},
            {"id": "lucky", "from": "p", "to": "g", "label": "win", "prob": 0.5},
            {"from": "p", "to": "d", "label": "lose", "prob": 0.5},
            {"from": "d", "to": "d", "label": "spin"}]})";

TEST(EdgeNames, ByLabelWhereIdsAreGenerated) {
  const TestGraph g = parse_graph(gamble);
  EXPECT_TRUE(generated_edge_id("e0"));
  EXPECT_TRUE(generated_edge_id("e123"));
  EXPECT_FALSE(generated_edge_id("e"));
  EXPECT_FALSE(generated_edge_id("edge1"));
  EXPECT_FALSE(generated_edge_id("lucky"));
  EXPECT_EQ(edge_step(g, *g.find_edge("e0")), "-go->");
  EXPECT_EQ(edge_step(g, *g.find_edge("lucky")), "-lucky:win->");
}

TEST(StopReasons, WinSaysWhyItStops) {
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

TEST(StopReasons, ReachSaysTheGoalIsOutOfItsBound) {
  const TestGraph g = parse_graph(gamble);
  RunOptions ro;
  ro.purpose.kind = TestPurpose::Kind::reach;
  ro.max_steps = 50;
  Runner runner(g, ro);
  auto reach = make_policy("reach", g, {}, {.args = {{"bound", "3"}}});
  // Seeds until the system sends the run to the trap 'd', where no goal is reachable.
  for (std::uint64_t seed = 1; seed < 50; ++seed) {
    SimulatedSut sut(g, seed);
    const RunResult r = runner.run(*reach, sut, nullptr, seed);
    if (r.final_vertex != *g.find_vertex("d")) continue;
    EXPECT_EQ(r.verdict, Verdict::inconclusive);
    EXPECT_NE(r.message.find(": no goal can be reached from 'd' within the bound of 3 moves"), std::string::npos)
        << r.message;
    return;
  }
  FAIL() << "no run reached the trap";
}

}  // namespace
}  // namespace playtest
