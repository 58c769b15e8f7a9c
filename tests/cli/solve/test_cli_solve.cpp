// End-to-end runs of `playtest solve` and `playtest convert`: JSON shape, exit codes, errors, and
// the PRISM round trip (export, re-import through `solve BASE.tra`, same values).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;
using playtest::testing::read_file;

namespace {

// Seed 001 Figure 3 (see tests/unit/solve/test_expected_cost.cpp), plus a vertex x that can only
// fall into a dead end d: both have infinite expected cost and are not winnable.
const char* figure3 = R"({"playtest": "graph/1", "initial": "1",
 "vertices": [{"id": "1"}, {"id": "2", "kind": "passive"}, {"id": "0", "goal": true}, {"id": "x"}, {"id": "d"}],
 "edges": [{"from": "1", "to": "2", "label": "a", "cost": 1},
           {"from": "1", "to": "0", "label": "b", "cost": 4},
           {"from": "2", "to": "1", "label": "?x", "cost": 1, "weight": 1},
           {"from": "2", "to": "0", "label": "?y", "cost": 1, "weight": 2},
           {"from": "x", "to": "d", "label": "c", "cost": 1}]})";

nlohmann::json vertex(const nlohmann::json& j, const std::string& id) {
  for (const auto& v : j.at("vertices"))
    if (v.at("id") == id) return v;
  ADD_FAILURE() << "no vertex " << id;
  return {};
}

TEST(CliSolve, ExpectedJsonShapeAndValues) {
  ScratchDir dir("cli_solve_json");
  const auto f = dir.write("g.json", figure3);
  for (const char* method : {"certified", "vi", "pi", "lp"}) {
    auto r = run_playtest("solve " + f + " --objective expected --json --method " + method);
    // vi and lp give no certificate: the answer comes with exit code 5, never 0.
    const bool certifying = std::string(method) == "certified" || std::string(method) == "pi";
    ASSERT_EQ(r.code, certifying ? 0 : 5) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("objective"), "expected");
    ASSERT_EQ(j.at("vertices").size(), 5u);
    EXPECT_NEAR(vertex(j, "1").at("value").get<double>(), 3.0, 1e-6) << method;
    EXPECT_NEAR(vertex(j, "2").at("value").get<double>(), 2.0, 1e-6) << method;
    EXPECT_EQ(vertex(j, "0").at("value").get<double>(), 0.0);
    EXPECT_TRUE(vertex(j, "x").at("value").is_null());
    EXPECT_TRUE(vertex(j, "d").at("value").is_null());
    EXPECT_EQ(vertex(j, "1").at("edge"), "e0");
    EXPECT_TRUE(vertex(j, "2").at("edge").is_null());
    EXPECT_TRUE(vertex(j, "x").at("edge").is_null());
    EXPECT_EQ(j.at("summary").at("infinite"), 2);
  }
  auto r = run_playtest("solve " + f + " --json");
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("objective"), "expected");
  EXPECT_EQ(j.at("summary").at("certified"), true);
}

TEST(CliSolve, IteratesOfSection3) {
  ScratchDir dir("cli_solve_iter");
  const auto f = dir.write("g.json", figure3);
  auto r = run_playtest("solve " + f + " --json --iterates 5 --from 1");
  ASSERT_EQ(r.code, 0) << r.err;
  auto it = nlohmann::json::parse(r.out).at("iterates");
  ASSERT_EQ(it.size(), 5u);
  const double want[] = {1, 2, 2 + 1.0 / 3, 2 + 2.0 / 3, 2 + 7.0 / 9};
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(it[k].get<double>(), want[k], 1e-12);
  auto text = run_playtest("solve " + f + " --iterates 3");
  EXPECT_NE(text.out.find("n=3"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("expected cost from 1: 3"), std::string::npos) << text.out;
}

TEST(CliSolve, ReachAndWinJson) {
  ScratchDir dir("cli_solve_rw");
  const auto f = dir.write("g.json", figure3);
  auto r = run_playtest("solve " + f + " --objective reach --bound 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("objective"), "reach");
  EXPECT_EQ(vertex(j, "1").at("prob").get<double>(), 1.0);  // the direct edge, one move
  EXPECT_EQ(vertex(j, "1").at("edge"), "e1");
  EXPECT_EQ(vertex(j, "x").at("prob").get<double>(), 0.0);
  auto w = run_playtest("solve " + f + " --objective win --json");
  ASSERT_EQ(w.code, 0) << w.err;
  auto k = nlohmann::json::parse(w.out);
  EXPECT_EQ(k.at("objective"), "win");
  EXPECT_EQ(vertex(k, "1").at("winnable"), true);
  EXPECT_EQ(vertex(k, "1").at("cost").get<double>(), 4.0);
  EXPECT_EQ(vertex(k, "x").at("winnable"), false);
  EXPECT_TRUE(vertex(k, "x").at("cost").is_null());
}

TEST(CliSolve, DotHighlightsTheStrategy) {
  ScratchDir dir("cli_solve_dot");
  const auto f = dir.write("g.json", figure3);
  auto r = run_playtest("solve " + f + " --dot " + dir.file("s.dot"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto dot = read_file(dir.file("s.dot"));
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("M=3"), std::string::npos) << dot;
}

TEST(CliSolve, Errors) {
  ScratchDir dir("cli_solve_err");
  const auto f = dir.write("g.json", figure3);
  const auto nogoal = dir.write("n.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a"}], "edges": []})");
  auto r = run_playtest("solve " + nogoal);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no goal vertices"), std::string::npos) << r.err;
  r = run_playtest("solve " + f + " --goal nosuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no vertex 'nosuch' in the graph (given as a goal)"), std::string::npos) << r.err;
  r = run_playtest("solve " + f + " --from nosuch");
  EXPECT_EQ(r.code, 2);
  r = run_playtest("solve " + f + " --objective fastest");
  EXPECT_EQ(r.code, 2);
  r = run_playtest("solve " + f + " --method magic");
  EXPECT_EQ(r.code, 2);
  r = run_playtest("solve " + dir.file("missing.json"));
  EXPECT_EQ(r.code, 2);
  // --goal overrides the file's goals: with x's dead end d as the goal, x costs 1.
  r = run_playtest("solve " + f + " --goal d --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(vertex(nlohmann::json::parse(r.out), "x").at("value").get<double>(), 1.0);
}

