// run and simulate on a model program too big to explore (examples/models/counters.ptm: over
// 2 * 10^9 reachable states): the random, anti-ant and pessimistic strategies play it on the fly,
// exploring only what the runs reach; the strategies that need the whole graph are refused, naming
// the strategy and --max-states (docs/testing.md "Models too big to explore").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "counters_adapter.hpp"
#include "playtest/catalog/strategy_table.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/models/counters.ptm");

class OnTheFly : public ::testing::TestWithParam<std::string> {};

TEST_P(OnTheFly, RunPlaysTheModelWithoutExploringIt) {
  ScratchDir d("on_the_fly_run_" + GetParam());
  const std::string sut = d.write("sut.sh", counters_adapter(false));
  // 20 000 steps through a shell adapter (each step a few shell commands: under ThreadSanitizer
  // 100 000 took over two minutes per strategy); simulate below plays 100 000 in process.
  constexpr std::uint64_t steps = 20000;
  CliResult r = run_playtest("run " + model + " --sut 'sh " + sut + "' --strategy " + GetParam() + " --steps " +
                             std::to_string(steps) + " --timeout-ms 10000 --seed 5 --on-the-fly --json --trace " +
                             d.file("t.jsonl"));
  ASSERT_TRUE(r.code == 0 || r.code == 4) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["verdict"] == "PASS" || j["verdict"] == "INCONCLUSIVE") << r.out;
  EXPECT_EQ(j["on_the_fly"], true);
  EXPECT_EQ(j["runs"][0]["steps"], steps);
  // Only the states the run reached were expanded: one per step at most (and the start; a passive
  // state's active twin is expanded with it), against over 2 * 10^9 in the model.
  const std::uint64_t expanded = j["vertices_expanded"];
  EXPECT_GT(expanded, 1000u);
  EXPECT_LE(expanded, 2 * (steps + 1));
  // Coverage is over the part discovered, never a total of the model.
  EXPECT_GT(j["coverage"]["edges_covered"].get<std::uint64_t>(), 1000u);
  EXPECT_LE(j["coverage"]["edges_total"].get<std::uint64_t>(), 6 * 2 * (steps + 1));
  // The trace's campaign line says the totals are unknown.
  std::istringstream in(read_file(d.file("t.jsonl")));
  std::string first;
  std::getline(in, first);
  const auto campaign = nlohmann::json::parse(first);
  EXPECT_EQ(campaign["on_the_fly"], true);
  EXPECT_TRUE(campaign["edges"].is_null());
}

