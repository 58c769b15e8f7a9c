// End-to-end runs of `playtest transform`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

#include "playtest/io/graph_json.hpp"

using namespace playtest;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code;
  std::string out, err;
};

class CliTransform : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("playtest_cli_transform_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  Outcome run(const std::string& args) {
    auto r = playtest::testing::run_playtest(args);
    return {r.code, r.out, r.err};
  }


  fs::path dir_;
};

// s -> c1 (passive) -> c2 (passive, cycle back to c1) -> goal; an unreachable vertex x; parallel
// edges out of s.
const char* const graph_text = R"({"playtest": "graph/1", "initial": "s",
 "vertices": [{"id": "s"}, {"id": "c1", "kind": "passive"}, {"id": "c2", "kind": "passive"},
              {"id": "a"}, {"id": "g", "goal": true}, {"id": "x"}],
 "edges": [{"id": "go", "from": "s", "to": "c1", "label": "go", "cost": 1},
           {"id": "go2", "from": "s", "to": "c1", "label": "go", "cost": 3},
           {"from": "c1", "to": "a", "label": "?a", "cost": 4, "prob": 0.5},
           {"from": "c1", "to": "c2", "label": "?c", "cost": 2, "prob": 0.5},
           {"from": "c2", "to": "c1", "label": "?b", "cost": 1, "prob": 0.5},
           {"from": "c2", "to": "g", "label": "?g", "cost": 3, "prob": 0.5},
           {"from": "a", "to": "s", "label": "back", "cost": 1},
           {"id": "xs", "from": "x", "to": "s", "label": "z", "cost": 1}]})";

TEST_F(CliTransform, AllThreeInOrderWithJsonSummary) {
  const std::string in = write("g.json", graph_text);
  const std::string out = (dir_ / "out.json").string();
  Outcome r = run("transform " + in + " --reachable --merge --compress --json -o " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["steps"].size(), 3u);
  EXPECT_EQ(j["steps"][0]["transform"], "reachable");
  EXPECT_EQ(j["steps"][0]["vertices_after"], 5);
  EXPECT_EQ(j["steps"][1]["transform"], "merge");
  EXPECT_EQ(j["steps"][1]["edges_after"], 6);
  EXPECT_EQ(j["steps"][2]["transform"], "compress");
  EXPECT_EQ(j["steps"][2]["eliminated"], 1);
  EXPECT_EQ(j["steps"][2]["vertices_after"], 4);
  TestGraph g = load_graph(out);
  EXPECT_EQ(g.num_vertices(), 4u);
  EXPECT_FALSE(g.find_vertex("c2").has_value());
  EXPECT_FALSE(g.find_vertex("x").has_value());
  auto e = g.find_edge("c1~a");
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(g.probability(*e), 2.0 / 3, 1e-12);
  EXPECT_NEAR(g.cost(*e), 5.0, 1e-9);
  ASSERT_TRUE(g.find_edge("go").has_value());
  EXPECT_FALSE(g.find_edge("go2").has_value());
}

TEST_F(CliTransform, WritesStandardOutput) {
  const std::string in = write("g.json", graph_text);
  Outcome r = run("transform " + in + " --merge -o -");
  ASSERT_EQ(r.code, 0) << r.err;
  TestGraph g = parse_graph(r.out);
  EXPECT_EQ(g.num_vertices(), 6u);
  EXPECT_EQ(g.num_edges(), 7u);
}

TEST_F(CliTransform, UsageErrors) {
  const std::string in = write("g.json", graph_text);
  Outcome none = run("transform " + in);
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("at least one of"), std::string::npos) << none.err;
  Outcome json_stdout = run("transform " + in + " --merge --json");
  EXPECT_EQ(json_stdout.code, 2);
  Outcome missing = run("transform " + (dir_ / "nope.json").string() + " --merge");
  EXPECT_EQ(missing.code, 2);
  Outcome bad_policy = run("transform " + in + " --compress --trap-vertices maybe");
  EXPECT_EQ(bad_policy.code, 2);
  Outcome bad_old = run("transform " + in + " --compress --traps maybe");  // the deprecated spelling
  EXPECT_EQ(bad_old.code, 2) << bad_old.err;
  Outcome help = run("transform --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--compress"), std::string::npos);
}

TEST_F(CliTransform, TrapsKeptOrRejected) {
  const std::string in = write("t.json", R"({"playtest": "graph/1", "initial": "s",
 "vertices": [{"id": "s"}, {"id": "c", "kind": "passive"}, {"id": "t", "kind": "passive"}, {"id": "g", "goal": true}],
 "edges": [{"from": "s", "to": "c", "label": "go"},
           {"from": "c", "to": "t", "label": "?t", "prob": 0.5},
           {"from": "c", "to": "g", "label": "?g", "prob": 0.5},
           {"from": "t", "to": "t", "label": "?loop", "prob": 1}]})");
  const std::string out = (dir_ / "out.json").string();
  Outcome keep = run("transform " + in + " --compress --json -o " + out);
  ASSERT_EQ(keep.code, 0) << keep.err;
  auto j = nlohmann::json::parse(keep.out);
  EXPECT_EQ(j["steps"][0]["trap_vertices"], nlohmann::json::array({"t"}));
  EXPECT_EQ(load_graph(out).num_vertices(), 4u);
  Outcome fail = run("transform " + in + " --compress --trap-vertices fail -o " + out);
  EXPECT_EQ(fail.code, 2);
  EXPECT_NE(fail.err.find("trap"), std::string::npos) << fail.err;
}

}  // namespace
