// Playing a model program on the fly (ModelGraph, docs/testing.md "Models too big to explore")
// against playing its explored TestGraph, on the example models and several seeds: the graph a
// ModelGraph discovers is the explored one (kinds, goals, out-edges in order with labels, targets,
// probabilities, costs, timeouts), and a run with the same seed makes the same moves with every
// on-the-fly strategy (random, anti-ant, pessimistic) against the simulated system, ending with the
// same verdict, the same steps and the same coverage of what it reached.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/plan/pessimistic.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/anti_ant_policy.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

struct Case {
  std::string file;
  std::vector<ModelParam> params;
};

std::unique_ptr<Model> load(const Case& c) {
  const std::string path = playtest::testing::source_dir() + "/examples/models/" + c.file;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return compile_model(text.str(), path, c.params);
}

std::vector<Case> cases() {
  return {{"chat.ptm", {}},        {"chat_start.ptm", {}},        {"candy.ptm", {}},
          {"efsm.ptm", {}},        {"counter.ptm", {{"N", "4"}}}, {"counters.ptm", {{"N", "3"}}},
          {"redis_pubsub.ptm", {}}};
}

// Expands every vertex reachable from the initial one; returns them by name.
std::unordered_map<std::string, VertexId> expand_all(const ModelGraph& g) {
  std::unordered_map<std::string, VertexId> by_name;
  std::vector<VertexId> todo{g.initial()};
  std::vector<std::uint8_t> seen;
  auto mark = [&](VertexId v) {
    if (seen.size() <= v.index()) seen.resize(v.index() + 1, 0);
    if (seen[v.index()]) return false;
    seen[v.index()] = 1;
    return true;
  };
  mark(g.initial());
  while (!todo.empty()) {
    const VertexId v = todo.back();
    todo.pop_back();
    by_name.emplace(g.name(v), v);
    for (EdgeId e : g.out_edges(v))
      if (mark(g.target(e))) todo.push_back(g.target(e));
  }
  return by_name;
}

TEST(OnTheFlyProperty, DiscoversTheExploredGraph) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.file);
    const auto model = load(c);
    const ExploreResult explored = explore(*model, {.naming = VertexNaming::state});
    ASSERT_EQ(explored.status, ExploreStatus::complete);
    const TestGraph& t = explored.graph;
    const ModelGraph g(*model);
    EXPECT_EQ(g.name(g.initial()), t.name(t.initial()));
    const auto by_name = expand_all(g);
    // The explored graph holds exactly the reachable vertices (the initial passive state's natural
    // node, when there is one, is counted by both once a run can reach it).
    EXPECT_EQ(by_name.size(), t.num_vertices());
    std::uint32_t edges = 0;
    for (VertexId tv : t.vertices()) {
      const auto it = by_name.find(std::string(t.name(tv)));
      ASSERT_NE(it, by_name.end()) << t.name(tv);
      const VertexId v = it->second;
      EXPECT_EQ(g.kind(v), t.kind(tv)) << t.name(tv);
      EXPECT_EQ(g.is_goal(v), t.is_goal(tv)) << t.name(tv);
      const auto out = g.out_edges(v);
      const auto tout = t.out_edges(tv);
      ASSERT_EQ(out.size(), tout.size()) << t.name(tv);
      edges += static_cast<std::uint32_t>(out.size());
      for (std::size_t i = 0; i < out.size(); ++i) {
        const EdgeId e = out[i], te = tout[i];
        EXPECT_EQ(g.source(e), v);
        EXPECT_EQ(g.label(e), t.label(te));
        EXPECT_EQ(g.name(g.target(e)), t.name(t.target(te)));
        EXPECT_EQ(g.is_timeout(e), t.is_timeout(te));
        EXPECT_DOUBLE_EQ(g.cost(e), t.cost(te));
        EXPECT_DOUBLE_EQ(g.probability(e), t.probability(te));
      }
    }
    EXPECT_EQ(edges, t.num_edges());
    EXPECT_EQ(g.num_reached_edges(), t.num_edges());
    EXPECT_EQ(g.is_resettable(), t.is_resettable());
  }
}

// One run of `policy` on `runner`'s graph against the simulated system playing the same graph.
RunResult play(const Runner& runner, Policy& policy, std::uint64_t seed) {
  SimulatedSut sut(runner.graph(), seed * 7 + 1);
  return runner.run(policy, sut, nullptr, seed);
}

// The strategy's policy through the strategy table, on the explored graph and on the fly alike.
void same_runs(const char* strategy, TestPurpose::Kind purpose) {
  std::uint32_t compared = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.file);
    const auto model = load(c);
    const ExploreResult explored = explore(*model, {.naming = VertexNaming::state});
    const TestGraph& t = explored.graph;
    if (purpose == TestPurpose::Kind::reach && t.num_goals() == 0) continue;
    const RunOptions ro{.purpose = {.kind = purpose}, .max_steps = 200, .keep_trace = true};
    const Runner truner(t, ro);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      SCOPED_TRACE(strategy + std::string(" seed ") + std::to_string(seed));
      const ModelGraph g(*model);  // a fresh exploration per run
      const Runner mrunner(g, ro);
      auto tp = make_policy(strategy, t, ro.purpose);
      auto mp = make_policy(strategy, g, ro.purpose);
      const RunResult a = play(truner, *tp, seed);
      const RunResult b = play(mrunner, *mp, seed);
      EXPECT_EQ(a.verdict, b.verdict) << a.message << " / " << b.message;
      EXPECT_EQ(a.purpose_met, b.purpose_met);
      EXPECT_EQ(a.steps, b.steps);
      EXPECT_EQ(a.resets, b.resets);
      ASSERT_EQ(a.trace.size(), b.trace.size());
      for (std::size_t i = 0; i < a.trace.size(); ++i) {
        EXPECT_EQ(a.trace[i].kind, b.trace[i].kind) << "step " << i;
        EXPECT_EQ(a.trace[i].label, b.trace[i].label) << "step " << i;
        EXPECT_EQ(t.name(a.trace[i].to), g.name(b.trace[i].to)) << "step " << i;
      }
      // Coverage of what the run reached: the same edges taken; on the fly the total is the part
      // discovered, never more than the model's.
      EXPECT_EQ(a.coverage.edges_covered, b.coverage.edges_covered);
      EXPECT_LE(b.coverage.edges_total, a.coverage.edges_total);
      EXPECT_LE(g.num_expanded(), t.num_vertices());
      ++compared;
    }
  }
  EXPECT_GT(compared, 30u);
}

TEST(OnTheFlyProperty, RandomMakesTheSameRuns) {
  same_runs("random", TestPurpose::Kind::cover);
  same_runs("random", TestPurpose::Kind::reach);
  same_runs("random", TestPurpose::Kind::none);
}

TEST(OnTheFlyProperty, AntiAntMakesTheSameRuns) { same_runs("anti-ant", TestPurpose::Kind::cover); }

TEST(OnTheFlyProperty, PessimisticMakesTheSameRuns) { same_runs("pessimistic", TestPurpose::Kind::cover); }

}  // namespace
}  // namespace playtest
