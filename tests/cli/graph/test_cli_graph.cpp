// End-to-end runs of validate, info, dot, gen and the top-level CLI: exit codes and outputs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using namespace playtest::testing;

namespace {
const std::string figure1 = example("examples/graphs/seed000-figure1.json");
}

TEST(CliGraph, ValidateAcceptsTheFigure1Example) {
  CliResult r = run_playtest("validate " + figure1);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("ok (7 vertices, 9 edges)"), std::string::npos) << r.out;
}

TEST(CliGraph, ValidateJson) {
  CliResult r = run_playtest("validate --json " + figure1);
  ASSERT_EQ(r.code, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["vertices"], 7);
  EXPECT_EQ(j["edges"], 9);
}

TEST(CliGraph, InvalidFileExitsTwoWithLocatedMessageAndCaret) {
  ScratchDir d("cli_graph_invalid");
  std::string f = d.write("bad.json",
                          "{\"playtest\": \"graph/1\", \"initial\": \"a\",\n \"vertices\": [{\"id\": \"a\"}],\n"
                          " \"edges\": [{\"from\": \"a\", \"to\": \"a\", \"cost\": -2}]}\n");
  CliResult r = run_playtest("validate " + f);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(f + ":3:45: error: edge #0: \"cost\" must be finite and >= 0, got -2 (at /edges/0/cost)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\n  " + std::string(44, ' ') + "^"), std::string::npos) << r.err;
  CliResult j = run_playtest("validate --json " + f);
  EXPECT_EQ(j.code, 2);
  auto parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["valid"], false);
  EXPECT_EQ(parsed["error"]["line"], 3);
  EXPECT_EQ(parsed["error"]["column"], 45);
  EXPECT_EQ(parsed["error"]["pointer"], "/edges/0/cost");
}

TEST(CliGraph, StandardInput) {
  CliResult r = run_playtest("validate -", read_file(figure1));
  EXPECT_EQ(r.code, 0) << r.err;
  CliResult bad = run_playtest("info -", "{\"playtest\": \"graph/1\"");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("-:1:23: error: unexpected end of input"), std::string::npos) << bad.err;
}

TEST(CliGraph, MissingFile) {
  CliResult r = run_playtest("validate /nonexistent/x.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent/x.json: error: cannot open"), std::string::npos) << r.err;
}

TEST(CliGraph, InfoReportsStructure) {
  ScratchDir d("cli_graph_info");
  std::string f = d.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a"}, {"id": "b", "kind": "passive"}, {"id": "g", "goal": true}, {"id": "lost"}, {"id": "island"}],
    "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "g", "prob": 0.5}, {"from": "b", "to": "lost", "prob": 0.5},
              {"from": "island", "to": "a"}]})");
  CliResult r = run_playtest("info --json " + f);
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["vertices"], 5);
  EXPECT_EQ(j["active"], 4);
  EXPECT_EQ(j["passive"], 1);
  EXPECT_EQ(j["edges"], 4);
  EXPECT_EQ(j["goals"], 1);
  EXPECT_EQ(j["scc"]["count"], 5);
  EXPECT_EQ(j["unreachable_from_initial"]["count"], 1);
  EXPECT_EQ(j["unreachable_from_initial"]["first"][0], "island");
  EXPECT_EQ(j["cannot_reach_goal"]["count"], 1);
  EXPECT_EQ(j["cannot_reach_goal"]["first"][0], "lost");
  EXPECT_EQ(j["dead_ends"]["count"], 1);
  CliResult text = run_playtest("info " + f);
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("1 vertices cannot reach a goal: lost"), std::string::npos) << text.out;
}

TEST(CliGraph, DotShowsKindsGoalsInitialAndLabels) {
  ScratchDir d("cli_graph_dot");
  CliResult r = run_playtest("dot " + figure1 + " -o " + d.file("f.dot"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::string dot = read_file(d.file("f.dot"));
  EXPECT_EQ(dot.rfind("digraph playtest {", 0), 0u);
  EXPECT_NE(dot.find("label=\"cp\", shape=diamond"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"s1\", shape=ellipse, style=bold"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"e8\\np=0.5\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("__start -> v"), std::string::npos);
  EXPECT_EQ(dot.back(), '\n');
}

TEST(CliGraph, GenWritesValidReproducibleGraphs) {
  ScratchDir d("cli_graph_gen");
  CliResult a = run_playtest("gen random --vertices 200 --out-degree 3 --goals 4 --seed 5 --strongly-connected -o " +
                             d.file("a.json"));
  CliResult b = run_playtest("gen random --vertices 200 --out-degree 3 --goals 4 --seed 5 --strongly-connected");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(read_file(d.file("a.json")), b.out);
  CliResult info = run_playtest("info --json " + d.file("a.json"));
  auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["edges"], 600);
  EXPECT_EQ(j["goals"], 4);
  EXPECT_EQ(j["scc"]["count"], 1);
  CliResult bad = run_playtest("gen random --vertices 3 --goals 3");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("option --goals: must be fewer than the vertices"), std::string::npos) << bad.err;
}

TEST(CliGraph, UsageErrorsExitTwoAndHelpExitsZero) {
  EXPECT_EQ(run_playtest("").code, 2);
  EXPECT_EQ(run_playtest("frobnicate").code, 2);
  EXPECT_EQ(run_playtest("validate").code, 2);
  EXPECT_EQ(run_playtest("gen random --vertices -4").code, 2);
  CliResult help = run_playtest("--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("validate"), std::string::npos);
  EXPECT_NE(help.out.find("Exit codes"), std::string::npos);
  for (const char* cmd : {"validate", "info", "dot", "gen random"}) {
    CliResult h = run_playtest(std::string(cmd) + " --help");
    EXPECT_EQ(h.code, 0) << cmd;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << cmd;
  }
  CliResult v = run_playtest("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("playtest 0."), std::string::npos);
}
