// End to end: `playtest run` against the example multithreaded SUT (examples/sut: correct and buggy
// builds) for every strategy, exit codes for every verdict, the trace, JUnit and JSON outputs, and
// `playtest simulate`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/sut/workers.json");
const std::string good_sut = playtest::testing::test_path("workers_sut");
const std::string buggy_sut = playtest::testing::test_path("workers_sut_buggy");

std::string run_args(const std::string& sut, const std::string& strategy, const std::string& extra = "") {
  // Long timeouts where the SUT is correct (a loaded machine must not make a PASS flaky); the FAIL
  // of the buggy build is a silence at last0, so only that vertex gets a short wait.
  return "run " + model + " --sut '" + sut + "' --strategy " + strategy + " --goal off --steps 3000 " + extra;
}

class EveryStrategy : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryStrategy, PassesOnTheCorrectBuild) {
  CliResult r = run_playtest(run_args(good_sut, GetParam(), "--timeout-ms 10000 --runs 2 --seed 3"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reached goal 'off'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("coverage: "), std::string::npos);
}

TEST_P(EveryStrategy, FailsOnTheBuggyBuildWithATrace) {
  ScratchDir d("run_buggy_" + GetParam());
  CliResult r = run_playtest(run_args(
      buggy_sut, GetParam(),
      "--timeout-ms 10000 --vertex-timeout last0=100 --trace " + d.file("t.jsonl") + " --junit " + d.file("j.xml")));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at vertex 'last0': allowed {all_done}, observed silence"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("idle0 --submit--> both0"), std::string::npos) << r.out;
  // The trace file: the campaign, begin, 4 steps (submit, two done_*, the silence), end.
  std::istringstream in(read_file(d.file("t.jsonl")));
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0]["event"], "campaign");
  EXPECT_EQ(lines[2]["label"], "submit");
  EXPECT_EQ(lines[5]["kind"], "silence");
  EXPECT_EQ(lines[6]["verdict"], "FAIL");
  std::string junit = read_file(d.file("j.xml"));
  EXPECT_NE(junit.find("<failure type=\"FAIL\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Run, EveryStrategy,
                         ::testing::Values("random", "anti-ant", "reach", "win", "expected", "cover"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(CliRun, JsonResult) {
  CliResult r = run_playtest(run_args(good_sut, "reach", "--timeout-ms 10000 --json"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "PASS");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["steps"], 6);  // submit, done, done, all_done, shutdown, bye
  EXPECT_EQ(j["coverage"]["edges_total"], 16);
  EXPECT_EQ(j["coverage"]["labels_covered"], 6);
}

TEST(CliRun, InconclusiveWhenTheBudgetEnds) {
  CliResult r = run_playtest("run " + model + " --sut '" + good_sut + "' --goal off --steps 2 --timeout-ms 10000");
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: INCONCLUSIVE"), std::string::npos);
}

TEST(CliRun, ErrorWhenTheAdapterDies) {
  CliResult r = run_playtest("run " + model + " --sut 'echo ready; exit 7' --goal off --sut-stderr discard");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("status 7"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verdict: ERROR"), std::string::npos);
}

TEST(CliRun, RefusesAmbiguousPassiveVertex) {
  ScratchDir d("run_ambiguous");
  std::string f = d.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "p", "kind": "passive"}],
    "edges": [{"from": "a", "to": "p", "label": "go"},
              {"from": "p", "to": "a", "label": "x", "prob": 0.5},
              {"from": "p", "to": "p", "label": "x", "prob": 0.5}]})");
  CliResult r = run_playtest("run " + f + " --sut 'cat'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("passive vertex 'p' has two outputs labelled 'x'"), std::string::npos) << r.err;
}

TEST(CliRun, UnknownStrategyAndGoalAreUsageErrors) {
  EXPECT_EQ(run_playtest("run " + model + " --sut cat --strategy bogus").code, 2);
  CliResult r = run_playtest("run " + model + " --sut cat --goal nowhere");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no vertex 'nowhere'"), std::string::npos) << r.err;
}

TEST(CliSimulate, ComparesStrategiesAndMutants) {
  CliResult r =
      run_playtest("simulate " + model +
                   " --strategy random,anti-ant,reach,win,expected,cover --runs 50 --mutants --mutant-count 8 "
                   "--mutant-runs 3 --steps 500 --seed 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["strategies"].size(), 6u);
  for (const auto& s : j["strategies"]) {
    EXPECT_EQ(s["runs"], 50);
    EXPECT_EQ(s["failed"], 0) << s["strategy"];  // the model conforms to its own simulation
    EXPECT_GE(s["mutants"]["detected_fraction"].get<double>(), 0.0);
    EXPECT_LE(s["mutants"]["detected_fraction"].get<double>(), 1.0);
  }
  // reach/win/expected all take the 6-step path to 'off' (the purpose is reach for them).
  EXPECT_EQ(j["strategies"][2]["mean_steps"], 6.0);
  EXPECT_EQ(j["strategies"][2]["success_rate"], 1.0);
  EXPECT_EQ(j["mutants"].size(), 8u);
  // Same seed, same numbers.
  CliResult again = run_playtest("simulate " + model +
                                 " --strategy random,anti-ant,reach,win,expected,cover --runs 50 --mutants "
                                 "--mutant-count 8 --mutant-runs 3 --steps 500 --seed 2 --json");
  EXPECT_EQ(again.out, r.out);
}

}  // namespace
}  // namespace playtest::testing
