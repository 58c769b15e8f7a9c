// End-to-end runs of `playtest explore` and of model files given to graph commands.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "test_paths.hpp"

namespace {

struct Result {
  int code = -1;
  std::string out, err;
};

// Runs the playtest binary with `args` (a shell-quoted string).
Result run_cli(const std::string& args) {
  // ctest runs test cases as concurrent processes: keep each process's files apart.
  const std::string err_file = ::testing::TempDir() + "lang_cli_stderr_" + std::to_string(::getpid()) + ".txt";
  const std::string cmd = ::playtest::testing::playtest_binary() + " " + args + " 2>" + err_file;
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  return r;
}

std::string model(const std::string& name) { return ::playtest::testing::source_dir() + "/examples/models/" + name; }

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(CliExplore, ChatCounts) {
  Result r = run_cli("explore " + model("chat.ptm"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("model Chat: 7 vertices (3 active, 4 passive), 10 edges, 1 goal\n"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliExplore, JsonAndGraphOutput) {
  const std::string out = ::testing::TempDir() + "chat_graph.json";
  Result r = run_cli("explore " + model("chat.ptm") + " --json --names numbered -o " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "complete");
  EXPECT_EQ(j["vertices"], 7);
  EXPECT_EQ(j["passive"], 4);
  EXPECT_EQ(j["active"], 3);
  EXPECT_EQ(j["edges"], 10);
  EXPECT_EQ(j["goals"], 1);
  EXPECT_EQ(j["states"], 5);
  // The written graph is a graph/1 file that other commands read.
  Result info = run_cli("info " + out + " --json");
  ASSERT_EQ(info.code, 0) << info.err;
  auto ij = nlohmann::json::parse(info.out);
  EXPECT_EQ(ij["vertices"], 7);
  EXPECT_EQ(ij["timeout_edges"], 2);
  EXPECT_EQ(ij["initial"], "s1");
}

TEST(CliExplore, ModelFileWhereAGraphIsExpected) {
  Result r = run_cli("info " + model("chat.ptm") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["vertices"], 7);
  EXPECT_EQ(j["edges"], 10);
}

TEST(CliExplore, ParamsAndLimits) {
  Result r = run_cli("explore " + model("counter.ptm") + " --param N=10 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["vertices"], 100);
  Result lim = run_cli("explore " + model("counter.ptm") + " --param N=10 --max-states 20");
  EXPECT_EQ(lim.code, 0);
  EXPECT_NE(lim.err.find("playtest: warning: exploration stopped at the state limit (20 vertices)"), std::string::npos)
      << lim.err;
  Result deep = run_cli("explore " + model("counter.ptm") + " --param N=10 --max-depth 2 --json");
  EXPECT_EQ(nlohmann::json::parse(deep.out)["vertices"], 6);
  EXPECT_EQ(nlohmann::json::parse(deep.out)["status"], "depth limit");
  Result unknown = run_cli("explore " + model("counter.ptm") + " --param M=3");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown model parameter 'M'"), std::string::npos) << unknown.err;
  Result malformed = run_cli("explore " + model("counter.ptm") + " --param N");
  EXPECT_EQ(malformed.code, 2);
  EXPECT_NE(malformed.err.find("option --param: expected NAME=VALUE, got 'N'"), std::string::npos) << malformed.err;
}

TEST(CliExplore, ErrorShowsLineAndCaret) {
  const std::string path = write_temp("bad_model.ptm", "var count: 0..3 = 0;\ncontrollable A require cuont < 3 { }\n");
  Result r = run_cli("explore " + path);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "playtest: " + path + ":2:24: error: undefined name 'cuont'\n  note: did you mean 'count'?\n" +
                       "  controllable A require cuont < 3 { }\n                         ^\n");
}

TEST(CliExplore, DotOutput) {
  Result r = run_cli("explore " + model("candy.ptm") + " --dot -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("digraph"), std::string::npos);
  EXPECT_NE(r.out.find("?Chocolate"), std::string::npos);
}

TEST(CliExplore, Help) {
  Result r = run_cli("explore --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--max-states"), std::string::npos);
  EXPECT_NE(r.out.find("--param"), std::string::npos);
}