TEST_P(OnTheFly, SimulatePlaysAHundredThousandSteps) {
  CliResult r = run_playtest("simulate " + model + " --strategy " + GetParam() +
                             " --runs 1 --steps 100000 --seed 3 --threads 1 --on-the-fly --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["on_the_fly"], true);
  const auto& row = j["strategies"][0];
  EXPECT_EQ(row["failed"], 0) << r.out;
  EXPECT_EQ(row["errors"], 0) << r.out;
  // The purpose (cover every edge) is far away: the run spends its whole budget. Exploring the model
  // first would not end (the default --max-states, 10^7, would refuse it).
  EXPECT_EQ(row["inconclusive"], 1) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Strategies, OnTheFly, ::testing::Values("random", "anti-ant", "pessimistic"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// simulate's threads each explore their own ModelGraph of one compiled model, at the same time: the
// model's evaluation must not share working memory between them (it once did, and the threads
// corrupted each other's states: bogus "out of range" errors or other numbers than one thread's).
TEST(CliOnTheFly, SimulateGivesTheSameNumbersOnAnyThreadCount) {
  const std::vector<std::string> models = {model + " --param N=5", example("examples/models/redis_pubsub.ptm"),
                                           example("examples/models/chat.ptm")};
  for (const std::string& m : models) {
    const std::string command = "simulate " + m +
                                " --strategy random,anti-ant,pessimistic --runs 60 --steps 300 --seed 7 --json "
                                "--allow-unreachable --on-the-fly --threads ";
    CliResult one = run_playtest(command + "1");
    ASSERT_TRUE(one.code == 0 || one.code == 1 || one.code == 4) << m << one.out << one.err;
    const auto j1 = nlohmann::json::parse(one.out);
    ASSERT_EQ(j1["on_the_fly"], true) << m;
    for (int attempt = 0; attempt < 3; ++attempt) {
      CliResult four = run_playtest(command + "4");
      ASSERT_EQ(four.code, one.code) << m << four.out << four.err;
      EXPECT_EQ(nlohmann::json::parse(four.out), j1) << m;
    }
  }
}

// On the fly a runtime error of the model (here a value out of its range) can first show in the
// middle of a run: the run ends ERROR, what was observed is kept (every stimulus the system got is
// in the trace, with the run's end, the JUnit file and the JSON), no run starts after it, and the
// exit code is the bad model's, with the located error on stderr.
TEST(CliOnTheFly, AModelErrorInARunKeepsWhatWasObserved) {
  ScratchDir d("on_the_fly_model_error");
  const std::string m = d.write("oor.ptm",
                                "model Oor;\nvar x: 0..3 = 0;\ncontrollable Inc { x := x + 1; }\n"
                                "controllable Dec require x > 0 { x := x - 1; }\n");
  const std::string sut =
      d.write("sut.sh", "echo ready\nwhile read -r cmd arg; do\n  echo \"$cmd $arg\" >> " + d.file("sut.log") +
                            "\n  case \"$cmd\" in\n    stimulus) echo ack ;;\n    reset) echo ready ;;\n"
                            "    end) exit 0 ;;\n  esac\ndone\n");
  CliResult r = run_playtest("run " + m + " --sut 'sh " + sut +
                             "' --strategy anti-ant --steps 50 --runs 3 --on-the-fly --json --trace " +
                             d.file("t.jsonl") + " --junit " + d.file("j.xml"));
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("oor.ptm:3:20: error: value 4 is out of range 0..3 of 'x'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in run 1 after 3 steps"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["exit_code"], 2);
  ASSERT_EQ(j["runs"].size(), 1u) << r.out;
  EXPECT_EQ(j["runs"][0]["verdict"], "ERROR");
  // The system got three stimuli (and the end of the run); the trace has all three.
  EXPECT_EQ(read_file(d.file("sut.log")), "stimulus Inc\nstimulus Inc\nstimulus Inc\nend \n");
  std::istringstream in(read_file(d.file("t.jsonl")));
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[4]["to"], "(x=3)");
  EXPECT_EQ(lines[5]["event"], "end");
  EXPECT_EQ(lines[5]["verdict"], "ERROR");
  EXPECT_NE(lines[5]["message"].get<std::string>().find("the model failed after 3 steps"), std::string::npos);
  const std::string junit = read_file(d.file("j.xml"));
  EXPECT_NE(junit.find("<error type=\"ERROR\" message=\"the model failed after 3 steps"), std::string::npos) << junit;
  // simulate has no trace to keep: the model error is the bad input it is (not a run counted as ERROR).
  for (const char* threads : {"1", "2"}) {
    CliResult s = run_playtest("simulate " + m + " --strategy anti-ant --runs 5 --steps 50 --on-the-fly --threads " +
                               std::string(threads));
    EXPECT_EQ(s.code, 2) << s.out << s.err;
    EXPECT_NE(s.err.find("oor.ptm:3:20: error: value 4 is out of range 0..3 of 'x'"), std::string::npos) << s.err;
  }
}

// What is known without exploring is checked before any run, as on an explored graph: a purpose to
// reach a final state of a model that declares none is refused (exit 2) instead of spending the
// whole budget for an INCONCLUSIVE.
TEST(CliOnTheFly, ReachWithoutFinalStatesIsRefusedUpFront) {
  ScratchDir d("on_the_fly_no_final");
  std::string text = read_file(model);
  text.erase(text.find("final "));
  const std::string no_final = d.write("nofinal.ptm", text);
  for (const std::string& command : {"run " + no_final + " --sut true", "simulate " + no_final + " --threads 1"}) {
    CliResult r = run_playtest(command + " --strategy random --purpose reach --steps 100000 --on-the-fly");
    EXPECT_EQ(r.code, 2) << command << r.out << r.err;
    EXPECT_NE(r.err.find("the model declares no final states"), std::string::npos) << r.err;
  }
  CliResult ok = run_playtest("simulate " + model +
                              " --threads 1 --strategy random --purpose reach --steps 100 --runs 2 --on-the-fly");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
}

TEST(CliOnTheFly, AWrongOutputFailsWithTraceAndJunit) {
  ScratchDir d("on_the_fly_fail");
  const std::string sut = d.write("sut.sh", counters_adapter(true));
  CliResult r =
      run_playtest("run " + model + " --sut 'sh " + sut +
                   "' --strategy anti-ant --steps 3000 --timeout-ms 10000 --on-the-fly --junit " + d.file("j.xml"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("observed '?Ack'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--DownY-->"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of the explored part"), std::string::npos) << r.out;
  const std::string junit = read_file(d.file("j.xml"));
  EXPECT_NE(junit.find("<failure type=\"FAIL\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("on_the_fly"), std::string::npos) << junit;
}

TEST(CliOnTheFly, TracesAreReadByReplayAndLearnNotMerge) {
  // The steps of a trace on the fly name vertices (by state, as the explored graph does) and labels
  // but no edge: on the fly edges are numbered in discovery order, not the explored graph's. The
  // begin line records the model's --param, and replay, learn and report read the model with them
  // (counters.ptm itself has 2 * 10^9 states; with N=3, 134 edges).
  ScratchDir d("on_the_fly_trace");
  const std::string sut = d.write("sut.sh", counters_adapter(false));
  CliResult r = run_playtest("run " + model + " --param N=3 --sut 'sh " + sut +
                             "' --steps 60 --seed 2 --timeout-ms 10000 --on-the-fly --trace " + d.file("t.jsonl"));
  ASSERT_TRUE(r.code == 0 || r.code == 4) << r.out << r.err;
  const std::string trace = read_file(d.file("t.jsonl"));
  EXPECT_EQ(trace.find("\"edge\":"), std::string::npos) << trace;
  EXPECT_NE(trace.find("\"label\":\"?Ack\""), std::string::npos) << trace;
  EXPECT_NE(trace.find("\"params\":[\"N=3\"]"), std::string::npos) << trace;
  CliResult learn = run_playtest("learn " + d.file("t.jsonl") + " --json");
  EXPECT_EQ(learn.code, 0) << learn.out << learn.err;
  CliResult replay = run_playtest("replay " + d.file("t.jsonl") + " --sut 'sh " + sut + "' --attempts 2");
  EXPECT_TRUE(replay.code == 0 || replay.code == 4) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("attempt 2: PASS"), std::string::npos) << replay.out;
  CliResult report = run_playtest("report " + d.file("t.jsonl") + " --model " + model + " -o " + d.file("r.html"));
  EXPECT_EQ(report.code, 0) << report.out << report.err;
  // --param overrides what the trace recorded, and --max-states bounds the exploration.
  CliResult big =
      run_playtest("replay " + d.file("t.jsonl") + " --sut 'sh " + sut + "' --param N=1000 --max-states 2000");
  EXPECT_EQ(big.code, 2) << big.out << big.err;
  EXPECT_NE(big.err.find("raise the limit with --max-states N"), std::string::npos) << big.err;
  CliResult merge = run_playtest("merge " + d.file("t.jsonl"));
  EXPECT_EQ(merge.code, 2) << merge.out << merge.err;
  EXPECT_NE(merge.err.find("played on the fly has no totals to merge"), std::string::npos) << merge.err;
}

TEST(CliOnTheFly, StrategiesThatNeedTheWholeGraphAreRefused) {
  for (const std::string strategy : {"reach", "win", "expected", "cover", "planner"}) {
    CliResult r = run_playtest("run " + model + " --sut true --strategy " + strategy + " --max-states 2000");
    EXPECT_EQ(r.code, 2) << strategy << r.out << r.err;
    EXPECT_NE(r.err.find("strategy '" + strategy + "' needs the whole graph"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--max-states"), std::string::npos) << r.err;
    CliResult s = run_playtest("simulate " + model + " --strategy random," + strategy + " --max-states 2000");
    EXPECT_EQ(s.code, 2) << strategy << s.out << s.err;
    EXPECT_NE(s.err.find("strategy '" + strategy + "' needs the whole graph"), std::string::npos) << s.err;
  }
}

TEST(CliOnTheFly, TheHelpAndTheRefusalNameTheRowsThatPlayOnTheFly) {
  // Derived from the rows' on_the_fly flags (the unit test of on_the_fly_strategies checks that it
  // lists exactly those rows), never written out by hand.
  for (const std::string command : {"run", "simulate"}) {
    CliResult h = run_playtest(command + " --help");
    EXPECT_EQ(h.code, 0) << h.err;
    EXPECT_NE(h.out.find("without exploring the model first (" + on_the_fly_strategies() + ")"), std::string::npos)
        << command << h.out;
  }
  CliResult r = run_playtest("run " + model + " --sut true --strategy reach --max-states 2000");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("or test on the fly with --strategy " + on_the_fly_strategies("or") + " (without"),
            std::string::npos)
      << r.err;
}

TEST(CliOnTheFly, JobsAndShardsNeedTheWholeGraph) {
  // Runs on the fly share the graph they discover: with several jobs or a shard the model is
  // explored first (small models keep --jobs and --shard), and a big one is refused.
  for (const std::string option : {"--jobs 2", "--shard 1/2"}) {
    CliResult r = run_playtest("run " + model + " --sut true --strategy random --max-states 2000 " + option);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(option.substr(0, option.find(' ')) + " needs the whole graph"), std::string::npos) << r.err;
  }
  ScratchDir d("on_the_fly_jobs");
  const std::string sut = d.write("sut.sh", counters_adapter(false));
  CliResult r = run_playtest("run " + model + " --param N=3 --sut 'sh " + sut +
                             "' --strategy random --jobs 2 --runs 2 --steps 50 --timeout-ms 10000 --json");
  ASSERT_TRUE(r.code == 0 || r.code == 4) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("on_the_fly"));
  EXPECT_EQ(j["coverage"]["edges_total"], 134);  // the explored model: 108 stimuli, 26 acks
}

}  // namespace
}  // namespace playtest::testing