TEST(CliConvert, PrismRoundTripKeepsValues) {
  ScratchDir dir("cli_convert_prism");
  const auto f = dir.write("g.json", figure3);
  auto r = run_playtest("convert " + f + " --to prism -o " + dir.file("m"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto tra = read_file(dir.file("m.tra"));
  EXPECT_EQ(tra.substr(0, tra.find('\n')), "5 6 7");  // states, choices, transitions
  EXPECT_NE(read_file(dir.file("m.lab")).find("2=\"goal\""), std::string::npos);
  auto a = nlohmann::json::parse(run_playtest("solve " + f + " --json").out);
  auto b = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(b.code, 0) << b.err;
  auto jb = nlohmann::json::parse(b.out);
  // State s of the MDP is vertex s of the graph: "1" is state 0, "2" state 1, "x" state 3.
  EXPECT_NEAR(vertex(jb, "0").at("value").get<double>(), 3.0, 1e-9);
  EXPECT_NEAR(vertex(jb, "1").at("value").get<double>(), 2.0, 1e-9);
  EXPECT_EQ(vertex(jb, "2").at("value").get<double>(), 0.0);
  EXPECT_TRUE(vertex(jb, "3").at("value").is_null());
  EXPECT_TRUE(vertex(jb, "4").at("value").is_null());
  r = run_playtest("convert " + f + " --to prism");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: option --output: --to prism writes three files: give -o BASE"), std::string::npos)
      << r.err;
}

TEST(CliConvert, GraphAndDot) {
  ScratchDir dir("cli_convert_graph");
  const auto f = dir.write("g.json", figure3);
  auto r = run_playtest("convert " + f + " --to graph -o " + dir.file("out.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(run_playtest("solve " + dir.file("out.json") + " --json").out);
  EXPECT_NEAR(vertex(j, "1").at("value").get<double>(), 3.0, 1e-9);
  r = run_playtest("convert " + f + " --to dot");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("digraph"), std::string::npos);
}

TEST(CliConvert, PrismImportErrorsHaveFileAndLine) {
  ScratchDir dir("cli_convert_bad");
  dir.write("m.tra", "2 2 3\n0 0 1 0.5\n0 0 0 0.5\n1 0 1 1\n");
  dir.write("m.lab", "0=\"init\" 1=\"deadlock\" 2=\"goal\"\n0: 0\n1: 2\n");
  auto r = run_playtest("solve " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 0) << r.err;  // header counts agree with the rows
  dir.write("m.tra", "2 2 3\n0 0 1 0.5\n0 0 0 0.4\n1 0 1 1\n");
  r = run_playtest("solve " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("m.tra:2:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sum to"), std::string::npos) << r.err;
}

}  // namespace

TEST(CliSolve, ReachThreadsGiveTheSameStrategy) {
  // 70 000 vertices: two blocks of at least 2^15 vertices, so --threads 2 really splits the sweeps.
  ScratchDir dir("cli_solve_threads");
  const auto f = dir.file("g.json");
  auto gen = run_playtest("gen random --vertices 70000 --out-degree 3 --goals 70 --seed 4 -o " + f);
  ASSERT_EQ(gen.code, 0) << gen.err;
  auto one = run_playtest("solve " + f + " --objective reach --bound 8 --threads 1 --json");
  auto two = run_playtest("solve " + f + " --objective reach --bound 8 --threads 2 --json");
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(two.code, 0) << two.err;
  auto a = nlohmann::json::parse(one.out), b = nlohmann::json::parse(two.out);
  ASSERT_EQ(a.at("vertices").size(), 70000u);
  EXPECT_EQ(a.at("vertices"), b.at("vertices"));
  auto bad = run_playtest("solve " + f + " --objective reach --threads -1");
  EXPECT_EQ(bad.code, 2);
}
