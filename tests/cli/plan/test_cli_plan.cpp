// End to end: playtest plan on the seed 002 example (Table 2 formula, guards, JSON, errors) and the
// planner / pessimistic strategies in playtest simulate with --traps.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/graphs/seed002-example.json");

TEST(CliPlan, PrintsTable2AndGuards) {
  CliResult r = run_playtest("plan " + model + " --traps model");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("c·max(¬t_e3/2 + ¬t_e2/4 + max(¬t_e0/6, ¬t_e1/6), ¬t_e4/2 + max(¬t_e5/4, ¬t_e6/4, ¬t_e7/4))"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s3       among {e5c, e6c, e7c}: enabled e6c, e7c"), std::string::npos) << r.out;
}

TEST(CliPlan, JsonWithVisitedTraps) {
  CliResult r = run_playtest("plan " + model + " --traps e6,e7 --visited e6 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["traps"].size(), 2u);
  for (const auto& f : j["gain_functions"])
    if (f["transition"] == "e7c") {
      EXPECT_DOUBLE_EQ(f["gain"].get<double>(), 0.5);  // ¬t7/2, t6 visited
    }
  for (const auto& gd : j["gain_guards"])
    if (gd["vertex"] == "s3") {
      EXPECT_EQ(gd["enabled"], nlohmann::json::array({"e7c"}));
    }
}

TEST(CliPlan, UnknownTrapIsAUsageError) {
  CliResult r = run_playtest("plan " + model + " --traps nosuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("the trap spec 'nosuch' selects no edge"), std::string::npos) << r.err;
}

TEST(CliPlan, SimulatePlannerMeetsTrapsPessimisticStops) {
  CliResult r = run_playtest("simulate " + model + " --strategy planner,pessimistic --runs 50 --traps e7 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["strategies"][0]["passed"], 50);
  EXPECT_GE(j["strategies"][0]["mean_steps"].get<double>(), 6.0);  // at least 3 inputs, 3 outputs
  EXPECT_EQ(j["strategies"][1]["passed"], 0);  // the system can always dodge: the tester stops
}

TEST(CliPlan, SimulatePlannerBeyondTheTreeBudgetCoversEveryEdge) {
  // 1600 vertices x 6400 trap edges exceed the stored-tree budget (2^23 nodes): the planner
  // evaluates its gains online with the planning horizon, then with the backward field.
  ScratchDir dir("plan_big");
  const std::string graph = dir.file("g.json");
  CliResult gen = run_playtest("gen random --vertices 1600 --out-degree 4 --strongly-connected --seed 3 -o " + graph);
  ASSERT_EQ(gen.code, 0) << gen.err;
  CliResult r = run_playtest("simulate " + graph + " --strategy planner --runs 1 --steps 0 --traps all --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["strategies"][0]["passed"], 1);
  EXPECT_GE(j["strategies"][0]["mean_steps"].get<double>(), 6400.0);  // at least one step per edge
}

}  // namespace
}  // namespace playtest::testing
