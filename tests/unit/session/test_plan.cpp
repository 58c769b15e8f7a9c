// plan_campaign (session/plan.hpp): every decision about a campaign's runs in the library: the
// strategy and its purpose, whole graph or on the fly, budgets and timeouts, the adapter, the
// purpose's feasibility; a refusal is a typed error (UsageError, GraphError) naming what to change.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/input/load.hpp"
#include "playtest/session/plan.hpp"
#include "scratch_test.hpp"

namespace playtest {
namespace {

using namespace std::chrono_literals;

// idle -ping-> wait (passive) -pong-> idle, and an island no edge reaches.
constexpr const char* ping_with_island = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}, {"id": "island"}],
  "edges": [{"from": "idle", "to": "wait", "label": "ping"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1},
            {"from": "island", "to": "idle", "label": "swim"}]})";

class PlanCampaign : public testing::ScratchTest {
 protected:
  void SetUp() override {
    ScratchTest::SetUp();
    const std::string path = (dir_ / "m.json").string();
    std::ofstream(path) << ping_with_island;
    in_ = load_input(LoadOptions{.path = path});
    ASSERT_TRUE(in_.graph.has_value());
  }
  CampaignPlan plan(const CampaignRequest& r) { return plan_campaign(in_, *in_.graph, nullptr, r, {}, stop_); }
  LoadedInput in_;
  StopSignal stop_;
};

TEST_F(PlanCampaign, EveryDecisionOfARunOnAWholeGraph) {
  CampaignRequest r;
  r.strategy.purpose = "none";
  r.sut = {.sut = "true", .timeout_ms = 250, .vertex_timeouts = {"wait=40"}};
  r.steps = 7;
  r.time_s = 0.5;
  r.seed = 9;
  r.runs = 3;
  r.jobs = 2;
  r.adapt = false;
  r.settings = {{"--steps", "7"}};
  const CampaignPlan p = plan(r);
  EXPECT_EQ(p.spec.strategy->name, "random");
  EXPECT_EQ(p.adapt, Adaptation::off);
  const RunOptions& run = p.runner.options();
  EXPECT_EQ(run.max_steps, 7u);
  EXPECT_EQ(run.time_budget, 500ms);
  EXPECT_EQ(run.timeout, 250ms);
  ASSERT_EQ(run.vertex_timeouts.size(), 3u);
  EXPECT_EQ(run.vertex_timeouts[in_.graph->find_vertex("wait")->index()], 40ms);
  EXPECT_FALSE(run.stop_when_futile);
  EXPECT_EQ(run.stop, &stop_);
  EXPECT_EQ(p.campaign.runs, 3u);
  EXPECT_EQ(p.campaign.jobs, 2u);
  EXPECT_EQ(p.campaign.seed, 9u);
  EXPECT_FALSE(p.campaign.share_evidence);
  EXPECT_EQ(p.campaign.settings.at("--steps"), "7");
  EXPECT_EQ(p.adapter.command, "true");
  EXPECT_TRUE(static_cast<bool>(p.policy));
  EXPECT_NE(p.policy(*in_.graph), nullptr);
}

TEST_F(PlanCampaign, AdaptationStopsFutileRunsOfAStrategyThatReplans) {
  CampaignRequest r;
  r.strategy.strategies = {"reach"};
  r.strategy.goals = {"wait"};
  r.sut.sut = "true";
  const CampaignPlan p = plan(r);
  EXPECT_EQ(p.adapt, Adaptation::on);
  EXPECT_TRUE(p.runner.options().stop_when_futile);
  EXPECT_TRUE(p.campaign.share_evidence);
  r.strategy.strategies = {"random"};
  EXPECT_FALSE(plan(r).runner.options().stop_when_futile) << "random does not re-plan";
}

TEST_F(PlanCampaign, RefusalsAreTypedAndNameWhatToChange) {
  CampaignRequest r;
  r.sut.sut = "true";
  r.strategy.purpose = "none";
  r.strategy.strategies = {"randon"};
  try {
    plan(r);
    ADD_FAILURE() << "an unknown strategy was planned";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "strategy");
    EXPECT_NE(std::string(e.what()).find("random"), std::string::npos) << e.what();
  }
  r.strategy.strategies = {"random"};
  r.shard = "3/2";
  EXPECT_THROW(plan(r), UsageError);
  r.shard = "1/1";
  r.sut.vertex_timeouts = {"nowhere=5"};
  EXPECT_THROW(plan(r), GraphError);  // (names the vertex it does not know)
  r.sut.vertex_timeouts.clear();
  // A goal no run can reach: refused before any run, unless asked for anyway.
  r.strategy.purpose = "auto";
  r.strategy.goals = {"island"};
  try {
    plan(r);
    ADD_FAILURE() << "an unreachable goal was planned";
  } catch (const GraphError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be met"), std::string::npos) << e.what();
  }
  r.strategy.allow_unreachable = true;
  EXPECT_NO_THROW(plan(r));
}

TEST(WholeGraphReason, NamesWhatNeedsTheWholeGraph) {
  CampaignRequest r;
  EXPECT_EQ(whole_graph_reason(r), "");
  r.strategy.strategies = {"random", "reach"};
  EXPECT_EQ(whole_graph_reason(r), "strategy 'reach'");
  r.strategy.strategies = {"random"};
  r.strategy.goals = {"done"};
  EXPECT_EQ(whole_graph_reason(r), "--goal");
  r.strategy.goals.clear();
  r.strategy.purpose = "labels";
  EXPECT_EQ(whole_graph_reason(r), "--purpose labels");
  r.strategy.purpose = "auto";
  r.sut.vertex_timeouts = {"v=1"};
  EXPECT_EQ(whole_graph_reason(r), "--vertex-timeout");
  r.sut.vertex_timeouts.clear();
  r.shrink_after = true;
  EXPECT_EQ(whole_graph_reason(r), "--shrink");
  r.shrink_after = false;
  r.jobs = 2;
  EXPECT_EQ(whole_graph_reason(r), "--jobs");
  r.jobs = 1;
  r.shard = "1/2";
  EXPECT_EQ(whole_graph_reason(r), "--shard");
}

}  // namespace
}  // namespace playtest
