// A model program played on the fly (docs/testing.md "Models too big to explore"): ModelGraph
// expands a state only when asked for it, a run expands only what it reaches, purposes and
// campaigns that need the whole graph are refused, and the cover purpose is met exactly when the
// run has covered the whole reachable graph.
#include <gtest/gtest.h>

#include "playtest/base/error.hpp"
#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/strategy/anti_ant_policy.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest {
namespace {

// Two up-down counters, an acknowledged increment (N^2 idle states, as many waiting).
std::unique_ptr<Model> counters(int n) {
  return compile_model(
      "model C;\n"
      "param N: 2..100000 = 3;\n"
      "var x: 0..N-1 = 0;\n"
      "var y: 0..N-1 = 0;\n"
      "var busy: bool = false;\n"
      "controllable UpX require not busy and x < N - 1 { x := x + 1; busy := true; }\n"
      "controllable UpY require not busy and y < N - 1 { y := y + 1; busy := true; }\n"
      "controllable DownX require not busy and x > 0 { x := x - 1; }\n"
      "controllable DownY require not busy and y > 0 { y := y - 1; }\n"
      "observable Ack require busy { busy := false; }\n"
      "timeout weight 0;\n"
      "reset;\n"
      "final x == N - 1 and y == N - 1;\n",
      "c.ptm", {{"N", std::to_string(n)}});
}

TEST(ModelGraph, ExpandsAStateOnlyWhenAskedFor) {
  const auto model = counters(100000);
  const ModelGraph g(*model);
  EXPECT_EQ(g.num_expanded(), 1u);
  EXPECT_TRUE(g.is_active(g.initial()));
  const auto out = g.out_edges(g.initial());
  ASSERT_EQ(out.size(), 2u);  // UpX, UpY
  EXPECT_EQ(g.label(out[0]), "UpX");
  EXPECT_EQ(g.label(out[1]), "UpY");
  const VertexId t = g.target(out[0]);
  EXPECT_FALSE(g.is_expanded(t));
  EXPECT_EQ(g.num_vertices(), 3u);  // the initial state and the two targets, seen
  EXPECT_EQ(g.num_expanded(), 1u);
  EXPECT_TRUE(g.is_passive(t));  // expands it
  EXPECT_TRUE(g.is_expanded(t));
  EXPECT_EQ(g.num_expanded(), 2u);
  ASSERT_EQ(g.out_degree(t), 1u);
  EXPECT_EQ(g.label(g.out_edges(t)[0]), "?Ack");
  EXPECT_DOUBLE_EQ(g.probability(g.out_edges(t)[0]), 1.0);
  EXPECT_FALSE(g.is_goal(g.initial()));
  EXPECT_TRUE(g.is_resettable());
}

TEST(ModelRunner, ARunExpandsOnlyWhatItReaches) {
  const auto model = counters(100000);  // 2 * 10^10 states
  const ModelGraph g(*model);
  const Runner runner(g, {.purpose = {.kind = TestPurpose::Kind::cover}, .max_steps = 2000});
  RandomWalkPolicy policy;
  SimulatedSut sut(g, 1);
  const RunResult r = runner.run(policy, sut, nullptr, 7);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
  EXPECT_EQ(r.steps, 2000u);
  EXPECT_LE(g.num_expanded(), 2001u);
  EXPECT_GT(r.coverage.edges_covered, 0u);
  EXPECT_EQ(r.coverage.edges_total, g.num_reached_edges());
  EXPECT_LT(r.coverage.edges_covered, r.coverage.edges_total);
}

TEST(ModelRunner, CoverIsMetWhenTheWholeReachableGraphIsCovered) {
  const auto model = counters(3);
  const ExploreResult explored = explore(*model);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const ModelGraph g(*model);
    const Runner runner(g, {.purpose = {.kind = TestPurpose::Kind::cover}, .max_steps = 100000});
    AntiAntPolicy policy;
    SimulatedSut sut(g, seed);
    const RunResult r = runner.run(policy, sut, nullptr, seed);
    EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
    EXPECT_TRUE(r.purpose_met);
    EXPECT_EQ(r.coverage.edges_covered, explored.graph.num_edges());
    EXPECT_EQ(r.coverage.edges_total, explored.graph.num_edges());
  }
}

TEST(ModelRunner, ReachMeetsAFinalState) {
  const auto model = counters(3);
  const ModelGraph g(*model);
  const Runner runner(g, {.purpose = {.kind = TestPurpose::Kind::reach}, .max_steps = 100000});
  RandomWalkPolicy policy;
  SimulatedSut sut(g, 2);
  const RunResult r = runner.run(policy, sut, nullptr, 2);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_TRUE(g.is_goal(r.final_vertex));
  EXPECT_EQ(g.name(r.final_vertex), "(x=2, y=2, busy=false)");
}

TEST(ModelRunner, RefusesWhatNeedsVertexOrEdgeIds) {
  const auto model = counters(3);
  const ModelGraph g(*model);
  try {
    Runner runner(g, {.purpose = {.kind = TestPurpose::Kind::reach, .goals = {VertexId{0}}}});
    FAIL() << "goals accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "goals");
  }
  try {
    Runner runner(g, {.purpose = {.kind = TestPurpose::Kind::cover, .edges = {EdgeId{0}}}});
    FAIL() << "edges accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "edges");
  }
}

TEST(ModelCampaign, OneJobAndNoShards) {
  const auto model = counters(3);
  const ModelGraph g(*model);
  const Runner runner(g, {.max_steps = 10});
  RandomWalkPolicy policy;
  SimulatedSut sut(g, 1);
  try {
    (void)run_campaign(runner, policy, sut, {.runs = 2, .jobs = 2});
    FAIL() << "two jobs accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "jobs");
  }
  try {
    (void)run_campaign(runner, policy, sut, {.runs = 2, .shard = Shard{1, 2}});
    FAIL() << "a shard accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "shard");
  }
  const CampaignResult c = run_campaign(runner, policy, sut, {.runs = 3, .seed = 4});
  ASSERT_EQ(c.runs.size(), 3u);
  // The campaign's counts add the runs' up, over the edges discovered by the end.
  std::uint32_t sum = 0, runs_sum = 0;
  for (std::uint32_t v : c.edge_visits) sum += v;
  for (const RunResult& r : c.runs)
    for (std::uint32_t v : r.edge_visits) runs_sum += v;
  EXPECT_EQ(sum, runs_sum);
  EXPECT_EQ(c.edge_visits.size(), g.num_edges());
}

}  // namespace
}  // namespace playtest
