// End-to-end runs of `playtest cover`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

struct Result {
  int code;
  std::string out, err;
};

class CliCover : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("playtest_cli_cover_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  Result run(const std::string& args) {
    auto r = playtest::testing::run_playtest(args);
    return {r.code, r.out, r.err};
  }


  fs::path dir_;
};

const std::string figure1 = playtest::testing::source_dir() + "/examples/graphs/seed000-figure1.json";

std::vector<std::vector<std::string>> sorted_segments(const nlohmann::json& j) {
  std::vector<std::vector<std::string>> out;
  for (const auto& s : j["segments"]) out.push_back(s.get<std::vector<std::string>>());
  std::sort(out.begin(), out.end());
  return out;
}

// a -> b -> c -> b: not strongly connected from a.
const char* chain = R"({"playtest": "graph/1", "initial": "a",
 "vertices": [{"id": "a", "kind": "active"}, {"id": "b", "kind": "active"}, {"id": "c", "kind": "active"}],
 "edges": [{"id": "ab", "from": "a", "to": "b", "label": "x"},
           {"id": "bc", "from": "b", "to": "c", "label": "y"},
           {"id": "cb", "from": "c", "to": "b", "label": "z"}]})";

}  // namespace

TEST_F(CliCover, Figure1Text) {
  Result r = run("cover " + figure1 + " --sim-runs 200");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("tour:        10 steps from 's1': e1 e5 e7 e9 e4 e3 e6 e7 e8 e2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cost:        10\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lower bound: 9 (each edge once)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cp -> cp: e9 e4 e3 e6 e7\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cp -> cp: e8 e2 e1 e5 e7\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("n = 2, p = min p_i,v = 0.75"), std::string::npos) << r.out;
}

TEST_F(CliCover, Figure1Json) {
  Result r = run("cover " + figure1 + " --json --sim-runs 500 --max-visits 6 --seed 3 --random-segments");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cost"], 10);
  EXPECT_EQ(j["lower_bound"], 9);
  EXPECT_EQ(j["tour"].size(), 10u);
  EXPECT_EQ(sorted_segments(j), (std::vector<std::vector<std::string>>{{"e8", "e2", "e1", "e5", "e7"},
                                                                       {"e9", "e4", "e3", "e6", "e7"}}));
  EXPECT_EQ(j["p"], 0.75);
  EXPECT_EQ(j["bound"]["n"], 2);
  ASSERT_EQ(j["convergence"].size(), 6u);
  EXPECT_EQ(j["convergence"][0]["visits"], 1);
  EXPECT_EQ(j["convergence"][0]["estimate"], 0.0);
  EXPECT_GT(j["convergence"][5]["estimate"].get<double>(), 0.85);
  EXPECT_TRUE(j["uncoverable"].empty());
  // Same seed, same table.
  Result again = run("cover " + figure1 + " --json --sim-runs 500 --max-visits 6 --seed 3 --random-segments");
  EXPECT_EQ(again.out, r.out);
}

TEST_F(CliCover, StartVertexAndDot) {
  const std::string dot = (dir_ / "tour.dot").string();
  Result r = run("cover " + figure1 + " --start cp --json --sim-runs 0 --dot " + dot);
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["start"], "cp");
  EXPECT_EQ(j["tour"], nlohmann::json({"e8", "e2", "e1", "e5", "e7", "e9", "e4", "e3", "e6", "e7"}));
  EXPECT_TRUE(j["convergence"].empty());
  std::ifstream in(dot);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("digraph"), std::string::npos);
}

TEST_F(CliCover, NotStronglyConnectedIsAnError) {
  Result r = run("cover " + write("chain.json", chain));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: no edge lies on a closed walk through the start vertex 'a'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: edge 'ab' (a -> b): the start vertex 'a' cannot be reached again from its target 'b'"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
  // a <-> b, b -> c: one edge cannot return.
  const char* partial = R"({"playtest": "graph/1", "initial": "a",
   "vertices": [{"id": "a", "kind": "active"}, {"id": "b", "kind": "active"}, {"id": "c", "kind": "active"}],
   "edges": [{"id": "ab", "from": "a", "to": "b", "label": "x"}, {"id": "ba", "from": "b", "to": "a", "label": "y"},
             {"id": "bc", "from": "b", "to": "c", "label": "z"}]})";
  const std::string file = write("partial.json", partial);
  Result p = run("cover " + file);
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.err.find("error: 1 of 3 edges cannot be on a closed walk through the start vertex 'a' (the graph is not "
                       "strongly connected)"),
            std::string::npos)
      << p.err;
  EXPECT_NE(p.err.find("note: edge 'bc' (b -> c): the start vertex 'a' cannot be reached again from its target 'c'"),
            std::string::npos)
      << p.err;
  Result skip = run("cover " + file + " --skip-uncoverable --json --sim-runs 20");
  ASSERT_EQ(skip.code, 0) << skip.err;
  auto j = nlohmann::json::parse(skip.out);
  EXPECT_EQ(j["cost"], 2);
  EXPECT_EQ(j["lower_bound"], 2);
  ASSERT_EQ(j["uncoverable"].size(), 1u);
  EXPECT_EQ(j["uncoverable"][0]["edge"], "bc");
  EXPECT_EQ(j["uncoverable"][0]["cannot_return"], true);
  EXPECT_EQ(j["uncoverable"][0]["unreachable"], false);
  EXPECT_EQ(j["convergence"][0]["estimate"], 1.0);
}

TEST_F(CliCover, ResetMakesATour) {
  Result r = run("cover " + write("chain.json", chain) + " --reset-cost 2 --json --sim-runs 50");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // ab bc cb, then a reset from b: 3 + 2.
  EXPECT_EQ(j["cost"], 5);
  EXPECT_EQ(j["resets"], 1);
  EXPECT_EQ(j["tour"].back(), nlohmann::json({{"reset_from", "b"}}));
  Result only_c = run("cover " + write("chain2.json", chain) + " --reset-cost 2 --reset-from c --json --sim-runs 0");
  ASSERT_EQ(only_c.code, 0) << only_c.err;
  auto k = nlohmann::json::parse(only_c.out);
  EXPECT_EQ(k["cost"], 6);
  EXPECT_EQ(k["tour"].back(), nlohmann::json({{"reset_from", "c"}}));
  Result text = run("cover " + write("chain3.json", chain) + " --reset-cost 2 --sim-runs 0");
  EXPECT_NE(text.out.find("reset(b)"), std::string::npos) << text.out;
}

TEST_F(CliCover, BadInputs) {
  const char* empty = R"({"playtest": "graph/1", "initial": "a", "vertices": [{"id": "a", "kind": "active"}], "edges": []})";
  Result r = run("cover " + write("empty.json", empty));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: the graph has no edges; there is nothing to cover"), std::string::npos) << r.err;
  Result s = run("cover " + figure1 + " --start nowhere");
  EXPECT_EQ(s.code, 2);
  EXPECT_NE(s.err.find("no vertex 'nowhere' in the graph (given as the start vertex)"), std::string::npos) << s.err;
  Result p = run("cover " + figure1 + " --reset-cost 1 --reset-from cp");
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.err.find("vertex 'cp' is passive"), std::string::npos) << p.err;
  Result n = run("cover " + figure1 + " --reset-cost -1");
  EXPECT_EQ(n.code, 2);
  Result h = run("cover --help");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--random-segments"), std::string::npos);
}
